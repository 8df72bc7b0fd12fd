import { analyzeManifests, checkManifests } from '../../src/doctor/check-manifests';
import { CRD_KINDS } from '../../src/doctor/rules/schema/schema-rules';
import { crdSchemaKeys } from '../../src/schema';
import { Doc, doc, fixture, ofRule, summary } from './helpers';

function run(mutate: (docs: Doc[]) => void) {
  const docs = fixture('good-plugin.yaml');
  mutate(docs);
  return checkManifests(docs, {});
}

describe('schema rules (src/schema through the registry)', () => {
  test('the good fixture has no schema finding', () => {
    const ids = run(() => undefined).map((f) => f.ruleId);
    expect(ids.filter((id) => /^CNPGI06[0-4]$/.test(id))).toEqual([]);
  });

  test('CNPGI060 an enum value the CRD does not allow, with the allowed values', () => {
    const f = ofRule(
      run((docs) => {
        doc(docs, 'Backup', 'pg-now').spec.method = 'Plugin';
      }),
      'CNPGI060',
    );
    expect(summary(f)).toEqual(['CNPGI060 error Backup/app/pg-now']);
    expect(f[0]).toMatchObject({
      ruleName: 'crd-schema',
      path: 'spec.method',
      message: "spec.method 'Plugin' is not one of the values the CRD allows",
      fix: "use one of 'barmanObjectStore', 'volumeSnapshot', 'plugin'",
    });
  });

  test('the schema rules read every pinned kind, each CloudNativePG kind of the release manifest among them', () => {
    expect([...CRD_KINDS].sort()).toEqual(crdSchemaKeys().map((k) => k.replace(/\/v1\//, '/')));
  });

  test('CNPGI060 a Pooler of an unknown type (the doctor reads Poolers)', () => {
    const f = ofRule(
      run((docs) => {
        docs.push({
          apiVersion: 'postgresql.cnpg.io/v1',
          kind: 'Pooler',
          metadata: { name: 'pg-rw', namespace: 'app' },
          spec: { cluster: { name: 'pg' }, type: 'rx', pgbouncer: {} },
        });
      }),
      'CNPGI060',
    );
    expect(summary(f)).toEqual(['CNPGI060 error Pooler/app/pg-rw']);
    expect(f[0]).toMatchObject({ path: 'spec.type', message: "spec.type 'rx' is not one of the values the CRD allows", fix: "use one of 'rw', 'ro', 'r'" });
  });

  test('CNPGI062 a Database CRD rule; a Database that keeps it passes', () => {
    const database = (name: string) => ({
      apiVersion: 'postgresql.cnpg.io/v1',
      kind: 'Database',
      metadata: { name: `db-${name}`, namespace: 'app' },
      spec: { cluster: { name: 'pg' }, name, owner: 'app' },
    });
    const f = ofRule(
      run((docs) => {
        docs.push(database('template1'), database('app'));
      }),
      'CNPGI062',
    );
    expect(f.map((x) => `${x.object} ${x.path} ${x.fix}`)).toEqual(['Database/app/db-template1 spec.name the name template1 is reserved']);
  });

  test('CNPGI061 a misspelt metadata field of a custom resource', () => {
    const f = ofRule(
      run((docs) => {
        doc(docs, 'Cluster', 'pg').metadata.label = { a: 'b' };
      }),
      'CNPGI061',
    );
    expect(f.map((x) => `${x.path} ${x.fix}`)).toEqual(["metadata.label did you mean 'labels'?"]);
  });

  test('CNPGI062 the Cluster CRD rule on icuLocale', () => {
    const f = ofRule(
      run((docs) => {
        doc(docs, 'Cluster', 'pg').spec.bootstrap = { initdb: { icuLocale: 'en-US', localeProvider: 'libc' } };
      }),
      'CNPGI062',
    );
    expect(f.map((x) => `${x.path} ${x.fix}`)).toEqual(['spec.bootstrap.initdb icuLocale is only available when localeProvider is set to `icu`']);
  });

  test('CNPGI063 a name the API server refuses, on any kind', () => {
    const f = ofRule(
      run((docs) => {
        docs.push({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'Bad_Name', namespace: 'app' } });
      }),
      'CNPGI063',
    );
    expect(summary(f)).toEqual(['CNPGI063 error ConfigMap/app/Bad_Name']);
    expect(f[0].path).toBe('metadata.name');
  });

  test('CNPGI064 a quoted number as targetPort', () => {
    const f = ofRule(
      run((docs) => {
        docs.push({ apiVersion: 'v1', kind: 'Service', metadata: { name: 'web', namespace: 'app' }, spec: { ports: [{ port: 80, targetPort: '8080' }] } });
      }),
      'CNPGI064',
    );
    expect(f.map((x) => `${x.path} ${x.fix}`)).toEqual(['spec.ports[0].targetPort write it as the number 8080']);
  });

  test('an object that contains itself gives one finding, never a stack overflow', () => {
    const f = run((docs) => {
      const pg = doc(docs, 'Cluster', 'pg');
      pg.spec.affinity = { nodeSelector: {} };
      pg.spec.affinity.nodeSelector.self = pg.spec.affinity;
    });
    expect(f.some((x) => x.ruleId === 'CNPGI061' || x.ruleId === 'CNPGI060')).toBe(true);
  });
});

describe('verbose: the CRD rules that are not evaluated are listed, never passed silently', () => {
  const cluster = {
    apiVersion: 'postgresql.cnpg.io/v1',
    kind: 'Cluster',
    metadata: { name: 'pg', namespace: 'db' },
    spec: { instances: 1, storage: { size: '1Gi' }, serviceAccountName: 'pg-sa' },
  };
  test('the transition rule on spec.serviceAccountName is listed with verbose, and is no finding', () => {
    const r = analyzeManifests([cluster], { operatorNamespace: 'cnpg-system', verbose: true });
    expect(r.findings).toEqual([]);
    expect(r.notEvaluated).toEqual([
      { object: 'Cluster/db/pg', path: 'spec.serviceAccountName', rule: 'self == oldSelf', reason: expect.stringContaining('transition rule') },
    ]);
  });
  test('without verbose the report has no notEvaluated list', () => {
    expect(analyzeManifests([cluster], { operatorNamespace: 'cnpg-system' }).notEvaluated).toBeUndefined();
  });
  test('verbose must be a boolean', () => {
    expect(() => analyzeManifests([cluster], { verbose: 'yes' as any })).toThrow(
      "checkManifests: options.verbose 'yes' must be true or false; pass verbose: true",
    );
  });
});
