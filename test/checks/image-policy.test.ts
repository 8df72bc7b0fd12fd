import { checkImages, containerEnv, imageTagProblem, podImages } from '../../src/checks/image-policy';

const DIGEST = 'a'.repeat(64);

describe('imageTagProblem: the one image policy', () => {
  test.each([
    ['ghcr.io/cloudnative-pg/plugin-barman-cloud:v0.14.0', undefined],
    ['registry.example.com:5000/team/plugin:1.2', undefined],
    ['host:5000/img:1.2.3', undefined],
    ['ghcr.io/cloudnative-pg/postgresql:18.4-system-trixie', undefined],
    ['ghcr.io/a/b:sha-3f2a91c', undefined],
    [`ghcr.io/a/b@sha256:${DIGEST}`, undefined],
    [`ghcr.io/a/b:v1@sha256:${DIGEST}`, undefined],
    [`ghcr.io/a/b:main@sha256:${DIGEST}`, undefined],
    ['ghcr.io/a/b', 'has no tag, so the runtime pulls :latest'],
    ['registry.example.com:5000/team/plugin', 'has no tag, so the runtime pulls :latest'],
    ['host:5000/img', 'has no tag, so the runtime pulls :latest'],
    ['ghcr.io/a/b:latest', 'uses the latest tag, which moves under a running Deployment'],
    ['ghcr.io/xataio/cnpg-i-scale-to-zero:main', "uses the tag 'main', a branch or channel name that moves under a running Deployment"],
    ['host:5000/img:edge', "uses the tag 'edge', a branch or channel name that moves under a running Deployment"],
  ])('%s', (image, problem) => {
    expect(imageTagProblem(image)).toBe(problem);
  });
});

describe('the images a pod hands on', () => {
  const secret = { kind: 'Secret', metadata: { name: 'conf' }, data: { SIDECAR_IMAGE: Buffer.from('ghcr.io/a/sidecar:main').toString('base64') } };
  const configMap = { kind: 'ConfigMap', metadata: { name: 'cm' }, data: { SIDECAR_IMAGE: 'ghcr.io/a/sidecar:v2' } };
  const lookup = (kind: string, name: string) => [secret, configMap].find((o) => o.kind === kind && o.metadata.name === name);

  test('env wins over envFrom, a later envFrom over an earlier one, a prefix is prepended', () => {
    expect(containerEnv({ envFrom: [{ secretRef: { name: 'conf' } }] }, 'SIDECAR_IMAGE', lookup)).toEqual({
      value: 'ghcr.io/a/sidecar:main',
      path: 'envFrom[0]',
      from: " (from Secret 'conf')",
    });
    expect(containerEnv({ envFrom: [{ secretRef: { name: 'conf' } }, { configMapRef: { name: 'cm' }, prefix: 'X_' }] }, 'X_SIDECAR_IMAGE', lookup)?.value).toBe(
      'ghcr.io/a/sidecar:v2',
    );
    expect(
      containerEnv({ envFrom: [{ secretRef: { name: 'conf' } }], env: [{ name: 'SIDECAR_IMAGE', value: 'ghcr.io/a/sidecar:v1' }] }, 'SIDECAR_IMAGE', lookup),
    ).toEqual({ value: 'ghcr.io/a/sidecar:v1', path: 'env[0]', from: '' });
    expect(
      containerEnv({ env: [{ name: 'SIDECAR_IMAGE', valueFrom: { secretKeyRef: { name: 'conf', key: 'SIDECAR_IMAGE' } } }] }, 'SIDECAR_IMAGE', lookup)?.value,
    ).toBe('ghcr.io/a/sidecar:main');
    expect(containerEnv({ envFrom: [{ secretRef: { name: 'elsewhere' } }] }, 'SIDECAR_IMAGE', lookup)).toBeUndefined();
  });

  test('containers, init containers and SIDECAR_IMAGE are read; only moving ones are reported', () => {
    const spec = {
      initContainers: [{ name: 'init', image: 'busybox' }],
      containers: [{ name: 'plugin', image: 'ghcr.io/a/plugin:v1.0.0', envFrom: [{ secretRef: { name: 'conf' } }] }],
    };
    expect(podImages(spec, lookup).map((u) => u.path)).toEqual(['containers[0].image', 'containers[0].envFrom[0]', 'initContainers[0].image']);
    expect(checkImages(podImages(spec, lookup), 'spec.template.spec')).toEqual([
      {
        severity: 'warning',
        path: 'spec.template.spec.containers[0].envFrom[0]',
        message:
          "SIDECAR_IMAGE of container 'plugin' (from Secret 'conf') is 'ghcr.io/a/sidecar:main', which uses the tag 'main', a branch or channel name that moves under a running Deployment; a restart or a new node can run another build than the one reviewed",
        fix: "Pin a release tag or a digest, e.g. 'ghcr.io/a/sidecar:v1.2.3' or 'ghcr.io/a/sidecar@sha256:<digest>'.",
      },
      {
        severity: 'warning',
        path: 'spec.template.spec.initContainers[0].image',
        message:
          "container 'init' is 'busybox', which has no tag, so the runtime pulls :latest; a restart or a new node can run another build than the one reviewed",
        fix: "Pin a release tag or a digest, e.g. 'busybox:v1.2.3' or 'busybox@sha256:<digest>'.",
      },
    ]);
  });
});
