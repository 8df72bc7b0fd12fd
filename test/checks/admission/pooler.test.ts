import fc from 'fast-check';
import { admit } from '../../../src/checks/admission/index';
import { oddObjects, wellFormed } from './odd-input';

const pooler = (spec: Record<string, unknown>, name = 'pg-pooler-rw') => ({
  apiVersion: 'postgresql.cnpg.io/v1',
  kind: 'Pooler',
  metadata: { name, namespace: 'app' },
  spec: { cluster: { name: 'pg' }, pgbouncer: {}, ...spec },
});

/** What each function of the webhook answers, by function, after the CRD defaults. */
const answers = (object: object) =>
  Object.fromEntries([...admit('Pooler', object as Record<string, unknown>).issues].map(([f, issues]) => [f, issues.map((i) => `${i.severity} ${i.path}`)]));

describe('the Pooler webhook', () => {
  test('each function answers for itself, errors before warnings', () => {
    const object = pooler(
      {
        cluster: { name: 'x' },
        pgbouncer: { authQuerySecret: { name: 'auth' }, parameters: { pool_mode: 'session' } },
        monitoring: { enablePodMonitor: true, tls: { enabled: true } },
      },
      'x',
    );
    expect(answers(object)).toEqual({
      validatePgBouncer: ['error spec.pgbouncer.authQuery'],
      validatePgbouncerGenericParameters: ['error spec.pgbouncer.parameters.pool_mode'],
      validateCluster: ['error metadata.name'],
      validateMonitoring: ['error spec.pgbouncer.clientTLSSecret'],
      getAdmissionWarnings: ['warning spec.pgbouncer.authQuerySecret.name', 'warning spec.pgbouncer.authQuerySecret'],
      validateDeprecatedMonitoringFields: ['warning spec.monitoring.enablePodMonitor'],
    });
    expect(admit('Pooler', object as Record<string, unknown>).issues.get('validatePgbouncerGenericParameters')![0].webhookPath).toBe('spec.cluster.parameters');
  });

  test('a Pooler the CRD defaults complete passes every function', () => {
    expect(answers(pooler({}))).toEqual({});
  });

  test('never throws on odd input', () => {
    const paths = [
      'spec.pgbouncer',
      'spec.pgbouncer.authQuery',
      'spec.pgbouncer.authQuerySecret.name',
      'spec.pgbouncer.serverTLSSecret',
      'spec.pgbouncer.clientTLSSecret.name',
      'spec.pgbouncer.parameters',
      'spec.cluster.name',
      'spec.type',
      'spec.monitoring.enablePodMonitor',
      'spec.monitoring.tls.enabled',
      'spec.monitoring.podMonitorRelabelings',
      'metadata.namespace',
    ];
    fc.assert(fc.property(oddObjects('Pooler', paths), (object) => wellFormed('Pooler', object)));
  });
});
