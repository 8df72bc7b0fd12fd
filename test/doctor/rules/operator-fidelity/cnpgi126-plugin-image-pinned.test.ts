import { analyzeManifests } from '../../../../src/doctor/check-manifests';
import { Doc, doc, fixture, ofRule } from '../../helpers';

const PLUGIN = 'Deployment/cnpg-system/backup';
const OPERATOR = 'Deployment/cnpg-system/cnpg-controller-manager';

/** CNPGI126's findings as [severity, object, path, message, fix]. */
function findings(docs: Doc[]): unknown[][] {
  return ofRule(analyzeManifests(docs).findings, 'CNPGI126').map((f) => [f.severity, f.object, f.path, f.message, f.fix]);
}

/** The good fixture with the plugin container changed by `mutate`, and `extra` objects. */
function plugin(mutate: (container: Doc) => void, ...extra: Doc[]): Doc[] {
  const docs = fixture('good-plugin.yaml');
  mutate(doc(docs, 'Deployment', 'backup').spec.template.spec.containers[0]);
  return [...docs, ...extra];
}

const moving = (what: string, image: string, problem: string) =>
  `${what} is '${image}', which ${problem}; a restart or a new node can run another build than the one reviewed`;
const MAIN = "uses the tag 'main', a branch or channel name that moves under a running Deployment";
const fix = (repository: string) => `Pin a release tag or a digest, e.g. '${repository}:v1.2.3' or '${repository}@sha256:<digest>'.`;

describe('CNPGI126 plugin-image-pinned', () => {
  test('a plugin Deployment image that moves: no tag, latest, a branch tag', () => {
    expect(findings(plugin((c) => (c.image = 'example.com/backup:main')))).toEqual([
      ['warning', PLUGIN, 'spec.template.spec.containers[0].image', moving("container 'plugin'", 'example.com/backup:main', MAIN), fix('example.com/backup')],
    ]);
    expect(findings(plugin((c) => (c.image = 'example.com/backup:latest')))[0][3]).toBe(
      moving("container 'plugin'", 'example.com/backup:latest', 'uses the latest tag, which moves under a running Deployment'),
    );
    expect(findings(plugin((c) => (c.image = 'host:5000/backup')))[0][3]).toBe(
      moving("container 'plugin'", 'host:5000/backup', 'has no tag, so the runtime pulls :latest'),
    );
  });

  test('SIDECAR_IMAGE from env, from a Secret key, and from envFrom a ConfigMap', () => {
    const sidecar = 'example.com/backup-sidecar:main';
    expect(findings(plugin((c) => (c.env = [{ name: 'SIDECAR_IMAGE', value: sidecar }])))).toEqual([
      [
        'warning',
        PLUGIN,
        'spec.template.spec.containers[0].env[0]',
        moving("SIDECAR_IMAGE of container 'plugin'", sidecar, MAIN),
        fix('example.com/backup-sidecar'),
      ],
    ]);
    const secret = {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'plugin-config', namespace: 'cnpg-system' },
      data: { SIDECAR_IMAGE: Buffer.from(sidecar).toString('base64') },
    };
    expect(
      findings(plugin((c) => (c.env = [{ name: 'SIDECAR_IMAGE', valueFrom: { secretKeyRef: { name: 'plugin-config', key: 'SIDECAR_IMAGE' } } }]), secret)),
    ).toEqual([
      [
        'warning',
        PLUGIN,
        'spec.template.spec.containers[0].env[0]',
        moving("SIDECAR_IMAGE of container 'plugin' (from Secret 'plugin-config')", sidecar, MAIN),
        fix('example.com/backup-sidecar'),
      ],
    ]);
    const configMap = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'plugin-config', namespace: 'cnpg-system' }, data: { SIDECAR_IMAGE: sidecar } };
    expect(findings(plugin((c) => (c.envFrom = [{ configMapRef: { name: 'plugin-config' } }]), configMap)).map((f) => f[2])).toEqual([
      'spec.template.spec.containers[0].envFrom[0]',
    ]);
  });

  test('a sidecar plugin container of the operator Deployment', () => {
    const docs = [...fixture('sidecar-operator.yaml'), ...fixture('good-plugin.yaml').filter((d) => d.metadata.name !== 'cnpg-controller-manager')];
    doc(docs, 'Deployment', 'cnpg-controller-manager').spec.template.spec.containers[1].image = 'ghcr.io/cloudnative-pg/cnpg-i-hello-world:latest';
    expect(findings(docs)).toEqual([
      [
        'warning',
        OPERATOR,
        'spec.template.spec.containers[1].image',
        moving("container 'hello'", 'ghcr.io/cloudnative-pg/cnpg-i-hello-world:latest', 'uses the latest tag, which moves under a running Deployment'),
        fix('ghcr.io/cloudnative-pg/cnpg-i-hello-world'),
      ],
    ]);
  });

  test('near misses pass: a semver tag, a digest, a registry with a port, a sidecar image the input does not show', () => {
    expect(findings(fixture('good-plugin.yaml'))).toEqual([]);
    expect(findings(fixture('sidecar-operator.yaml'))).toEqual([]);
    expect(findings(plugin((c) => (c.image = `example.com/backup:main@sha256:${'c'.repeat(64)}`)))).toEqual([]);
    expect(findings(plugin((c) => (c.image = 'host:5000/img:1.2.3')))).toEqual([]);
    expect(findings(plugin((c) => (c.envFrom = [{ secretRef: { name: 'not-in-the-input' } }])))).toEqual([]);
    expect(findings(plugin((c) => (c.env = [{ name: 'SIDECAR_IMAGE', value: 'example.com/backup-sidecar:v1.0.0' }])))).toEqual([]);
  });

  test('a moving image outside a plugin Deployment is not this rule’s business', () => {
    const other = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web', namespace: 'cnpg-system' },
      spec: {
        selector: { matchLabels: { app: 'web' } },
        template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'web', image: 'nginx' }] } },
      },
    };
    expect(findings([...fixture('good-plugin.yaml'), other])).toEqual([]);
  });
});
