import { analyzeManifests, checkManifests } from '../../src/doctor/check-manifests';
import { Doc, doc, fixture, ofRule, summary } from './helpers';

function run(mutate: (spec: Doc, docs: Doc[]) => void, options = {}) {
  const docs = fixture('sidecar-operator.yaml');
  mutate(doc(docs, 'Deployment', 'cnpg-controller-manager').spec.template.spec, docs);
  return checkManifests(docs, options);
}
const OP = 'Deployment/cnpg-system/cnpg-controller-manager';

describe('sidecar plugin rules', () => {
  test('the sidecar fixture is clean', () => {
    expect(checkManifests(fixture('sidecar-operator.yaml'))).toEqual([]);
  });

  describe('CNPGI030 shared socket volume', () => {
    test('sidecar does not mount the socket volume', () => {
      const f = ofRule(
        run((spec) => {
          spec.containers[1].volumeMounts = [];
        }),
        'CNPGI030',
      );
      expect(summary(f)).toEqual([`CNPGI030 error ${OP}`]);
      expect(f[0].message).toBe(
        "sidecar container 'hello' does not mount volume 'plugins', which the manager reads sockets from at '/plugins'; its socket stays invisible to the operator",
      );
      expect(f[0].path).toBe('spec.template.spec.containers[1].volumeMounts');
    });
    test('socket volume that is not an emptyDir is a warning', () => {
      const f = ofRule(
        run((spec) => {
          spec.volumes[0] = { name: 'plugins', hostPath: { path: '/var/run/plugins' } };
        }),
        'CNPGI030',
      );
      expect(summary(f)).toEqual([`CNPGI030 warning ${OP}`]);
    });
    test('native sidecars (init containers with restartPolicy: Always) count', () => {
      const f = ofRule(
        run((spec) => {
          const c = spec.containers.pop();
          c.restartPolicy = 'Always';
          c.volumeMounts = [];
          spec.initContainers = [c];
        }),
        'CNPGI030',
      );
      expect(f[0].path).toBe('spec.template.spec.initContainers[0].volumeMounts');
    });
  });

  describe('CNPGI031 socket directory', () => {
    test('PLUGIN_SOCKET_DIR points where nothing is mounted', () => {
      const f = ofRule(
        run((spec) => {
          spec.containers[0].env.push({ name: 'PLUGIN_SOCKET_DIR', value: '/plugin' });
        }),
        'CNPGI031',
      );
      expect(summary(f)).toEqual([`CNPGI031 error ${OP}`]);
      expect(f[0].message).toContain(
        "mounts nothing at its socket directory '/plugin' (PLUGIN_SOCKET_DIR on the manager container); the volume it shares with the plugin is at '/plugins'",
      );
      expect(f[0].fix).toBe("set PLUGIN_SOCKET_DIR=/plugins on the manager container, or mount the shared volume at '/plugin'");
    });
    test('PLUGIN_SOCKET_DIR through envFrom counts like env', () => {
      const moved = (dir: string, prefix?: string) =>
        ofRule(
          run((spec, docs) => {
            spec.containers[0].envFrom = [{ configMapRef: { name: 'sockets' }, ...(prefix ? { prefix } : {}) }];
            docs.push({
              apiVersion: 'v1',
              kind: 'ConfigMap',
              metadata: { name: 'sockets', namespace: 'cnpg-system' },
              data: { [prefix ? 'SOCKET_DIR' : 'PLUGIN_SOCKET_DIR']: dir },
            });
          }),
          'CNPGI031',
        );
      expect(moved('/plugins')).toEqual([]);
      expect(moved('/plugins', 'PLUGIN_')).toEqual([]);
      expect(moved('/elsewhere')[0].message).toContain("'/elsewhere' (PLUGIN_SOCKET_DIR from envFrom ConfigMap 'sockets')");
    });
    test('PLUGIN_SOCKET_DIR from the operator ConfigMap is read', () => {
      const f = ofRule(
        run((_spec, docs) => {
          docs.push({
            apiVersion: 'v1',
            kind: 'ConfigMap',
            metadata: { name: 'cnpg-controller-manager-config', namespace: 'cnpg-system' },
            data: { PLUGIN_SOCKET_DIR: '/sockets' },
          });
        }),
        'CNPGI031',
      );
      expect(f[0].message).toContain("'/sockets' (PLUGIN_SOCKET_DIR in ConfigMap 'cnpg-controller-manager-config')");
    });
    test('matching PLUGIN_SOCKET_DIR and --plugin-path away from the default are fine', () => {
      const f = run((spec) => {
        spec.containers[0].env.push({ name: 'PLUGIN_SOCKET_DIR', value: '/sockets' });
        spec.containers[0].volumeMounts[0].mountPath = '/sockets';
        spec.containers[1].volumeMounts[0].mountPath = '/sockets';
        spec.containers[1].args = ['plugin', '--plugin-path=/sockets'];
      });
      expect(f).toEqual([]);
    });
    test('sidecar creates its socket outside the shared volume', () => {
      const f = ofRule(
        run((spec) => {
          spec.containers[1].args = ['plugin', '--plugin-path=/tmp/plugins'];
        }),
        'CNPGI031',
      );
      expect(f[0].message).toBe(
        "sidecar container 'hello' creates its socket in '/tmp/plugins' (--plugin-path), but mounts the shared volume 'plugins' at '/plugins'",
      );
    });
    test('sidecar default plugin path is /plugins', () => {
      const f = ofRule(
        run((spec) => {
          spec.containers[1].args = ['plugin'];
          spec.containers[1].volumeMounts[0].mountPath = '/var/plugins';
        }),
        'CNPGI031',
      );
      expect(f[0].message).toContain("creates its socket in '/plugins' (the cnpg-i-machinery default, assumed since no argument names the shared volume)");
      expect(f[0].severity).toBe('warning');
    });
    test('a plugin whose own flag names the shared volume is fine without --plugin-path', () => {
      const f = run((spec) => {
        spec.containers[0].env.push({ name: 'PLUGIN_SOCKET_DIR', value: '/sockets' });
        spec.containers[0].volumeMounts[0].mountPath = '/sockets';
        spec.containers[1].volumeMounts[0].mountPath = '/sockets';
        spec.containers[1].args = ['serve', '--socket-dir=/sockets'];
      });
      expect(ofRule(f, 'CNPGI031')).toEqual([]);
    });
  });

  describe('sidecar names', () => {
    test('a --plugin-name flag names the sidecar', () => {
      const docs = fixture('sidecar-operator.yaml');
      doc(docs, 'Deployment', 'cnpg-controller-manager').spec.template.spec.containers[1].args.push('--plugin-name=hello.example.com');
      const report = analyzeManifests(docs);
      expect(report.plugins).toEqual([{ name: 'hello.example.com', source: 'sidecar', object: OP, address: 'unix:///plugins/hello.example.com' }]);
    });
    test('without a visible name, a Cluster naming a plugin gets a warning that says so', () => {
      const docs = fixture('sidecar-operator.yaml');
      docs.push({
        apiVersion: 'postgresql.cnpg.io/v1',
        kind: 'Cluster',
        metadata: { name: 'pg', namespace: 'app' },
        spec: { storage: { size: '1Gi' }, plugins: [{ name: 'cnpg-i-hello-world.cloudnative-pg.io' }] },
      });
      const f = ofRule(checkManifests(docs), 'CNPGI040');
      expect(summary(f)).toEqual(['CNPGI040 warning Cluster/app/pg']);
      expect(f[0].fix).toBe(
        "if that sidecar serves 'cnpg-i-hello-world.cloudnative-pg.io', pass --sidecar-plugin hello=cnpg-i-hello-world.cloudnative-pg.io (sidecarPlugins); otherwise fix the name or deploy the plugin",
      );
      expect(checkManifests(docs, { knownPlugins: ['cnpg-i-hello-world.cloudnative-pg.io'] })).toEqual([]);
    });
    test('sidecarPlugins names a sidecar: the plugin is discovered, and a misspelled name is an error again', () => {
      const docs = fixture('sidecar-operator.yaml');
      docs.push({
        apiVersion: 'postgresql.cnpg.io/v1',
        kind: 'Cluster',
        metadata: { name: 'pg', namespace: 'app' },
        spec: { storage: { size: '1Gi' }, plugins: [{ name: 'cnpg-i-hello-world.cloudnative-pg.io' }] },
      });
      const named = analyzeManifests(docs, { sidecarPlugins: { hello: 'cnpg-i-hello-world.cloudnative-pg.io' } });
      expect(named.plugins).toEqual([
        { name: 'cnpg-i-hello-world.cloudnative-pg.io', source: 'sidecar', object: OP, address: 'unix:///plugins/cnpg-i-hello-world.cloudnative-pg.io' },
      ]);
      expect(named.findings).toEqual([]);
      const wrong = analyzeManifests(docs, { sidecarPlugins: { hello: 'hello.example.com' }, knownPlugins: ['other.example.com'] });
      expect(summary(ofRule(wrong.findings, 'CNPGI040'))).toEqual(['CNPGI040 error Cluster/app/pg']);
    });
    test('a sidecarPlugins entry must name a plugin', () => {
      expect(() => analyzeManifests([], { sidecarPlugins: { hello: '' } })).toThrow(
        "checkManifests: options.sidecarPlugins.hello '' must be a non-empty string; pass the plugin name the container serves",
      );
      expect(() => analyzeManifests([], { sidecarPlugins: ['x'] as any })).toThrow(
        'checkManifests: options.sidecarPlugins ["x"] must map sidecar container names to plugin names',
      );
    });
    test('unrelated extra containers are not sidecar plugins', () => {
      const f = run((spec) => {
        spec.containers.push({ name: 'proxy', image: 'envoy:1' });
      });
      expect(f).toEqual([]);
    });
  });
});
