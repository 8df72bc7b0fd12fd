// The live doctor on a large cluster: N Clusters with two instance pods each, read and checked
// by `cnpg-i-doctor cluster` in this process. Prints the request count (the claim: a few LISTs
// per kind, not one request per object) and the time, which is only this machine's.
//
//   npx tsx scripts/live-cluster-bench.ts [clusters]                   the fake API server of the tests (default 500)
//   npx tsx scripts/live-cluster-bench.ts [clusters] --control-plane   the real one of test/control-plane (needs its build)
//
// Not in bench/: it reuses the test servers (test/live, test/control-plane), which need the jest
// types that the benchmarks' own build (tsconfig.build.json) leaves out.
import * as fs from 'fs';
import * as https from 'https';
import * as path from 'path';
import { runCluster } from '../src/cli/cluster';
import type { KubeAccess } from '../src/live/kube-access';
import { LIVE_KINDS } from '../src/manifests/live-kinds';
import { ControlPlane } from '../test/control-plane/control-plane';
import { startFakeApiServer, tokenAccess } from '../test/live/fake-apiserver';
import { LIVE_NOW, Obj, find, healthyCluster } from '../test/live/live-cluster';

function fleet(clusters: number, namespaces: { operator: string; databases: string }): Obj[] {
  const base = healthyCluster(namespaces);
  const cluster = find(base, 'Cluster');
  const pod = find(base, 'Pod', 'pg-1');
  const objects: Obj[] = base.filter((o) => o.kind !== 'Cluster' && o.kind !== 'Pod');
  for (let i = 0; i < clusters; i++) {
    const name = `pg${i}`;
    objects.push({ ...cluster, metadata: { ...cluster.metadata, name } });
    for (const serial of [1, 2])
      objects.push({ ...pod, metadata: { ...pod.metadata, name: `${name}-${serial}`, labels: { ...pod.metadata.labels, 'cnpg.io/cluster': name } } });
  }
  return objects;
}

async function onControlPlane(objects: Obj[], namespaces: string[]): Promise<{ access: KubeAccess; done: () => void }> {
  const cp = await ControlPlane.start();
  for (const ns of namespaces) await cp.ensureNamespace(ns);
  const namespaced = objects.filter((o) => o.metadata.namespace !== undefined);
  let next = 0;
  const worker = async () => {
    while (next < namespaced.length) {
      const o = namespaced[next++];
      const { status, ...rest } = o;
      const r = await cp.create(rest);
      if (!r.allowed) throw new Error(`${o.kind}/${o.metadata.name} refused: ${r.message}`);
      if (status !== undefined) await cp.updateStatus({ ...(await cp.get(o.apiVersion, o.kind, o.metadata.namespace, o.metadata.name))!, status });
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
  const ready = JSON.parse(fs.readFileSync(path.join(cp.stateDir, 'ready.json'), 'utf8')) as { ca: string; cert: string; key: string };
  const agent = new https.Agent({ ca: fs.readFileSync(ready.ca), cert: fs.readFileSync(ready.cert), key: fs.readFileSync(ready.key) });
  const access: KubeAccess = {
    server: cp.server,
    context: 'control-plane',
    user: 'admin',
    source: 'the test control plane',
    requestOptions: async () => ({ agent, headers: {} }),
  };
  return { access, done: () => cp.release() };
}

async function main(clusters: number, real: boolean): Promise<void> {
  const suffix = real ? `-${process.pid}` : '';
  const namespaces = { operator: `cnpg-system${suffix}`, databases: `databases${suffix}` };
  const objects = fleet(clusters, namespaces);
  let access: KubeAccess;
  let done: () => Promise<void> | void;
  const t0 = process.hrtime.bigint();
  if (real) {
    ({ access, done } = await onControlPlane(objects, [namespaces.operator, namespaces.databases]));
  } else {
    const server = await startFakeApiServer({ objects });
    access = tokenAccess(server.url);
    done = () => server.close();
  }
  const setupMs = Number(process.hrtime.bigint() - t0) / 1e6;
  let text = '';
  const t1 = process.hrtime.bigint();
  const args = ['--format', 'json', ...(real ? ['-n', namespaces.operator, '-n', namespaces.databases] : [])];
  const code = await runCluster(
    args,
    { stdout: (t) => (text += t), stderr: () => undefined, readStdin: async () => '' },
    { resolve: () => access, now: () => LIVE_NOW },
  );
  const ms = Number(process.hrtime.bigint() - t1) / 1e6;
  await done();
  const report = JSON.parse(text) as { findings: unknown[]; objectCount: number; live: { requests: number } };
  console.log(
    JSON.stringify({
      server: real ? 'control-plane' : 'fake',
      clusters,
      pods: 2 * clusters,
      objects: report.objectCount,
      kinds: LIVE_KINDS.length,
      requests: report.live.requests,
      setupMs: Math.round(setupMs),
      doctorMs: Math.round(ms),
      exitCode: code,
      findings: report.findings.length,
    }),
  );
}

const positional = process.argv.slice(2).filter((a) => !a.startsWith('--'));
void main(Number(positional[0] ?? '500'), process.argv.includes('--control-plane'));
