import * as path from 'path';
import { Chart, Testing } from 'cdk8s';
import { SIDECAR_PLUGINS_ANNOTATION, SIDECAR_PLUGINS_EXAMPLE, formatSidecarPlugins, readSidecarPluginsAnnotation } from '../../src/manifests/sidecar-plugins';
import { CnpgOperator } from '../../src/plugins';

const OPERATOR = path.join(__dirname, '..', 'fixtures', 'operator', 'operator.yaml');
const withAnnotation = (value: unknown) => ({ metadata: { annotations: { [SIDECAR_PLUGINS_ANNOTATION]: value } } });

describe('the sidecar plugins annotation', () => {
  test('is written sorted by container, with only its three keys', () => {
    expect(
      formatSidecarPlugins([
        { container: 'b', plugin: 'b.example.com', socket: '/plugins/b.example.com' },
        { container: 'a', plugin: 'a.example.com', socket: '/plugins/a.example.com', ...{ extra: 1 } },
      ]),
    ).toBe(
      '[{"container":"a","plugin":"a.example.com","socket":"/plugins/a.example.com"},{"container":"b","plugin":"b.example.com","socket":"/plugins/b.example.com"}]',
    );
  });

  test('reads back what it wrote; an object without it reads as undefined', () => {
    const entries = [{ container: 'hello', plugin: 'hello.example.com', socket: '/plugins/hello.example.com' }];
    expect(readSidecarPluginsAnnotation(withAnnotation(formatSidecarPlugins(entries)))).toEqual({ ok: true, entries });
    expect(readSidecarPluginsAnnotation(withAnnotation(SIDECAR_PLUGINS_EXAMPLE))?.ok).toBe(true);
    expect(readSidecarPluginsAnnotation(withAnnotation('[]'))).toEqual({ ok: true, entries: [] });
    expect(readSidecarPluginsAnnotation({ metadata: { annotations: { other: 'x' } } })).toBeUndefined();
    expect(readSidecarPluginsAnnotation({})).toBeUndefined();
    expect(readSidecarPluginsAnnotation(null)).toBeUndefined();
  });

  test('keys it does not know are ignored', () => {
    const r = readSidecarPluginsAnnotation(withAnnotation('[{"container":"c","plugin":"p","socket":"/plugins/p","image":"x"}]'));
    expect(r).toEqual({ ok: true, entries: [{ container: 'c', plugin: 'p', socket: '/plugins/p' }] });
  });

  test.each([
    [42, 'is not a string'],
    ['{', 'is not JSON'],
    ['{"container":"c"}', 'is not a JSON list'],
    ['[{"container":"c","plugin":"p"}]', 'has an entry 0 without a non-empty string socket'],
    ['[{"container":"c","plugin":"p","socket":"/plugins/p"},"x"]', 'has an entry 1 without a non-empty string container, plugin, socket'],
    ['[{"container":"c","plugin":"","socket":"/plugins/p"}]', 'has an entry 0 without a non-empty string plugin'],
    ['[{"container":"c","plugin":"p","socket":"/s/p"},{"container":"c","plugin":"q","socket":"/s/q"}]', "names container 'c' twice"],
  ])('%p cannot be read: %s', (value, problem) => {
    expect(readSidecarPluginsAnnotation(withAnnotation(value))).toEqual({ ok: false, value, problem });
  });

  test('SidecarPlugin writes it on the operator Deployment, one entry per sidecar', () => {
    const app = Testing.app();
    const operator = CnpgOperator.fromManifest(new Chart(app, 'operator'), 'cnpg', { path: OPERATOR });
    operator.addSidecarPlugin('hello', {
      pluginName: 'cnpg-i-hello-world.cloudnative-pg.io',
      image: 'ghcr.io/cloudnative-pg/cnpg-i-hello-world:v0.1.0',
      args: ['plugin'],
    });
    operator.addSidecarPlugin('audit', { pluginName: 'audit.example.com', image: 'example.com/audit:v1', containerName: 'audit' });
    const reading = readSidecarPluginsAnnotation(operator.deployment.toJson());
    expect(reading).toEqual({
      ok: true,
      entries: [
        { container: 'audit', plugin: 'audit.example.com', socket: '/plugins/audit.example.com' },
        { container: 'cnpg-i-hello-world', plugin: 'cnpg-i-hello-world.cloudnative-pg.io', socket: '/plugins/cnpg-i-hello-world.cloudnative-pg.io' },
      ],
    });
  });
});
