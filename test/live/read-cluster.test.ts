import { runCluster } from '../../src/cli/cluster';
import { LiveAccessError } from '../../src/live/kube-access';
import { SECRET_VALUE_NOT_READ, readLiveCluster } from '../../src/live/read-cluster';
import { LIVE_KINDS } from '../../src/manifests/live-kinds';
import { runCli } from '../cli/run-cli';
import { FakeApiServer, startFakeApiServer, tokenAccess } from './fake-apiserver';
import { LIVE_NOW, Obj, find, healthyCluster } from './live-cluster';

/** The objects of the kinds the live doctor lists (the fixture also holds RBAC objects and the like). */
const listed = (objects: Obj[]) => objects.filter((o) => LIVE_KINDS.some((k) => k.kind === o.kind));

let server: FakeApiServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function serve(objects: Obj[], extra: Partial<Parameters<typeof startFakeApiServer>[0]> = {}) {
  server = await startFakeApiServer({ objects, ...extra });
  return server;
}

describe('readLiveCluster', () => {
  test('one LIST per kind cluster-wide, GET only; server-set metadata dropped; Secret values other than the certificate material replaced', async () => {
    const objects = healthyCluster();
    const s = await serve(objects);
    const read = await readLiveCluster(tokenAccess(s.url), { namespaces: [] });
    expect(read.requests).toBe(LIVE_KINDS.length);
    expect(s.requests).toHaveLength(LIVE_KINDS.length);
    expect(read.gaps).toEqual([]);
    expect(read.objects).toHaveLength(listed(objects).length);
    for (const o of read.objects) {
      const meta = o.metadata as Record<string, unknown>;
      expect([meta.uid, meta.resourceVersion, meta.managedFields, meta.creationTimestamp]).toEqual([undefined, undefined, undefined, undefined]);
    }
    const credentials = read.objects.find((o) => o.kind === 'Secret' && (o.metadata as { name: string }).name === 'backup-credentials')!;
    expect(credentials.data).toEqual({ ACCESS_KEY_ID: SECRET_VALUE_NOT_READ, ACCESS_SECRET_KEY: SECRET_VALUE_NOT_READ });
    const tls = read.objects.find((o) => o.kind === 'Secret' && (o.metadata as { name: string }).name.includes('servercertificate'))!;
    expect(Object.keys(tls.data as object).sort()).toEqual(['ca.crt', 'tls.crt', 'tls.key']);
    expect((tls.data as Record<string, string>)['tls.crt']).toBe(
      objects.find((o) => o.kind === 'Secret' && o.metadata.name === (tls.metadata as { name: string }).name)!.data['tls.crt'],
    );
  });

  test('per namespace: one LIST per namespaced kind and namespace, one per cluster-scoped kind', async () => {
    const s = await serve(healthyCluster());
    const read = await readLiveCluster(tokenAccess(s.url), { namespaces: ['cnpg-system', 'databases'] });
    const namespaced = LIVE_KINDS.filter((k) => k.namespaced).length;
    expect(read.requests).toBe(2 * namespaced + (LIVE_KINDS.length - namespaced));
    expect(s.requests).toContain('/api/v1/namespaces/databases/pods');
    expect(s.requests).toContain('/apis/cert-manager.io/v1/clusterissuers');
    expect(read.objects).toHaveLength(listed(healthyCluster()).length);
  });

  test('pages with limit and continue', async () => {
    const s = await serve(healthyCluster());
    const read = await readLiveCluster(tokenAccess(s.url), { namespaces: [], pageSize: 1 });
    expect(read.objects).toHaveLength(listed(healthyCluster()).length);
    expect(read.requestsByKind.get('Pod')).toBe(2);
  });

  test('a forbidden list and a group not served are gaps; the rest is read', async () => {
    const s = await serve(healthyCluster(), { forbidden: ['secrets'], notServed: ['cert-manager.io'] });
    const read = await readLiveCluster(tokenAccess(s.url), { namespaces: ['cnpg-system', 'databases'] });
    expect(read.gaps.map((g) => g.message)).toEqual([
      `cannot list secrets.core in namespace cnpg-system: 403 Forbidden for user 'tester' (secrets is forbidden: User "system:serviceaccount:default:doctor" cannot list resource "secrets" in API group "" in the namespace "cnpg-system"); the rules that read Secret objects are partial; grant the ClusterRole of 'cnpg-i-doctor cluster --print-cluster-role'`,
      `cannot list secrets.core in namespace databases: 403 Forbidden for user 'tester' (secrets is forbidden: User "system:serviceaccount:default:doctor" cannot list resource "secrets" in API group "" in the namespace "databases"); the rules that read Secret objects are partial; grant the ClusterRole of 'cnpg-i-doctor cluster --print-cluster-role'`,
      `cert-manager.io/v1 certificates is not served by ${s.url} (404 on GET /apis/cert-manager.io/v1/namespaces/cnpg-system/certificates): its CRD is not installed, so no Certificate was read; install it or ignore this if the cluster does not use it`,
      `cert-manager.io/v1 issuers is not served by ${s.url} (404 on GET /apis/cert-manager.io/v1/namespaces/cnpg-system/issuers): its CRD is not installed, so no Issuer was read; install it or ignore this if the cluster does not use it`,
      `cert-manager.io/v1 clusterissuers is not served by ${s.url} (404 on GET /apis/cert-manager.io/v1/clusterissuers): its CRD is not installed, so no ClusterIssuer was read; install it or ignore this if the cluster does not use it`,
    ]);
    expect(read.objects.some((o) => o.kind === 'Pod')).toBe(true);
    expect(read.objects.some((o) => o.kind === 'Secret')).toBe(false);
  });

  test('refused credentials and an unreachable server are one line each', async () => {
    const s = await serve(healthyCluster());
    await expect(readLiveCluster(tokenAccess(s.url, 'stale-token'), { namespaces: [] })).rejects.toThrow(
      new LiveAccessError(
        `the API server ${s.url} refused the credentials of user 'tester' (context 'test'): 401 Unauthorized on GET /apis/apps/v1/deployments; renew the token or certificate in the test`,
      ),
    );
    const url = s.url;
    await s.close();
    server = undefined;
    await expect(readLiveCluster(tokenAccess(url), { namespaces: [] })).rejects.toThrow(
      `cannot reach the API server ${url} (context 'test' of the test): ECONNREFUSED; check that the cluster runs and the address is right (kubectl --context test get --raw /version), or pass --context NAME`,
    );
  });
});

describe('cnpg-i-doctor cluster against a served cluster', () => {
  const run = async (objects: Obj[], argv: string[] = [], extra = {}) => {
    const s = await serve(objects, extra);
    const r = await runCli((a, cliIo) => runCluster(a, cliIo, { resolve: () => tokenAccess(s.url), now: () => LIVE_NOW }), argv);
    return { ...r, url: s.url, requests: s.requests.length };
  };

  test("a healthy installation (the library's own output, applied) gives no finding, CNPGI094 included", async () => {
    const r = await run(healthyCluster());
    expect(r.code).toBe(0);
    expect(r.out.split('\n')[0]).toBe(
      `cnpg-i-doctor cluster: ${listed(healthyCluster()).length} objects read from ${r.url} (context 'test') in ${LIVE_KINDS.length} list requests; operator namespace 'cnpg-system'; CloudNativePG 1.30.0`,
    );
    expect(r.out).toContain('\nNo problems found.\n');
    expect(r.err).toBe('');
  });

  test('a broken family is reported, with the exit code of an error', async () => {
    const objects = healthyCluster();
    find(objects, 'Pod', 'pg-2').spec.initContainers.pop();
    const r = await run(objects, ['--format', 'json']);
    expect(r.code).toBe(1);
    const json = JSON.parse(r.out);
    expect(json.live).toEqual({ server: r.url, context: 'test', requests: LIVE_KINDS.length, notRead: [] });
    expect(json.findings.map((f: { ruleId: string; object: string }) => `${f.ruleId} ${f.object}`)).toEqual(['CNPGI400 Cluster/databases/pg']);
  });

  test("with --namespace, the operator's namespace is read too: plugins are found there", async () => {
    const r = await run(healthyCluster(), ['-n', 'databases']);
    expect(r.err).toBe("cnpg-i-doctor cluster: notice: also read the operator namespace 'cnpg-system', where the operator finds plugins\n");
    expect(r.code).toBe(0);
    expect(r.out).toContain('No problems found.');
    const namespaced = LIVE_KINDS.filter((k) => k.namespaced).length;
    expect(r.requests).toBe(LIVE_KINDS.length + namespaced);
  });

  test('SARIF: the findings as results, without a file to point at', async () => {
    const objects = healthyCluster();
    find(objects, 'EndpointSlice').endpoints = [];
    const r = await run(objects, ['--format', 'sarif']);
    expect(r.code).toBe(1);
    const sarif = JSON.parse(r.out);
    expect(sarif.runs[0].results.map((x: { ruleId: string; level: string }) => `${x.ruleId} ${x.level}`)).toEqual(['CNPGI402 error']);
  });

  test('partial permissions give partial results, said as such', async () => {
    const r = await run(healthyCluster(), [], { forbidden: ['pods'] });
    expect(r.code).toBe(0);
    expect(r.out).toContain('Not read (the results above are partial for these kinds):\n  cannot list pods.core cluster-wide: 403 Forbidden');
    expect(r.err).toContain('cnpg-i-doctor cluster: partial: cannot list pods.core cluster-wide: 403 Forbidden');
  });

  test('500 Clusters and 1000 pods: still one request per kind and page, never one per object', async () => {
    const base = healthyCluster();
    const cluster = find(base, 'Cluster');
    const pod = find(base, 'Pod', 'pg-1');
    const many: Obj[] = base.filter((o) => o.kind !== 'Cluster' && o.kind !== 'Pod');
    for (let i = 0; i < 500; i++) {
      const name = `pg${i}`;
      many.push({ ...cluster, metadata: { ...cluster.metadata, name }, status: { ...cluster.status, currentPrimary: `${name}-1` } });
      for (const serial of [1, 2]) {
        many.push({ ...pod, metadata: { ...pod.metadata, name: `${name}-${serial}`, labels: { ...pod.metadata.labels, 'cnpg.io/cluster': name } } });
      }
    }
    const r = await run(many);
    // pods: 1000 objects in pages of 500 (2 requests); every other kind fits one page
    expect(r.requests).toBe(LIVE_KINDS.length + 1);
    expect(r.code).toBe(0);
  });
});
