import fc from 'fast-check';
import { admit } from '../../../src/checks/admission/index';
import { oddObjects, wellFormed } from './odd-input';

const database = (spec: Record<string, unknown>) => ({
  apiVersion: 'postgresql.cnpg.io/v1',
  kind: 'Database',
  metadata: { name: 'app', namespace: 'app' },
  spec: { cluster: { name: 'pg' }, name: 'app', owner: 'app', ...spec },
});

describe('the Database webhook', () => {
  test('each function answers for itself, in the webhook order', () => {
    const object = database({
      extensions: [{ name: 'e' }, { name: 'e' }],
      schemas: [{ name: 's' }, { name: 's' }],
      fdws: [{ name: 'f', usage: [{ name: 'u' }, { name: 'u' }] }],
      servers: [{ name: 'srv', fdw: 'g' }],
    });
    const issues = admit('Database', object).issues;
    expect(Object.fromEntries([...issues].map(([f, list]) => [f, list.map((i) => `${i.path} ${i.webhookPath ?? ''}`.trim())]))).toEqual({
      validateExtensions: ['spec.extensions[1].name'],
      validateSchemas: ['spec.schemas[1].name'],
      validateFDWs: ['spec.fdws[0].usage[1].name spec.fdws[0].usages[1].name'],
      validateForeignServers: ['spec.servers[0].fdw'],
    });
  });

  test('the CRD default ensure: present keeps the server reference checked', () => {
    expect(admit('Database', database({ servers: [{ name: 'srv', fdw: 'g' }] })).defaulted).toMatchObject({ spec: { servers: [{ ensure: 'present' }] } });
    expect(admit('Database', database({ servers: [{ name: 'srv', fdw: 'g', ensure: 'absent' }] })).issues.size).toBe(0);
  });

  test('never throws on odd input', () => {
    const paths = [
      'spec.extensions',
      'spec.schemas[].name',
      'spec.fdws[].name',
      'spec.fdws[].options',
      'spec.fdws[].usage',
      'spec.servers[].fdw',
      'spec.servers[].ensure',
      'spec.servers[].options[].name',
      'spec.servers[].usage',
    ];
    fc.assert(fc.property(oddObjects('Database', paths), (object) => wellFormed('Database', object)));
  });
});
