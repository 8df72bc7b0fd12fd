import { checkOperatorConfig, noProxyMatches, resolveOperatorConfig } from '../../src/checks/operator-config';

const NS_FROM_POD = { name: 'OPERATOR_NAMESPACE', valueFrom: { fieldRef: { fieldPath: 'metadata.namespace' } } };
const operator = (container: object) => ({
  kind: 'Deployment',
  metadata: { name: 'cnpg-controller-manager', namespace: 'cnpg-system' },
  spec: {
    template: {
      spec: {
        containers: [
          {
            name: 'manager',
            args: ['controller', '--config-map-name=cnpg-controller-manager-config', '--secret-name=cnpg-controller-manager-config'],
            ...container,
          },
        ],
      },
    },
  },
});
const cm = (data: object, name = 'cnpg-controller-manager-config') => ({ kind: 'ConfigMap', metadata: { name, namespace: 'cnpg-system' }, data });
const secret = (data: Record<string, string>, name = 'cnpg-controller-manager-config') => ({
  kind: 'Secret',
  metadata: { name, namespace: 'cnpg-system' },
  data: Object.fromEntries(Object.entries(data).map(([k, v]) => [k, Buffer.from(v).toString('base64')])),
});
const resolve = (container: object, configMaps: object[] = [], secrets: object[] = []) =>
  resolveOperatorConfig({ deployment: operator(container), configMaps, secrets } as never);

describe('resolveOperatorConfig', () => {
  test('defaults, and OPERATOR_NAMESPACE from the downward API', () => {
    const c = resolve({ env: [NS_FROM_POD] });
    expect(c).toMatchObject({ operatorNamespace: 'cnpg-system', pluginSocketDir: '/plugins', pluginSocketDirSource: 'default', includePlugins: [] });
  });

  test('PLUGIN_SOCKET_DIR through envFrom counts like env; env wins over envFrom', () => {
    expect(resolve({ env: [NS_FROM_POD], envFrom: [{ configMapRef: { name: 'extra' } }] }, [cm({ PLUGIN_SOCKET_DIR: '/sockets' }, 'extra')])).toMatchObject({
      pluginSocketDir: '/sockets',
      pluginSocketDirSource: 'envFrom',
    });
    expect(
      resolve({ env: [NS_FROM_POD, { name: 'PLUGIN_SOCKET_DIR', value: '/mine' }], envFrom: [{ configMapRef: { name: 'extra' } }] }, [
        cm({ PLUGIN_SOCKET_DIR: '/sockets' }, 'extra'),
      ]),
    ).toMatchObject({ pluginSocketDir: '/mine', pluginSocketDirSource: 'env' });
  });

  test('an empty env value keeps the default; an empty ConfigMap value overrides it; the Secret overrides the ConfigMap', () => {
    expect(resolve({ env: [NS_FROM_POD, { name: 'PLUGIN_SOCKET_DIR', value: '' }] }).pluginSocketDir).toBe('/plugins');
    expect(resolve({ env: [NS_FROM_POD] }, [cm({ PLUGIN_SOCKET_DIR: '' })]).pluginSocketDir).toBe('');
    expect(resolve({ env: [NS_FROM_POD] }, [cm({ PLUGIN_SOCKET_DIR: '/a' })], [secret({ PLUGIN_SOCKET_DIR: '/b\n' })])).toMatchObject({
      pluginSocketDir: '/b\n',
      pluginSocketDirSource: 'Secret',
    });
  });

  test('INCLUDE_PLUGINS is split on commas, trimmed, empty pieces dropped', () => {
    expect(resolve({ env: [NS_FROM_POD] }, [cm({ INCLUDE_PLUGINS: ' a.example.com, ,b.example.com,' })]).includePlugins).toEqual([
      'a.example.com',
      'b.example.com',
    ]);
  });

  test('the settings of the Cluster defaulter: the default image and the monitoring queries', () => {
    expect(resolve({ env: [NS_FROM_POD] })).toMatchObject({
      postgresImageName: 'ghcr.io/cloudnative-pg/postgresql:18.4-system-trixie',
      monitoringQueriesConfigMap: '',
      monitoringQueriesSecret: '',
    });
    expect(
      resolve(
        { env: [NS_FROM_POD, { name: 'MONITORING_QUERIES_CONFIGMAP', value: 'cnpg-default-monitoring' }, { name: 'POSTGRES_IMAGE_NAME', value: 'x:16.4' }] },
        [cm({ POSTGRES_IMAGE_NAME: 'registry.example.com/postgresql:17.6', MONITORING_QUERIES_SECRET: 'queries' })],
      ),
    ).toMatchObject({
      postgresImageName: 'registry.example.com/postgresql:17.6',
      monitoringQueriesConfigMap: 'cnpg-default-monitoring',
      monitoringQueriesSecret: 'queries',
    });
  });

  test('without OPERATOR_NAMESPACE the ConfigMap is read from the empty namespace, so it is not found', () => {
    const c = resolve({}, [cm({ INCLUDE_PLUGINS: 'a' })]);
    expect(c.operatorNamespace).toBeUndefined();
    expect(c.includePlugins).toEqual([]);
    expect(c.unknown).toEqual(["ConfigMap 'cnpg-controller-manager-config'", "Secret 'cnpg-controller-manager-config'"]);
  });
});

describe('checkOperatorConfig', () => {
  const svc = [{ name: 'barman-cloud', namespace: 'cnpg-system', port: '9090' }];
  test('a plain release-manifest operator passes', () => {
    expect(checkOperatorConfig(resolve({ env: [NS_FROM_POD] }), new Set(), svc)).toEqual([]);
  });

  test('OPERATOR_NAMESPACE missing is an error: nothing is discovered', () => {
    expect(checkOperatorConfig(resolve({}), new Set(), svc)).toEqual([
      expect.objectContaining({
        severity: 'error',
        message: "OPERATOR_NAMESPACE is not set; the operator compares each Service's namespace with it, so no plugin Service is discovered at all",
      }),
    ]);
  });

  test('a trailing newline in PLUGIN_SOCKET_DIR is part of the directory name', () => {
    const c = resolve({ env: [NS_FROM_POD] }, [], [secret({ PLUGIN_SOCKET_DIR: '/plugins\n' })]);
    expect(checkOperatorConfig(c, new Set(), svc)).toEqual([
      expect.objectContaining({ path: 'PLUGIN_SOCKET_DIR', fix: 'write "/plugins" without surrounding whitespace (printf, not echo, when making the Secret)' }),
    ]);
  });

  test('every INCLUDE_PLUGINS name must be discovered', () => {
    const c = resolve({ env: [NS_FROM_POD, { name: 'INCLUDE_PLUGINS', value: 'barman-cloud.cloudnative-pg.io,missing.example.com' }] });
    expect(checkOperatorConfig(c, new Set(['barman-cloud.cloudnative-pg.io']), svc).map((i) => i.message)).toEqual([
      "names 'missing.example.com' (from the env), which the defaulting webhook adds to every Cluster, but no such plugin is discovered; every Cluster waits for an unknown plugin",
    ]);
  });

  test('HTTPS_PROXY without a NO_PROXY that covers <svc>.<ns>.svc breaks the dial; HTTP_PROXY does not matter', () => {
    const proxied = (env: object[]) => checkOperatorConfig(resolve({ env: [NS_FROM_POD, ...env] }), new Set(), svc);
    expect(proxied([{ name: 'HTTPS_PROXY', value: 'http://proxy:3128' }]).map((i) => i.path)).toEqual(['HTTPS_PROXY']);
    expect(
      proxied([
        { name: 'https_proxy', value: 'http://proxy:3128' },
        { name: 'NO_PROXY', value: '10.0.0.0/8,cluster.local' },
      ]).map((i) => i.path),
    ).toEqual(['HTTPS_PROXY']);
    expect(
      proxied([
        { name: 'HTTPS_PROXY', value: 'http://proxy:3128' },
        { name: 'no_proxy', value: '.svc' },
      ]),
    ).toEqual([]);
    expect(proxied([{ name: 'HTTP_PROXY', value: 'http://proxy:3128' }])).toEqual([]);
  });
});

describe('noProxyMatches (Go httpproxy)', () => {
  const host = 'barman-cloud.cnpg-system.svc';
  test.each([
    ['*', true],
    ['.svc', true],
    ['svc', true],
    ['*.svc', true],
    ['SVC', true],
    [' foo, .svc ', true],
    [host, true],
    ['cnpg-system.svc', true],
    ['.svc:9090', true],
    ['.svc:443', false],
    ['.cluster.local', false],
    ['tem.svc', false],
    ['system.svc:9090', false],
    ['10.0.0.0/8', false],
    ['', false],
    ['.barman-cloud.cnpg-system.svc', false],
  ])('%p -> %p', (noProxy, matches) => {
    expect(noProxyMatches(noProxy, host, '9090')).toBe(matches);
  });
});
