/*
 * Every registered rule reports, with each severity it declares: one small input per case, most
 * of them the good fixture with one thing broken. The rules of the first registry have their
 * cases here (their other tests stay with their family's tests); a rule added since brings its
 * own test file, which mirrors its source file (src/doctor/rules/<family>/cnpgiNNN-<name>.ts ->
 * test/doctor/rules/<family>/cnpgiNNN-<name>.test.ts) and trips it with every severity it
 * declares. The first test fails for a rule that has neither.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ruleFiles } from '../../scripts/rule-index';
import { analyzeManifests } from '../../src/doctor/check-manifests';
import { DOCTOR_RULES } from '../../src/doctor/registry';
import type { DoctorOptions } from '../../src/doctor/report';
import { IGNORE_ANNOTATION } from '../../src/rules/suppressions';
import { Doc, doc, fixture } from './helpers';

const b64 = (s: string) => Buffer.from(s).toString('base64');

/** What a case checks. */
interface Input {
  readonly objects: unknown[];
  readonly options?: DoctorOptions;
}
/** Objects as they are. */
const objects =
  (...docs: unknown[]) =>
  (): Input => ({ objects: docs });
/** The good plugin fixture, changed by `mutate`. */
const plugin = (mutate: (docs: Doc[]) => void, options?: DoctorOptions) => (): Input => {
  const docs = fixture('good-plugin.yaml');
  mutate(docs);
  return { objects: docs, options };
};
/** The good plugin fixture with the sidecar operator in place of the plain one, changed by `mutate`. */
const sidecar = (mutate: (docs: Doc[]) => void) => (): Input => {
  const docs = [...fixture('sidecar-operator.yaml'), ...fixture('good-plugin.yaml').filter((d) => d.metadata.name !== 'cnpg-controller-manager')];
  mutate(docs);
  return { objects: docs };
};
const operator = (docs: Doc[]) => doc(docs, 'Deployment', 'cnpg-controller-manager');
const manager = (docs: Doc[]) => operator(docs).spec.template.spec.containers[0];
const service = (docs: Doc[]) => doc(docs, 'Service', 'backup');
const pod = (docs: Doc[]) => doc(docs, 'Deployment', 'backup').spec.template.spec;
const args = (docs: Doc[]) => pod(docs).containers[0].args as string[];
const cluster = (docs: Doc[]) => doc(docs, 'Cluster', 'pg');
const clientCert = (docs: Doc[]) => doc(docs, 'Certificate', 'backup-client');
const serverCert = (docs: Doc[]) => doc(docs, 'Certificate', 'backup-server');
/** The client certificate issued by a CA ClusterIssuer whose (self-signed) CA Certificate is in `caNamespace`. */
const clusterCa = (docs: Doc[], caNamespace: string) => {
  docs.push(
    { apiVersion: 'cert-manager.io/v1', kind: 'ClusterIssuer', metadata: { name: 'root' }, spec: { selfSigned: {} } },
    {
      apiVersion: 'cert-manager.io/v1',
      kind: 'Certificate',
      metadata: { name: 'corp-ca', namespace: caNamespace },
      spec: { isCA: true, commonName: 'corp', secretName: 'corp-ca', issuerRef: { name: 'root', kind: 'ClusterIssuer' } },
    },
    { apiVersion: 'cert-manager.io/v1', kind: 'ClusterIssuer', metadata: { name: 'corp' }, spec: { ca: { secretName: 'corp-ca' } } },
  );
  clientCert(docs).spec.issuerRef = { name: 'corp', kind: 'ClusterIssuer' };
};
/** The plugin Deployment runs the Barman Cloud image, and the Service and its users carry `label`. */
const barmanImage = (docs: Doc[], label: string) => {
  pod(docs).containers[0].image = 'ghcr.io/cloudnative-pg/plugin-barman-cloud:v0.14.0';
  service(docs).metadata.labels['cnpg.io/pluginName'] = label;
};
const barmanOperator = (envFrom: boolean) => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'barman-cloud', namespace: 'cnpg-system' },
  spec: {
    selector: { matchLabels: { app: 'barman-cloud' } },
    template: {
      metadata: { labels: { app: 'barman-cloud' } },
      spec: {
        containers: [
          {
            name: 'barman-cloud',
            image: 'ghcr.io/cloudnative-pg/plugin-barman-cloud:v0.14.0',
            args: ['operator'],
            ...(envFrom ? { envFrom: [{ configMapRef: { name: 'elsewhere' } }] } : {}),
          },
        ],
      },
    },
  },
});

/** One input per rule and severity: `[id, severity, what breaks, input]`. */
const CASES: ReadonlyArray<readonly [string, 'error' | 'warning', string, () => Input]> = [
  ['CNPGI002', 'error', 'a manager without OPERATOR_NAMESPACE', plugin((d) => (manager(d).env = []))],
  ['CNPGI010', 'error', 'a plugin Service without the label', plugin((d) => delete service(d).metadata.labels['cnpg.io/pluginName'])],
  ['CNPGI011', 'error', 'a plugin Service without the port', plugin((d) => delete service(d).metadata.annotations['cnpg.io/pluginPort'])],
  ['CNPGI011', 'warning', 'a misspelled server name', plugin((d) => (service(d).metadata.annotations['cnpg.io/pluginservername'] = 'backup'))],
  ['CNPGI012', 'error', 'an empty label', plugin((d) => (service(d).metadata.labels['cnpg.io/pluginName'] = ''))],
  ['CNPGI012', 'warning', 'an empty server name', plugin((d) => (service(d).metadata.annotations['cnpg.io/pluginServerName'] = ''))],
  ['CNPGI013', 'error', 'a port that is no integer', plugin((d) => (service(d).metadata.annotations['cnpg.io/pluginPort'] = '90x'))],
  ['CNPGI014', 'error', 'a port the Service does not expose', plugin((d) => (service(d).metadata.annotations['cnpg.io/pluginPort'] = '9091'))],
  ['CNPGI015', 'error', 'a targetPort other than --server-address', plugin((d) => (args(d)[3] = '--server-address=:9999'))],
  [
    'CNPGI015',
    'warning',
    'a targetPort no container declares',
    plugin((d) => {
      service(d).spec.ports[0].targetPort = 9090;
      args(d).pop();
      delete pod(d).containers[0].ports;
    }),
  ],
  ['CNPGI016', 'warning', 'a plugin Service without a selector', plugin((d) => delete service(d).spec.selector)],
  [
    'CNPGI016',
    'error',
    'a selector that matches no pod of an input said to be complete',
    plugin((d) => (service(d).spec.selector = { app: 'nothing' }), { complete: true }),
  ],
  ['CNPGI017', 'error', 'a plugin Service outside the operator namespace', plugin((d) => (service(d).metadata.namespace = 'elsewhere'))],
  [
    'CNPGI017',
    'warning',
    'a plugin Service outside an operator namespace that is only assumed',
    plugin((d) => {
      service(d).metadata.namespace = 'elsewhere';
      d.splice(d.indexOf(doc(d, 'Deployment', 'cnpg-controller-manager')), 1);
    }),
  ],
  [
    'CNPGI018',
    'warning',
    'two Services of one plugin name',
    plugin((d) => {
      const copy = JSON.parse(JSON.stringify(service(d)));
      copy.metadata.name = 'backup-2';
      d.push(copy);
    }),
  ],
  [
    'CNPGI019',
    'error',
    'a server name an older operator ignores, the certificate not covering the Service name',
    plugin(
      (d) => {
        service(d).metadata.annotations['cnpg.io/pluginServerName'] = 'backup.example.com';
        serverCert(d).spec.dnsNames = ['backup.example.com'];
      },
      { cnpgVersion: '1.25.0' },
    ),
  ],
  [
    'CNPGI019',
    'warning',
    'a server name an older operator ignores, the certificate covering the Service name',
    plugin((d) => (service(d).metadata.annotations['cnpg.io/pluginServerName'] = 'backup'), { cnpgVersion: '1.25.0' }),
  ],
  ['CNPGI020', 'warning', 'a client Secret nothing writes', plugin((d) => (service(d).metadata.annotations['cnpg.io/pluginClientSecret'] = 'nowhere'))],
  [
    'CNPGI020',
    'error',
    'a client Secret nothing in an input said to be complete writes',
    plugin((d) => (service(d).metadata.annotations['cnpg.io/pluginClientSecret'] = 'nowhere'), { complete: true }),
  ],
  ['CNPGI022', 'error', 'a server certificate without the verified name', plugin((d) => (serverCert(d).spec.dnsNames = ['other']))],
  ['CNPGI023', 'error', 'a client certificate for servers', plugin((d) => (clientCert(d).spec.usages = ['server auth']))],
  ['CNPGI023', 'warning', 'a client certificate without usages', plugin((d) => delete clientCert(d).spec.usages)],
  ['CNPGI024', 'error', 'an issuerRef without a name', plugin((d) => (clientCert(d).spec.issuerRef = { kind: 'Issuer' }))],
  ['CNPGI024', 'warning', 'an issuer that is not in the input', plugin((d) => (clientCert(d).spec.issuerRef = { name: 'missing', kind: 'Issuer' }))],
  [
    'CNPGI025',
    'error',
    'trusting the leaf of a single-tier CA',
    plugin((d) => {
      clusterCa(d, 'cert-manager');
      args(d)[2] = '--client-cert=/client/tls.crt';
    }),
  ],
  [
    'CNPGI025',
    'warning',
    'trusting the leaf of an unknown issuer',
    plugin((d) => {
      clientCert(d).spec.issuerRef = { name: 'missing', kind: 'Issuer' };
      args(d)[2] = '--client-cert=/client/tls.crt';
    }),
  ],
  ['CNPGI026', 'error', 'the client key as --client-cert', plugin((d) => (args(d)[2] = '--client-cert=/client/tls.key'))],
  ['CNPGI026', 'warning', 'a --client-cert no Secret provides', plugin((d) => (args(d)[2] = '--client-cert=/nowhere/ca.crt'))],
  [
    'CNPGI027',
    'warning',
    'an extra Secret mounted',
    plugin((d) => {
      pod(d).volumes.push({ name: 'creds', secret: { secretName: 'cloud-credentials' } });
      pod(d).containers[0].volumeMounts.push({ name: 'creds', mountPath: '/creds' });
    }),
  ],
  ['CNPGI030', 'error', 'a sidecar without the socket volume', sidecar((d) => (operator(d).spec.template.spec.containers[1].volumeMounts = []))],
  [
    'CNPGI030',
    'warning',
    'a socket volume that is no emptyDir',
    sidecar((d) => (operator(d).spec.template.spec.volumes[0] = { name: 'plugins', hostPath: { path: '/x' } })),
  ],
  ['CNPGI031', 'error', 'a manager without the socket directory', sidecar((d) => (manager(d).volumeMounts[0].mountPath = '/sockets'))],
  [
    'CNPGI031',
    'warning',
    'a sidecar assumed to create its socket elsewhere',
    sidecar((d) => {
      const hello = operator(d).spec.template.spec.containers[1];
      hello.args = ['plugin'];
      hello.volumeMounts[0].mountPath = '/sockets';
    }),
  ],
  ['CNPGI039', 'error', 'a plugin entry without a name', plugin((d) => cluster(d).spec.plugins.push({ parameters: {} }))],
  ['CNPGI040', 'error', 'an unknown plugin', plugin((d) => (cluster(d).spec.plugins[0].name = 'unknown.example.com'))],
  ['CNPGI040', 'warning', 'an unknown plugin beside an unnamed sidecar', sidecar((d) => (cluster(d).spec.plugins[0].name = 'unknown.example.com'))],
  ['CNPGI041', 'error', 'two WAL archivers', plugin((d) => cluster(d).spec.plugins.push({ name: 'other.example.com', isWALArchiver: true }))],
  [
    'CNPGI042',
    'error',
    'a WAL archiver plugin and barmanObjectStore',
    plugin((d) => (cluster(d).spec.backup = { barmanObjectStore: { destinationPath: 's3://x' } })),
  ],
  ['CNPGI044', 'error', 'a plugin Backup without a plugin name', plugin((d) => delete doc(d, 'Backup', 'pg-now').spec.pluginConfiguration)],
  ['CNPGI045', 'error', 'a plugin ScheduledBackup without a plugin name', plugin((d) => delete doc(d, 'ScheduledBackup', 'pg-daily').spec.pluginConfiguration)],
  ['CNPGI046', 'warning', 'one plugin listed twice', plugin((d) => cluster(d).spec.plugins.push({ name: 'backup.example.com' }))],
  ['CNPGI047', 'warning', 'a plugin configuration with another method', plugin((d) => (doc(d, 'Backup', 'pg-now').spec.method = 'volumeSnapshot'))],
  ['CNPGI050', 'warning', 'a plugin pod that may run as root', plugin((d) => delete pod(d).securityContext)],
  ['CNPGI061', 'error', 'a misspelt metadata field', plugin((d) => (cluster(d).metadata.label = { a: 'b' }))],
  ['CNPGI062', 'error', 'a CRD CEL rule broken', plugin((d) => (cluster(d).spec.bootstrap = { initdb: { icuLocale: 'en-US', localeProvider: 'libc' } }))],
  [
    'CNPGI063',
    'error',
    'a name the API server refuses',
    plugin((d) => d.push({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'Bad_Name', namespace: 'app' } })),
  ],
  [
    'CNPGI064',
    'error',
    'a quoted number as targetPort',
    plugin((d) =>
      d.push({ apiVersion: 'v1', kind: 'Service', metadata: { name: 'web', namespace: 'app' }, spec: { ports: [{ port: 80, targetPort: '8080' }] } }),
    ),
  ],
  ['CNPGI090', 'warning', 'a document that is no object', objects(42)],
  ['CNPGI091', 'warning', 'an ignore annotation naming no rule', plugin((d) => (cluster(d).metadata.annotations = { [IGNORE_ANNOTATION]: 'CNPG050' }))],
  ['CNPGI100', 'error', 'a recovery source that is no external cluster', plugin((d) => (cluster(d).spec.bootstrap = { recovery: { source: 'nope' } }))],
  ['CNPGI101', 'error', 'a method in the wrong case', plugin((d) => (doc(d, 'Backup', 'pg-now').spec.method = 'Plugin'))],
  ['CNPGI101', 'warning', 'online settings with method plugin', plugin((d) => (doc(d, 'Backup', 'pg-now').spec.online = true))],
  ['CNPGI102', 'error', 'a 5-field schedule', plugin((d) => (doc(d, 'ScheduledBackup', 'pg-daily').spec.schedule = '0 0 * * *'))],
  ['CNPGI102', 'warning', 'a schedule field that selects nothing', plugin((d) => (doc(d, 'ScheduledBackup', 'pg-daily').spec.schedule = '0 0 , * * *'))],
  [
    'CNPGI103',
    'error',
    'a backup through a plugin the Cluster does not load',
    plugin((d) => (doc(d, 'Backup', 'pg-now').spec.pluginConfiguration.name = 'other.example.com'), { knownPlugins: ['other.example.com'] }),
  ],
  ['CNPGI104', 'error', 'INCLUDE_PLUGINS naming no plugin', plugin((d) => manager(d).env.push({ name: 'INCLUDE_PLUGINS', value: 'missing.example.com' }))],
  ['CNPGI105', 'error', 'a Barman Cloud image under another name', plugin((d) => barmanImage(d, 'backup.example.com'))],
  ['CNPGI107', 'error', 'the Barman Cloud operator without SIDECAR_IMAGE', plugin((d) => d.push(barmanOperator(false)))],
  ['CNPGI107', 'warning', 'the Barman Cloud operator with an unknown envFrom', plugin((d) => d.push(barmanOperator(true)))],
  ['CNPGI108', 'error', 'a usage cert-manager does not know', plugin((d) => (clientCert(d).spec.usages = ['clientAuth']))],
  ['CNPGI109', 'error', "a ClusterIssuer's CA outside the cluster-resource namespace", plugin((d) => clusterCa(d, 'cnpg-system'))],
  [
    'CNPGI109',
    'warning',
    "a ClusterIssuer's CA written by a Certificate without a namespace (assumed)",
    plugin((d) => {
      clusterCa(d, 'cnpg-system');
      delete doc(d, 'Certificate', 'corp-ca').metadata.namespace;
    }),
  ],
  [
    'CNPGI110',
    'error',
    'a client Secret without a key',
    plugin((d) =>
      d.push({
        apiVersion: 'v1',
        kind: 'Secret',
        type: 'Opaque',
        metadata: { name: 'backup-client-tls', namespace: 'cnpg-system' },
        data: { 'tls.crt': b64(readFileSync(join(__dirname, '../fixtures/fidelity/client.crt'), 'utf8')) },
      }),
    ),
  ],
  [
    'CNPGI111',
    'error',
    'a headless Service dialled on a port the pods do not declare',
    plugin((d) => {
      service(d).spec.clusterIP = 'None';
      service(d).metadata.annotations['cnpg.io/pluginPort'] = '443';
      service(d).spec.ports = [{ name: 'grpc', port: 443, targetPort: 'grpc' }];
    }),
  ],
  [
    'CNPGI112',
    'error',
    'a self-signed client certificate trusted through a copy',
    plugin((d) => {
      pod(d).volumes.push({ name: 'copy', secret: { secretName: 'client-copy' } });
      pod(d).containers[0].volumeMounts.push({ name: 'copy', mountPath: '/copy' });
      args(d)[2] = '--client-cert=/copy/tls.crt';
    }),
  ],
  ['CNPGI114', 'error', 'a plugin label over 63 characters', plugin((d) => barmanImage(d, `${'x'.repeat(64)}.example.com`))],
  [
    'CNPGI115',
    'error',
    'a Secret whose data is not base64',
    objects({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 's', namespace: 'app' }, data: { k: 'not base64!' } }),
  ],
  [
    'CNPGI115',
    'warning',
    'a Secret whose data is a vals reference, rendered before it is applied',
    objects({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 's', namespace: 'app' }, data: { k: 'ref+op://vault/item/field' } }),
  ],
];

describe('every rule reports', () => {
  test('each rule and each severity it declares has a case here, or the rule has a test file of its own', () => {
    const root = join(__dirname, '..', '..');
    const ownTest = new Map(
      ruleFiles(root, 'src/doctor/rules').map((f) => [
        `CNPGI${/cnpgi(\d{3})/.exec(f)![1]}`,
        existsSync(join(root, 'test/doctor/rules', f.replace(/\.ts$/, '.test.ts'))),
      ]),
    );
    const declared = DOCTOR_RULES.filter((r) => !ownTest.get(r.id)).flatMap((r) => r.severities.map((s) => `${r.id} ${s.severity}`));
    expect(CASES.map(([id, severity]) => `${id} ${severity}`).sort()).toEqual(declared.sort());
  });

  test.each(CASES.map(([id, severity, what, input]) => [id, severity, what, input] as const))('%s %s: %s', (id, severity, _what, input) => {
    const { objects: docs, options } = input();
    expect(analyzeManifests(docs, options).findings.map((f) => `${f.ruleId} ${f.severity}`)).toContain(`${id} ${severity}`);
  });
});
