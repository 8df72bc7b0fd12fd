/*
 * The live doctor against the real control plane (a kube-apiserver with the pinned CRDs and
 * CloudNativePG's own webhooks): the library's output and the state a cluster adds are created
 * for real, status through the status subresource; `cnpg-i-doctor cluster` reads it back with
 * the administrator's client certificate. A healthy installation gives no finding; then each
 * family is broken on the server and its rule must report.
 */
import * as fs from 'fs';
import * as https from 'https';
import * as path from 'path';
import { Chart, Testing } from 'cdk8s';
import { DoctorReaderRole, DoctorReaderSubject } from '../../src';
import { runCluster } from '../../src/cli/cluster';
import type { KubeAccess } from '../../src/live/kube-access';
import { runCli } from '../cli/run-cli';
import { LIVE_NOW, Obj, find, healthyCluster } from '../live/live-cluster';
import { ControlPlane, describeWithControlPlane } from './control-plane';

// Namespaces of this process: the control plane is shared by the suites and outlives a run, and
// without a controller-manager a namespace is never deleted.
const OPERATOR_NS = `live-doctor-system-${process.pid}`;
const DB_NS = `live-doctor-db-${process.pid}`;

/** The admin's access, or, with `as`, the admin impersonating that user (RBAC then judges the user). */
function access(cp: ControlPlane, as?: string): KubeAccess {
  const ready = JSON.parse(fs.readFileSync(path.join(cp.stateDir, 'ready.json'), 'utf8')) as { ca: string; cert: string; key: string };
  const agent = new https.Agent({ ca: fs.readFileSync(ready.ca), cert: fs.readFileSync(ready.cert), key: fs.readFileSync(ready.key) });
  const headers: Record<string, string> = as === undefined ? {} : { 'Impersonate-User': as };
  return {
    server: cp.server,
    context: 'control-plane',
    user: as ?? 'admin',
    source: 'the test control plane',
    requestOptions: async () => ({ agent, headers }),
  };
}

async function doctor(cp: ControlPlane, now = LIVE_NOW, as?: string) {
  const { code, out, err } = await runCli(
    (argv, io) => runCluster(argv, io, { resolve: () => access(cp, as), now: () => now }),
    ['-n', OPERATOR_NS, '-n', DB_NS, '--format', 'json'],
  );
  const report = JSON.parse(out) as { findings: Array<{ ruleId: string; object: string; message: string }>; live: { requests: number; notRead: unknown[] } };
  return { code, err, report, ids: report.findings.map((f) => `${f.ruleId} ${f.object}`).sort() };
}

/** Creates an object for real; fails the test with the server's message when refused. */
async function create(cp: ControlPlane, o: Obj): Promise<Obj> {
  const { status, ...rest } = o;
  const r = await cp.create(rest);
  if (!r.allowed) throw new Error(`${o.kind}/${o.metadata.name} refused: ${r.message}`);
  if (status === undefined) return r.stored as Obj;
  const stored = (await cp.get(o.apiVersion, o.kind, o.metadata.namespace, o.metadata.name)) as Obj;
  return (await cp.updateStatus({ ...stored, status })) as Obj;
}

describeWithControlPlane('cnpg-i-doctor cluster on a real API server', (cp) => {
  const objects = healthyCluster({ operator: OPERATOR_NS, databases: DB_NS });

  beforeAll(async () => {
    await cp().ensureNamespace(OPERATOR_NS);
    await cp().ensureNamespace(DB_NS);
    // cluster-scoped objects of the fixture (ClusterRoles) are not what this test is about, and
    // another suite may hold objects of the same name
    for (const o of objects.filter((x) => x.metadata.namespace !== undefined)) await create(cp(), o);
  }, 300_000);

  test("a healthy installation (the library's own output, applied, with its live state) gives no finding", async () => {
    const r = await doctor(cp());
    expect(r.ids).toEqual([]);
    expect(r.code).toBe(0);
  });

  test('the DoctorReaderRole is all the doctor needs: bound, nothing is left unread; unbound, every list is forbidden', async () => {
    const user = `doctor-${process.pid}`;
    const unbound = await doctor(cp(), LIVE_NOW, user);
    expect(unbound.report.live.notRead.length).toBeGreaterThan(0);
    expect(unbound.err).toContain('403 Forbidden');

    const chart = new Chart(Testing.app(), 'ops');
    new DoctorReaderRole(chart, 'doctor', { name: `cnpg-i-doctor-reader-${process.pid}`, subjects: [DoctorReaderSubject.user(user)] });
    for (const o of Testing.synth(chart) as Obj[]) await create(cp(), o);
    const bound = await doctor(cp(), LIVE_NOW, user);
    expect(bound.report.live.notRead).toEqual([]);
    expect(bound.ids).toEqual([]);
    expect(bound.code).toBe(0);
  });

  test('each family broken on the server is reported by its rule', async () => {
    const c = cp();
    // CNPGI400: a third instance created without the sidecar
    const pod = find(objects, 'Pod', 'pg-1');
    const bare = JSON.parse(JSON.stringify(pod)) as Obj;
    bare.metadata.name = 'pg-3';
    bare.metadata.labels['cnpg.io/instanceName'] = 'pg-3';
    bare.spec.initContainers = bare.spec.initContainers.filter((x: Obj) => x.name !== 'plugin-barman-cloud');
    await create(c, bare);
    // CNPGI401: a fourth instance with an old sidecar image
    const old = JSON.parse(JSON.stringify(pod)) as Obj;
    old.metadata.name = 'pg-4';
    old.metadata.labels['cnpg.io/instanceName'] = 'pg-4';
    old.spec.initContainers.find((x: Obj) => x.name === 'plugin-barman-cloud').image = 'ghcr.io/cloudnative-pg/plugin-barman-cloud-sidecar:v0.13.0';
    await create(c, old);
    // CNPGI402: the plugin's endpoint no longer ready
    const slice = find(objects, 'EndpointSlice');
    const liveSlice = (await c.get('discovery.k8s.io/v1', 'EndpointSlice', OPERATOR_NS, slice.metadata.name)) as Obj;
    liveSlice.endpoints[0].conditions.ready = false;
    const put = await c.request('PUT', `/apis/discovery.k8s.io/v1/namespaces/${OPERATOR_NS}/endpointslices/${slice.metadata.name}`, liveSlice);
    expect(put.status).toBe(200);
    // CNPGI403: the server Certificate not Ready
    const certName = objects.find((o) => o.kind === 'Certificate' && o.metadata.name.includes('servercertificate'))!.metadata.name;
    const cert = (await c.get('cert-manager.io/v1', 'Certificate', OPERATOR_NS, certName)) as Obj;
    await c.updateStatus({
      ...cert,
      status: { conditions: [{ type: 'Ready', status: 'False', reason: 'DoesNotExist', message: 'Issuing certificate as Secret does not exist' }] },
    });
    // CNPGI405: archiving failing
    const cluster = (await c.get('postgresql.cnpg.io/v1', 'Cluster', DB_NS, 'pg')) as Obj;
    await c.updateStatus({
      ...cluster,
      status: {
        ...cluster.status,
        conditions: [
          {
            type: 'ContinuousArchiving',
            status: 'False',
            reason: 'ContinuousArchivingFailing',
            message: 'wal archive plugin is not available: barman-cloud.cloudnative-pg.io',
            lastTransitionTime: '2030-01-01T00:00:00Z',
          },
        ],
      },
    });
    // CNPGI406: a Backup failed with the known error
    await create(c, {
      apiVersion: 'postgresql.cnpg.io/v1',
      kind: 'Backup',
      metadata: { name: 'manual', namespace: DB_NS },
      spec: { cluster: { name: 'pg' }, method: 'plugin', pluginConfiguration: { name: 'barman-cloud.cloudnative-pg.io' } },
      status: { phase: 'failed', error: 'requested plugin is not available: barman-cloud.cloudnative-pg.io', instanceID: { podName: 'pg-3' } },
    });
    const serverSecret = objects.find((o) => o.kind === 'Secret' && o.metadata.name.includes('servercertificate'))!.metadata.name;
    const clientSecret = objects.find((o) => o.kind === 'Secret' && o.metadata.name.includes('clientcertificate'))!.metadata.name;
    // CNPGI404: the same certificates judged after they expire
    const r = await doctor(c, new Date('2127-01-01T00:00:00Z'));
    expect(r.ids).toEqual(
      [
        `CNPGI400 Cluster/${DB_NS}/pg`,
        `CNPGI401 Cluster/${DB_NS}/pg`,
        `CNPGI402 Service/${OPERATOR_NS}/${find(objects, 'Service').metadata.name}`,
        `CNPGI403 Certificate/${OPERATOR_NS}/${certName}`,
        `CNPGI404 Secret/${OPERATOR_NS}/${serverSecret}`,
        `CNPGI404 Secret/${OPERATOR_NS}/${clientSecret}`,
        `CNPGI405 Cluster/${DB_NS}/pg`,
        `CNPGI406 Backup/${DB_NS}/manual`,
      ].sort(),
    );
    expect(r.code).toBe(1);
  });
});
