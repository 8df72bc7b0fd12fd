// The live doctor on a large cluster: N Clusters with two instance pods each, served by the
// fake API server of the tests (real TLS, paged LISTs), read and checked by `cnpg-i-doctor
// cluster` in this process. Prints the request count (the claim: a few LISTs per kind, not one
// request per object) and the time, which is only this machine's.
//
//   npx tsx bench/live-cluster.ts [clusters]     (default 500)
import { runCluster } from '../src/cli/cluster';
import { LIVE_KINDS } from '../src/live/read-cluster';
import { startFakeApiServer, tokenAccess } from '../test/live/fake-apiserver';
import { LIVE_NOW, Obj, find, healthyCluster } from '../test/live/live-cluster';

async function main(clusters: number): Promise<void> {
  const base = healthyCluster();
  const cluster = find(base, 'Cluster');
  const pod = find(base, 'Pod', 'pg-1');
  const objects: Obj[] = base.filter((o) => o.kind !== 'Cluster' && o.kind !== 'Pod');
  for (let i = 0; i < clusters; i++) {
    const name = `pg${i}`;
    objects.push({ ...cluster, metadata: { ...cluster.metadata, name } });
    for (const serial of [1, 2])
      objects.push({ ...pod, metadata: { ...pod.metadata, name: `${name}-${serial}`, labels: { ...pod.metadata.labels, 'cnpg.io/cluster': name } } });
  }
  const server = await startFakeApiServer({ objects });
  let text = '';
  const t0 = process.hrtime.bigint();
  const code = await runCluster(
    ['--format', 'json'],
    { stdout: (t) => (text += t), stderr: () => undefined, readStdin: async () => '' },
    { resolve: () => tokenAccess(server.url), now: () => LIVE_NOW },
  );
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  await server.close();
  const report = JSON.parse(text) as { findings: unknown[]; objectCount: number };
  console.log(
    JSON.stringify({
      clusters,
      pods: 2 * clusters,
      objects: report.objectCount,
      kinds: LIVE_KINDS.length,
      requests: server.requests.length,
      ms: Math.round(ms),
      exitCode: code,
      findings: report.findings.length,
    }),
  );
}

void main(Number(process.argv[2] ?? '500'));
