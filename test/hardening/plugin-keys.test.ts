import fc from 'fast-check';
import type {
  BarmanCloudPluginProps,
  ExternalIssuerProps,
  HelloWorldParameters,
  HelloWorldPluginProps,
  PluginCertificateOptions,
  PluginSecretsOptions,
  PluginSecurityContextProps,
  PrivateCaOptions,
  SidecarPluginOptions,
  StandalonePluginProps,
} from '../../src';
import { declaredKeys } from '../util';
import { announce, check } from './fc-config';
import { Scenario, expectUnknownKeyError, unknownKey } from './harness';
import { Call, Path, realize, setIn, showPath } from './mutation';
import * as S from './scenarios';

/*
 * The key property of the plugin side: an unknown key (a near miss of a declared one, or any
 * other name) added to any props or options object a user writes for StandalonePlugin, the
 * presets, SidecarPlugin, PluginTls and IssuerRef is refused with this library's error naming
 * that key, never dropped. The key lists are compiled against the interfaces (declaredKeys), so
 * they cannot drift from them.
 */

announce('plugin-keys');

const DEPLOYMENT = {
  serverName: true,
  tls: true,
  serviceName: true,
  port: true,
  envVariables: true,
  resources: true,
  imagePullPolicy: true,
  imagePullSecrets: true,
  nodeSelector: true,
  tolerations: true,
  priorityClassName: true,
  securityContext: true,
  networkPolicy: true,
  operatorPodLabels: true,
  labels: true,
} as const;
const STANDALONE = declaredKeys<StandalonePluginProps>({
  ...DEPLOYMENT,
  pluginName: true,
  image: true,
  args: true,
  command: true,
  appendTlsArgs: true,
  replicas: true,
  strategy: true,
  automountServiceAccountToken: true,
  objectNames: true,
});
const BARMAN = declaredKeys<BarmanCloudPluginProps>({ ...DEPLOYMENT, image: true, sidecarImage: true, logLevel: true, objectStoreCrd: true, names: true });
const HELLO = declaredKeys<HelloWorldPluginProps>({
  ...DEPLOYMENT,
  image: true,
  logLevel: true,
  replicas: true,
  strategy: true,
  automountServiceAccountToken: true,
});
const HELLO_PARAMETERS = declaredKeys<HelloWorldParameters>({ labels: true, annotations: true });
const SECURITY = declaredKeys<PluginSecurityContextProps>({ user: true, group: true });
const RESOURCES = ['cpu', 'ephemeralStorage', 'memory'];
const REQUEST_LIMIT = ['limit', 'request'];
const CERTIFICATE = declaredKeys<PluginCertificateOptions>({
  duration: true,
  renewBefore: true,
  privateKeyAlgorithm: true,
  privateKeySize: true,
  rotationPolicy: true,
  extraServerDnsNames: true,
});
const PRIVATE_CA = declaredKeys<PrivateCaOptions>({
  duration: true,
  renewBefore: true,
  privateKeyAlgorithm: true,
  privateKeySize: true,
  rotationPolicy: true,
  extraServerDnsNames: true,
  caDuration: true,
  caRenewBefore: true,
});
const SECRETS = declaredKeys<PluginSecretsOptions>({ clientSecretName: true, serverSecretName: true, clientCaKey: true });
const EXTERNAL = declaredKeys<ExternalIssuerProps>({ group: true, kind: true, name: true });
const SIDECAR = declaredKeys<SidecarPluginOptions>({
  pluginName: true,
  image: true,
  args: true,
  envVariables: true,
  resources: true,
  imagePullPolicy: true,
  socketDir: true,
  securityContext: true,
  pluginPathFlag: true,
  containerName: true,
});

/** The value at `path` of a recipe, through the arguments of factory calls. */
function getIn(value: unknown, path: Path): unknown {
  let v = value;
  for (let i = 0; i < path.length; i++) {
    if (v instanceof Call) {
      // A factory's argument, when the recipe made the value with that factory.
      if (path[i] !== `${v.label}()`) return undefined;
      v = v.args[path[++i] as number];
    } else {
      if (v === null || typeof v !== 'object') return undefined;
      v = (v as Record<string | number, unknown>)[path[i]];
    }
  }
  return v;
}

/**
 * The harness's key property, with two additions the plugin recipes need: a factory argument is
 * only reached when the recipe made the value with that factory (`tls` may be any of four), and
 * a property whose object never came up fails instead of proving nothing.
 */
function keyProperty(s: Scenario<unknown>, at: Path, keys: readonly string[]): void {
  const isObject = (target: unknown) => target !== null && typeof target === 'object' && !Array.isArray(target) && !(target instanceof Call);
  let tried = 0;
  // Only recipes that have the object: some come up rarely (IssuerRef.external inside
  // PluginTls.fromIssuer is about one recipe in 25), and 100 local runs could miss them all.
  const recipes = s.arbitrary.filter((recipe) => isObject(getIn(recipe, at)));
  check(
    fc.property(recipes, unknownKey(keys), fc.constantFrom<unknown>(1, 'x', true, {}, ['a'], null), (recipe, key, value) => {
      tried++;
      let error: unknown;
      try {
        s.build(realize(setIn(recipe, [...at, key], value)));
      } catch (e) {
        error = e;
      }
      if (error === undefined) throw new Error(`unknown key '${key}' at ${showPath(at)} was accepted`);
      expectUnknownKeyError(error, key, s.roots);
    }),
  );
  // Every run reached the object (a property that never did would prove nothing).
  expect(tried).toBeGreaterThan(0);
}

const TLS_OPTIONS: Array<[string, Path, readonly string[]]> = [
  ['selfSigned options', ['tls', 'PluginTls.selfSigned()', 0], CERTIFICATE],
  ['privateCa options', ['tls', 'PluginTls.privateCa()', 0], PRIVATE_CA],
  ['fromIssuer options', ['tls', 'PluginTls.fromIssuer()', 1], CERTIFICATE],
  ['fromSecrets options', ['tls', 'PluginTls.fromSecrets()', 0], SECRETS],
  ['IssuerRef.external props', ['tls', 'PluginTls.fromIssuer()', 0, 'IssuerRef.external()', 0], EXTERNAL],
];

const NESTED: Array<[string, Path, readonly string[]]> = [
  ['securityContext', ['securityContext'], SECURITY],
  ['resources', ['resources'], RESOURCES],
  ['resources.cpu', ['resources', 'cpu'], REQUEST_LIMIT],
  ['resources.memory', ['resources', 'memory'], REQUEST_LIMIT],
  ...TLS_OPTIONS,
];

describe.each<[string, Scenario<unknown>, readonly string[]]>([
  ['StandalonePlugin', S.standalonePluginScenario, STANDALONE],
  ['BarmanCloudPlugin', S.barmanCloudPluginScenario, BARMAN],
  ['HelloWorldPlugin', S.helloWorldPluginScenario, HELLO],
])('%s refuses unknown keys', (_name, scenario, keys) => {
  test('in its props', () => keyProperty(scenario, ['plugin'], keys));
  test.each(NESTED)('in %s', (_what, at, nested) => keyProperty(scenario, ['plugin', ...at], nested));
});

test('HelloWorldPlugin.parameters refuses unknown keys', () => {
  keyProperty(S.helloWorldPluginScenario, ['parameters', 'HelloWorldPlugin.parameters()', 0], HELLO_PARAMETERS);
});

describe('SidecarPlugin refuses unknown keys', () => {
  test('in its options', () => keyProperty(S.sidecarPluginScenario, ['sidecars', 0], SIDECAR));
  test('in securityContext', () => keyProperty(S.sidecarPluginScenario, ['sidecars', 0, 'securityContext'], SECURITY));
  test('in resources.memory', () => keyProperty(S.sidecarPluginScenario, ['sidecars', 0, 'resources', 'memory'], REQUEST_LIMIT));
});
