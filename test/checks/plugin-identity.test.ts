import { checkPluginIdentity, reportedPluginName } from '../../src/checks/plugin-identity';

describe('plugin identity', () => {
  test.each([
    ['ghcr.io/cloudnative-pg/plugin-barman-cloud:v0.14.0', 'barman-cloud.cloudnative-pg.io'],
    ['ghcr.io/cloudnative-pg/plugin-barman-cloud@sha256:abc', 'barman-cloud.cloudnative-pg.io'],
    ['ghcr.io/cloudnative-pg/plugin-barman-cloud-testing:main', 'barman-cloud.cloudnative-pg.io'],
    ['registry.local:5000/cloudnative-pg/cnpg-i-hello-world:v0.1.0', 'cnpg-i-hello-world.cloudnative-pg.io'],
    ['ghcr.io/cloudnative-pg/plugin-barman-cloud-sidecar:v0.14.0', undefined],
    ['example.com/my/plugin:1', undefined],
    // A mirror is the same binary, and reports the same name.
    ['registry.corp.example/mirror/plugin-barman-cloud:v0.14.0', 'barman-cloud.cloudnative-pg.io'],
    ['localhost/cnpg-i-hello-world-testing', 'cnpg-i-hello-world.cloudnative-pg.io'],
    ['ghcr.io/cloudnative-pg/cnpg-i-hello-world-sidecar:v1', undefined],
    // cnpg-i-scale-to-zero v0.1.9 pkg/metadata/doc.go PluginName; its sidecar is no plugin.
    ['ghcr.io/xataio/cnpg-i-scale-to-zero:v0.1.9', 'cnpg-i-scale-to-zero.xata.io'],
    ['ghcr.io/xataio/cnpg-i-scale-to-zero-sidecar:v0.1.9', undefined],
  ])('%p reports %p', (image, name) => {
    expect(reportedPluginName(image)).toBe(name);
  });

  test('a label that differs from the reported name is an error', () => {
    expect(checkPluginIdentity('barman-cloud', ['ghcr.io/cloudnative-pg/plugin-barman-cloud:v0.14.0'])).toEqual([
      expect.objectContaining({
        severity: 'error',
        fix: "label the Service cnpg.io/pluginName: barman-cloud.cloudnative-pg.io and name 'barman-cloud.cloudnative-pg.io' in the Clusters",
      }),
    ]);
  });
  test('the right label, and unknown images, pass', () => {
    expect(checkPluginIdentity('barman-cloud.cloudnative-pg.io', ['ghcr.io/cloudnative-pg/plugin-barman-cloud:v0.14.0'])).toEqual([]);
    expect(checkPluginIdentity('anything.example.com', ['example.com/my/plugin:1'])).toEqual([]);
  });
});
