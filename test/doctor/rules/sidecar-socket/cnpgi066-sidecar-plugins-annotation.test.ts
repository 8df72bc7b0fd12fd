import { analyzeManifests, checkManifests } from '../../../../src/doctor/check-manifests';
import { SIDECAR_PLUGINS_ANNOTATION } from '../../../../src/manifests/sidecar-plugins';
import { Doc, doc, fixture, ofRule, summary } from '../../helpers';

const OP = 'Deployment/cnpg-system/cnpg-controller-manager';
const HELLO = 'cnpg-i-hello-world.cloudnative-pg.io';
const PATH = 'metadata.annotations.cnpg-i.dev/sidecar-plugins';
const CLUSTER = {
  apiVersion: 'postgresql.cnpg.io/v1',
  kind: 'Cluster',
  metadata: { name: 'pg', namespace: 'app' },
  spec: { instances: 1, storage: { size: '1Gi' }, plugins: [{ name: HELLO }] },
};

/** The sidecar operator with its sidecar named by the annotation (`value`, or the entry of `hello`), and a Cluster using it; `mutate` changes the Deployment. */
function input(mutate: (operator: Doc) => void = () => undefined, value?: unknown): Doc[] {
  const docs = [...fixture('sidecar-operator.yaml'), JSON.parse(JSON.stringify(CLUSTER))];
  const operator = doc(docs, 'Deployment', 'cnpg-controller-manager');
  operator.metadata.annotations = {
    [SIDECAR_PLUGINS_ANNOTATION]: value ?? JSON.stringify([{ container: 'hello', plugin: HELLO, socket: `/plugins/${HELLO}` }]),
  };
  mutate(operator);
  return docs;
}
const containers = (operator: Doc) => operator.spec.template.spec.containers;

describe('CNPGI066 the sidecar plugins annotation and the Deployment it describes', () => {
  test('an annotation that agrees names the sidecar: its plugin is discovered, and nothing is reported', () => {
    const report = analyzeManifests(input());
    expect(report.findings).toEqual([]);
    expect(report.plugins).toEqual([{ name: HELLO, source: 'sidecar', object: OP, address: `unix:///plugins/${HELLO}` }]);
  });

  test('without the annotation the sidecar is unnamed, and the Cluster only gets a warning that says so', () => {
    const docs = input();
    delete doc(docs, 'Deployment', 'cnpg-controller-manager').metadata.annotations;
    expect(summary(checkManifests(docs))).toEqual(['CNPGI040 warning Cluster/app/pg']);
  });

  test('an annotation that cannot be read', () => {
    const f = ofRule(checkManifests(input(undefined, 'hello=cnpg-i-hello-world.cloudnative-pg.io')), 'CNPGI066');
    expect(summary(f)).toEqual([`CNPGI066 warning ${OP}`]);
    expect(f[0].message).toBe('annotation cnpg-i.dev/sidecar-plugins is not JSON, so the doctor cannot tell which plugin each sidecar serves');
    expect(f[0].fix).toBe(
      'write it as [{"container":"hello","plugin":"cnpg-i-hello-world.cloudnative-pg.io","socket":"/plugins/cnpg-i-hello-world.cloudnative-pg.io"}], or remove it and name the sidecars with --sidecar-plugin',
    );
    expect(f[0].path).toBe(PATH);
  });

  test('a sidecar the Deployment no longer runs: reported, and the Cluster that uses its plugin is an error (the doctor follows the Deployment)', () => {
    const findings = checkManifests(input((op) => containers(op).splice(1, 1)));
    const f = ofRule(findings, 'CNPGI066');
    expect(summary(f)).toEqual([`CNPGI066 warning ${OP}`]);
    expect(f[0].message).toBe(
      `annotation cnpg-i.dev/sidecar-plugins names sidecar container 'hello' for plugin '${HELLO}', but the Deployment runs no such sidecar; the operator will find no socket '/plugins/${HELLO}'`,
    );
    expect(f[0].fix).toBe("add sidecar container 'hello' back, or remove its entry from the annotation");
    expect(summary(ofRule(findings, 'CNPGI040'))).toEqual(['CNPGI040 error Cluster/app/pg']);
  });

  test('an annotation naming the manager container names no sidecar', () => {
    const value = JSON.stringify([{ container: 'manager', plugin: HELLO, socket: `/plugins/${HELLO}` }]);
    expect(summary(ofRule(checkManifests(input(undefined, value)), 'CNPGI066'))).toEqual([`CNPGI066 warning ${OP}`]);
  });

  test('an annotated sidecar whose socket volume is gone: CNPGI030 reports it', () => {
    const findings = checkManifests(input((op) => (containers(op)[1].volumeMounts = [])));
    expect(summary(findings)).toEqual([`CNPGI030 error ${OP}`]);
  });

  test('a container that names another plugin itself (--plugin-name): the container wins', () => {
    const docs = input((op) => containers(op)[1].args.push('--plugin-name=other.example.com'));
    const f = ofRule(checkManifests(docs), 'CNPGI066');
    expect(summary(f)).toEqual([`CNPGI066 warning ${OP}`]);
    expect(f[0].message).toBe(
      `annotation cnpg-i.dev/sidecar-plugins says container 'hello' serves plugin '${HELLO}', but the container names its plugin 'other.example.com' (--plugin-name or PLUGIN_NAME), which is its socket's name; the doctor follows the container`,
    );
    expect(analyzeManifests(docs).plugins.map((p) => p.name)).toEqual(['other.example.com']);
  });

  test('a socket outside the directory the manager lists', () => {
    const docs = input((op) => {
      containers(op)[0].env.push({ name: 'PLUGIN_SOCKET_DIR', value: '/run/cnpg-i' });
      containers(op)[0].volumeMounts[0].mountPath = '/run/cnpg-i';
      containers(op)[1].volumeMounts[0].mountPath = '/run/cnpg-i';
      containers(op)[1].args = ['plugin', '--plugin-path=/run/cnpg-i'];
    });
    const f = ofRule(checkManifests(docs), 'CNPGI066');
    expect(summary(f)).toEqual([`CNPGI066 warning ${OP}`]);
    expect(f[0].message).toBe(
      `annotation cnpg-i.dev/sidecar-plugins puts the socket of '${HELLO}' at '/plugins/${HELLO}', but the manager lists '/run/cnpg-i' (PLUGIN_SOCKET_DIR on the manager container), where the operator looks for '/run/cnpg-i/${HELLO}'; the doctor follows the manager`,
    );
    expect(f[0].fix).toBe(`set the annotation's socket for 'hello' to '/run/cnpg-i/${HELLO}'`);
    // the plugin is still discovered, at the socket the manager reads
    expect(analyzeManifests(docs).plugins.map((p) => p.address)).toEqual([`unix:///run/cnpg-i/${HELLO}`]);
  });

  test('a container only the annotation marks as a sidecar is judged as one', () => {
    const value = JSON.stringify([{ container: 'audit', plugin: HELLO, socket: `/plugins/${HELLO}` }]);
    const audit = (op: Doc) => {
      containers(op)[1] = { name: 'audit', image: 'example.com/audit:v1', securityContext: containers(op)[1].securityContext };
    };
    const report = analyzeManifests(input(audit, value));
    expect(summary(report.findings)).toEqual([`CNPGI030 error ${OP}`]);
    expect(report.plugins.map((p) => p.name)).toEqual([HELLO]);
    // without the annotation, it is just another container
    const docs = input(audit);
    delete doc(docs, 'Deployment', 'cnpg-controller-manager').metadata.annotations;
    expect(summary(checkManifests(docs))).toEqual(['CNPGI040 error Cluster/app/pg']);
  });

  describe('near misses', () => {
    test('--sidecar-plugin (sidecarPlugins) overrides the annotation without a word: it is what the user says', () => {
      const report = analyzeManifests(input(), { sidecarPlugins: { hello: 'other.example.com' } });
      expect(ofRule(report.findings, 'CNPGI066')).toEqual([]);
      expect(report.plugins.map((p) => p.name)).toEqual(['other.example.com']);
    });
    test('the same socket directory written with a trailing slash, and an empty list', () => {
      expect(checkManifests(input(undefined, JSON.stringify([{ container: 'hello', plugin: HELLO, socket: `/plugins/${HELLO}/` }])))).toEqual([]);
      expect(ofRule(checkManifests(input(undefined, '[]')), 'CNPGI066')).toEqual([]);
    });
    test('a socket directory moved on both sides, annotation included', () => {
      const value = JSON.stringify([{ container: 'hello', plugin: HELLO, socket: `/run/cnpg-i/${HELLO}` }]);
      const docs = input((op) => {
        containers(op)[0].env.push({ name: 'PLUGIN_SOCKET_DIR', value: '/run/cnpg-i' });
        containers(op)[0].volumeMounts[0].mountPath = '/run/cnpg-i';
        containers(op)[1].volumeMounts[0].mountPath = '/run/cnpg-i';
        containers(op)[1].args = ['plugin', '--plugin-path=/run/cnpg-i'];
      }, value);
      expect(checkManifests(docs)).toEqual([]);
    });
    test('a --plugin-name equal to the annotation', () => {
      expect(checkManifests(input((op) => containers(op)[1].args.push(`--plugin-name=${HELLO}`)))).toEqual([]);
    });
  });
});
