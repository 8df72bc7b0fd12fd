/**
 * The test control plane itself: it judges (CRD schema, CloudNativePG's webhooks, PodSecurity),
 * stores objects, and takes status through the status subresource.
 */
import { describeWithControlPlane } from './control-plane';

const cluster = (name: string, spec: Record<string, unknown>) => ({
  apiVersion: 'postgresql.cnpg.io/v1',
  kind: 'Cluster',
  metadata: { name },
  spec: { instances: 1, storage: { size: '1Gi' }, ...spec },
});

describeWithControlPlane('the test control plane', (cp) => {
  const ns = 'cp-self-test';

  test('the CRD schema refuses instances: 0', async () => {
    const [r] = await cp().dryRunAll([cluster('zero', { instances: 0 })], ns);
    expect(r.allowed).toBe(false);
    expect(r.message).toContain('spec.instances');
    expect(r.message).toContain('greater than or equal to 1');
  });

  test("CloudNativePG's validating webhook refuses a :latest image", async () => {
    const [r] = await cp().dryRunAll([cluster('latest', { imageName: 'ghcr.io/cloudnative-pg/postgresql:latest' })], ns);
    expect(r.allowed).toBe(false);
    expect(r.message).toContain('admission webhook "vcluster.cnpg.io" denied the request');
    expect(r.causes.map((c) => c.field)).toContain('spec.imageName');
  });

  test("CloudNativePG's mutating webhook defaults what it defaults", async () => {
    const [r] = await cp().dryRunAll([cluster('defaults', {})], ns);
    expect(r).toMatchObject({ allowed: true, message: '' });
    // Cluster.Default() (api/v1 cluster_defaults.go, v1.30.0) sets the image and the UID
    const spec = r.stored?.spec as Record<string, unknown>;
    expect(String(spec.imageName)).toMatch(/^ghcr\.io\/cloudnative-pg\/postgresql:/);
    expect(spec.postgresUID).toBe(26);
  });

  test('PodSecurity enforces restricted on Pods', async () => {
    const pod = (name: string, securityContext: Record<string, unknown>) => ({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name },
      spec: { containers: [{ name: 'c', image: 'registry.example/x:1', securityContext }] },
    });
    const restricted = {
      allowPrivilegeEscalation: false,
      runAsNonRoot: true,
      capabilities: { drop: ['ALL'] },
      seccompProfile: { type: 'RuntimeDefault' },
    };
    const [bad, good] = await cp().dryRunAll([pod('unrestricted', {}), pod('restricted', restricted)], ns);
    expect(bad.allowed).toBe(false);
    expect(bad.message).toContain('violates PodSecurity "restricted:latest"');
    expect(good).toMatchObject({ allowed: true, warnings: [] });
  });

  test('objects are stored, and status is written through the status subresource', async () => {
    // the control plane outlives a run (it is reused), so each run stores a new name
    const name = `stored-${process.pid}-${Date.now().toString(36)}`;
    const created = await cp().create(cluster(name, {}), { namespace: ns });
    expect(created.allowed).toBe(true);
    const read = await cp().get('postgresql.cnpg.io/v1', 'Cluster', ns, name);
    expect(read?.metadata?.uid).toBeDefined();
    const withStatus = await cp().updateStatus({ ...read, status: { phase: 'Cluster in healthy state', readyInstances: 1 } });
    expect(withStatus.status).toMatchObject({ phase: 'Cluster in healthy state', readyInstances: 1 });
    expect((await cp().get('postgresql.cnpg.io/v1', 'Cluster', ns, name))?.status).toMatchObject({ readyInstances: 1 });
    const again = await cp().create(cluster(name, {}), { namespace: ns });
    expect(again.allowed).toBe(false);
    expect(again.message).toContain('already exists');
  });

  test('a Pod and a Certificate are stored and take a status (what a live-cluster check reads)', async () => {
    const suffix = `${process.pid}-${Date.now().toString(36)}`;
    const pod = await cp().create(
      {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: `pod-${suffix}` },
        spec: {
          securityContext: { runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } },
          containers: [{ name: 'c', image: 'registry.example/x:1', securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } } }],
        },
      },
      { namespace: ns },
    );
    expect(pod).toMatchObject({ allowed: true, message: '' });
    const running = await cp().updateStatus({
      ...pod.stored,
      status: { phase: 'Running', podIP: '10.0.0.7', conditions: [{ type: 'Ready', status: 'True' }] },
    });
    expect(running.status).toMatchObject({ phase: 'Running', podIP: '10.0.0.7' });

    const cert = await cp().create(
      {
        apiVersion: 'cert-manager.io/v1',
        kind: 'Certificate',
        metadata: { name: `cert-${suffix}` },
        spec: { secretName: `cert-${suffix}`, dnsNames: ['x.example'], issuerRef: { name: 'ca', kind: 'Issuer' } },
      },
      { namespace: ns },
    );
    expect(cert).toMatchObject({ allowed: true });
    const ready = await cp().updateStatus({ ...cert.stored, status: { conditions: [{ type: 'Ready', status: 'True', reason: 'Ready', message: 'ok' }] } });
    expect(ready.status).toMatchObject({ conditions: [{ type: 'Ready', status: 'True' }] });
  });

  test('a kind nobody serves is refused with a message, not a crash', async () => {
    const [r] = await cp().dryRunAll([{ apiVersion: 'example.com/v1', kind: 'Nothing', metadata: { name: 'x' } }], ns);
    expect(r).toMatchObject({ allowed: false, message: 'no resource serves kind Nothing in example.com/v1' });
  });
});
