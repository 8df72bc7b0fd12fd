/*
 * A healthy installation as a running cluster holds it: the library's own output (the Barman
 * Cloud plugin, an operator Deployment, a Cluster archiving to an ObjectStore) plus what the
 * cluster adds (issued Secrets with real certificates, a ready EndpointSlice, Ready
 * Certificates, instance pods carrying the injected sidecar, Cluster and Backup status). Each
 * family test breaks one thing of it.
 */
import { ApiObject, Chart, Size, Testing } from 'cdk8s';
import { BarmanCloudPlugin, ObjectStore, ObjectStoreCredentials, PostgresCluster } from '../../src';
import { API_OPTION_NAMES, analyzeWithNames } from '../../src/doctor/check-manifests';
import { fixture } from './fake-apiserver';

export type Obj = Record<string, any>;

const RESTRICTED = { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } };

const b64 = (text: string) => Buffer.from(text).toString('base64');

/** The time the tests judge certificates at: inside the fixtures' validity. */
export const LIVE_NOW = new Date('2030-01-01T00:00:00Z');

export const OPERATOR_NS = 'cnpg-system';
export const DB_NS = 'databases';
export const CLUSTER = 'pg';

/** The synthesized manifests and the live state, as a cluster would answer LISTs. */
export function healthyCluster(namespaces: { operator: string; databases: string } = { operator: OPERATOR_NS, databases: DB_NS }): Obj[] {
  const OPERATOR_NS = namespaces.operator;
  const DB_NS = namespaces.databases;
  const app = Testing.app();
  const system = new Chart(app, 'cnpg-system', { namespace: OPERATOR_NS });
  const barman = new BarmanCloudPlugin(system, 'barman', { serverName: 'barman-cloud' });
  new ApiObject(system, 'operator', {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'cnpg-controller-manager', labels: { 'app.kubernetes.io/name': 'cloudnative-pg' } },
    spec: {
      selector: { matchLabels: { 'app.kubernetes.io/name': 'cloudnative-pg' } },
      template: {
        metadata: { labels: { 'app.kubernetes.io/name': 'cloudnative-pg' } },
        spec: {
          containers: [
            {
              name: 'manager',
              image: 'ghcr.io/cloudnative-pg/cloudnative-pg:1.30.0',
              command: ['/manager'],
              args: ['controller'],
              env: [{ name: 'OPERATOR_NAMESPACE', valueFrom: { fieldRef: { fieldPath: 'metadata.namespace' } } }],
            },
          ],
        },
      },
    },
  });
  const apps = new Chart(app, 'databases', { namespace: DB_NS });
  const store = new ObjectStore(apps, 'store', {
    destinationPath: 's3://backups/pg',
    credentials: ObjectStoreCredentials.s3AccessKeys({
      accessKeyId: { name: 'backup-credentials', key: 'ACCESS_KEY_ID' },
      secretAccessKey: { name: 'backup-credentials', key: 'ACCESS_SECRET_KEY' },
    }),
  });
  const pg = new PostgresCluster(apps, 'pg', { instances: 2, storage: { size: Size.gibibytes(1) }, metadata: { name: CLUSTER } } as never);
  pg.addPlugin(barman, { isWalArchiver: true, objectStore: store });
  const objects = [...Testing.synth(system), ...Testing.synth(apps)] as Obj[];

  const service = objects.find((o) => o.kind === 'Service')!;
  const ann = service.metadata.annotations as Record<string, string>;
  const pluginDeployment = objects.find((o) => o.kind === 'Deployment' && o.metadata.name !== 'cnpg-controller-manager')!;
  // the plugin reads its sidecar image from a ConfigMap, as the upstream manifest does
  const imageRef = (pluginDeployment.spec.template.spec.containers[0].env as Obj[]).find((e) => e.name === 'SIDECAR_IMAGE')!.valueFrom.configMapKeyRef;
  const sidecarImage = find(objects, 'ConfigMap', imageRef.name).data[imageRef.key] as string;
  const cluster = objects.find((o) => o.kind === 'Cluster')!;

  for (const o of objects) {
    if (o.kind === 'Certificate')
      o.status = {
        conditions: [
          {
            type: 'Ready',
            status: 'True',
            reason: 'Ready',
            message: 'Certificate is up to date and has not expired',
            lastTransitionTime: '2026-12-01T00:00:00Z',
          },
        ],
      };
  }
  cluster.status = {
    phase: 'Cluster in healthy state',
    currentPrimary: `${cluster.metadata.name}-1`,
    conditions: [
      {
        type: 'ContinuousArchiving',
        status: 'True',
        reason: 'ContinuousArchivingSuccess',
        message: 'Continuous archiving is working',
        lastTransitionTime: '2026-12-01T00:00:00Z',
      },
    ],
  };
  const secret = (name: string, crt: string, key: string): Obj => ({
    apiVersion: 'v1',
    kind: 'Secret',
    type: 'kubernetes.io/tls',
    metadata: { name, namespace: OPERATOR_NS },
    data: { 'tls.crt': b64(crt), 'tls.key': b64(key), 'ca.crt': b64(crt) },
  });
  const pod = (serial: number): Obj => ({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: `${cluster.metadata.name}-${serial}`,
      namespace: DB_NS,
      labels: { 'cnpg.io/cluster': cluster.metadata.name, 'cnpg.io/podRole': 'instance', 'cnpg.io/instanceName': `${cluster.metadata.name}-${serial}` },
      annotations: { 'cnpg.io/podSpec': '{}' },
    },
    spec: {
      // what the restricted Pod Security level asks, as CloudNativePG's instance pods have it
      securityContext: { runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } },
      initContainers: [
        { name: 'bootstrap-controller', image: 'ghcr.io/cloudnative-pg/cloudnative-pg:1.30.0', securityContext: RESTRICTED },
        { name: 'plugin-barman-cloud', image: sidecarImage, restartPolicy: 'Always', args: ['instance'], securityContext: RESTRICTED },
      ],
      containers: [{ name: 'postgres', image: 'ghcr.io/cloudnative-pg/postgresql:18', securityContext: RESTRICTED }],
    },
    status: { phase: 'Running' },
  });
  return [
    ...objects,
    secret(ann['cnpg.io/pluginServerSecret'], fixture('plugin-server.crt'), fixture('plugin-server.key')),
    secret(ann['cnpg.io/pluginClientSecret'], fixture('plugin-client.crt'), fixture('plugin-client.key')),
    {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'backup-credentials', namespace: DB_NS },
      data: { ACCESS_KEY_ID: b64('AKIAEXAMPLE'), ACCESS_SECRET_KEY: b64('example-secret-value') },
    },
    {
      apiVersion: 'discovery.k8s.io/v1',
      kind: 'EndpointSlice',
      metadata: { name: `${service.metadata.name}-abcde`, namespace: OPERATOR_NS, labels: { 'kubernetes.io/service-name': service.metadata.name } },
      addressType: 'IPv4',
      endpoints: [{ addresses: ['10.0.0.5'], conditions: { ready: true, serving: true, terminating: false } }],
      ports: [{ port: 9090, protocol: 'TCP', name: 'grpc' }],
    },
    pod(1),
    pod(2),
  ];
}

/** The first object of `kind` (and name). */
export function find(objects: Obj[], kind: string, name?: string): Obj {
  const o = objects.find((x) => x.kind === kind && (name === undefined || x.metadata.name === name));
  if (!o) throw new Error(`no ${kind}${name ? ` ${name}` : ''} in the fixture`);
  return o;
}

/** The findings of rule `id` when the doctor reads `objects` as a live cluster read at `now`. */
export function liveFindings(objects: Obj[], id: string, now: Date = LIVE_NOW, unread: readonly string[] = []) {
  const report = analyzeWithNames(objects, {}, API_OPTION_NAMES, { now, unread: new Set(unread) });
  return report.findings.filter((f) => f.ruleId === id).map((f) => ({ severity: f.severity, object: f.object, message: f.message, fix: f.fix, path: f.path }));
}

/** Every finding, for the healthy installation. */
export function allLiveFindings(objects: Obj[], now: Date = LIVE_NOW) {
  return analyzeWithNames(objects, {}, API_OPTION_NAMES, { now, unread: new Set() }).findings;
}
