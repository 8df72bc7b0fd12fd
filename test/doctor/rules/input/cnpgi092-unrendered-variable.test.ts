import { analyzeManifests } from '../../../../src/doctor/check-manifests';
import { Doc, ofRule, summary } from '../../helpers';

/** A Flux app's Cluster and its ScheduledBackup, with the variables `vars` leaves unrendered. */
function app(vars: Record<string, unknown> = {}): Doc[] {
  const v = (name: string) => (name in vars ? vars[name] : `\${${name}}`);
  return [
    {
      apiVersion: 'postgresql.cnpg.io/v1',
      kind: 'Cluster',
      metadata: { name: `${v('APP') as string}-db`, namespace: v('NS') },
      spec: {
        instances: v('PG_REPLICAS'),
        imageName: `ghcr.io/cloudnative-pg/postgresql:${v('PG_VERSION') as string}`,
        postgresql: { synchronous: { method: 'any', number: 1 } },
        storage: { size: v('PG_SIZE'), storageClass: v('STORAGE_CLASS') },
        backup: { volumeSnapshot: { className: 'csi-snapshots' } },
      },
    },
    {
      apiVersion: 'postgresql.cnpg.io/v1',
      kind: 'ScheduledBackup',
      metadata: { name: `${v('APP') as string}-nightly`, namespace: v('NS') },
      spec: { schedule: '0 0 0 * * *', method: 'volumeSnapshot', cluster: { name: `${v('APP') as string}-db` } },
    },
  ];
}

const RENDERED = { APP: 'orders', NS: 'db', PG_REPLICAS: 3, PG_VERSION: '17.5-system-trixie', PG_SIZE: '10Gi', STORAGE_CLASS: 'fast' };
const OPTIONS = { operatorNamespace: 'cnpg-system' };

describe('CNPGI092 unrendered-variable', () => {
  test('one warning per object, naming the variables and the fields it leaves unjudged; nothing else', () => {
    const report = analyzeManifests(app(), OPTIONS);
    expect(summary(report.findings)).toEqual(['CNPGI092 warning Cluster/${NS}/${APP}-db', 'CNPGI092 warning ScheduledBackup/${NS}/${APP}-nightly']);
    expect(report.findings.map((f) => [f.message, f.fix])).toEqual([
      [
        'variables ${APP}, ${NS}, ${PG_VERSION}, ${PG_REPLICAS}, ${PG_SIZE}, ${STORAGE_CLASS} have no value here, so the fields metadata.name, metadata.namespace, spec.imageName and 3 more are not judged',
        'give their values with --var APP=VALUE (or --vars-from FILE), or put the Flux Kustomization that substitutes them in the input',
      ],
      [
        'variables ${APP}, ${NS} have no value here, so the fields metadata.name, metadata.namespace, spec.cluster.name are not judged',
        'give their values with --var APP=VALUE (or --vars-from FILE), or put the Flux Kustomization that substitutes them in the input',
      ],
    ]);
    // what the text would have been judged as: names and namespaces (CNPGI063), the type of
    // spec.instances (CNPGI060), a name's length (CNPGI116); the webhook's checks (the size, the
    // image tag, and a synchronous.number judged against an instance count the doctor would have
    // invented) are withheld inside admission, one upstream function at a time
    expect([...new Set(report.withheld.map((f) => f.ruleId))].sort()).toEqual(['CNPGI060', 'CNPGI063', 'CNPGI116']);
    expect(report.withheld.every((f) => f.object.includes('${'))).toBe(true);
  });

  test('the same objects rendered are judged in full: with one instance, synchronous.number 1 is refused', () => {
    expect(summary(analyzeManifests(app(RENDERED), OPTIONS).findings)).toEqual([]);
    const oneInstance = analyzeManifests(app({ ...RENDERED, PG_REPLICAS: 1 }), OPTIONS);
    expect(summary(oneInstance.findings)).toEqual(['CNPGI328 error Cluster/db/orders-db']);
  });

  test('a rule that reads only rendered fields of the object still judges it', () => {
    const docs = app({ ...RENDERED, PG_REPLICAS: 1, STORAGE_CLASS: undefined });
    // storageClass unrendered: the instance count is rendered, so CNPGI328 still stands
    (docs[0].spec.storage as Doc).storageClass = '${STORAGE_CLASS}';
    (docs[0].spec as Doc).primaryUpdateStrategy = 'sometimes';
    const report = analyzeManifests(docs, OPTIONS);
    expect(summary(report.findings)).toEqual([
      'CNPGI060 error Cluster/db/orders-db',
      'CNPGI308 error Cluster/db/orders-db',
      'CNPGI328 error Cluster/db/orders-db',
      'CNPGI092 warning Cluster/db/orders-db',
    ]);
    expect(ofRule(report.findings, 'CNPGI092')[0].message).toBe(
      'variable ${STORAGE_CLASS} has no value here, so the field spec.storage.storageClass is not judged',
    );
  });

  test('near misses: an escaped $${VAR}, a $VAR without braces and a dollar amount are rendered text', () => {
    const docs = app(RENDERED);
    docs[0].metadata.annotations = { note: 'costs $5 a month', escaped: '$${NOT_A_VARIABLE}', shell: '$HOME' };
    const report = analyzeManifests(docs, OPTIONS);
    expect(report.findings).toEqual([]);
    expect(report.withheld).toEqual([]);
  });

  test('a variable in a label: the label value is not judged, the rest of the object is', () => {
    const docs = app({ ...RENDERED, PG_REPLICAS: 1 });
    docs[0].metadata.labels = { 'app.kubernetes.io/part-of': '${PLATFORM}' };
    const report = analyzeManifests(docs, OPTIONS);
    expect(summary(report.findings)).toEqual(['CNPGI328 error Cluster/db/orders-db', 'CNPGI092 warning Cluster/db/orders-db']);
    expect(report.withheld.map((f) => [f.ruleId, f.path])).toEqual([['CNPGI063', 'metadata.labels["app.kubernetes.io/part-of"]']]);
  });
});

describe('CNPGI092 on SOPS-encrypted files', () => {
  const sopsStore = (compression: string) => ({
    apiVersion: 'barmancloud.cnpg.io/v1',
    kind: 'ObjectStore',
    metadata: { name: 'store', namespace: 'db' },
    spec: { configuration: { destinationPath: 's3://backups/', data: { compression } } },
    sops: { mac: 'ENC[AES256_GCM,data:AAAA,iv:BBBB,tag:CCCC,type:str]', lastmodified: '2026-01-01T00:00:00Z', version: '3.9.0' },
  });

  test('an encrypted value is not judged, and the sops metadata Flux removes is not a field of the object', () => {
    const report = analyzeManifests([sopsStore('ENC[AES256_GCM,data:vjWvzQ==,iv:e+7r,tag:74ni,type:str]')], OPTIONS);
    expect(report.findings.map((f) => [f.ruleId, f.message, f.fix])).toEqual([
      [
        'CNPGI092',
        'values encrypted with SOPS are decrypted by Flux only, so the field spec.configuration.data.compression is not judged',
        'decrypt the file to check its values (sops -d FILE | cnpg-i-doctor -)',
      ],
    ]);
    expect(report.withheld.map((f) => [f.ruleId, f.path])).toEqual([['CNPGI060', 'spec.configuration.data.compression']]);
  });

  test('near misses: a decrypted value is judged; a field named sops without a SOPS mac stays a field', () => {
    expect(summary(analyzeManifests([sopsStore('zip')], OPTIONS).findings)).toEqual(['CNPGI060 error ObjectStore/db/store']);
    const notSops = { ...sopsStore('gzip'), sops: { note: 'x' } };
    expect(summary(analyzeManifests([notSops], OPTIONS).findings)).toEqual(['CNPGI061 error ObjectStore/db/store']);
  });
});
