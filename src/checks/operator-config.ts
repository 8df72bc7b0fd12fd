import { Json, asArray, asObject, asString, dig, objectMeta, stringMap } from '../manifests/json';
import { managerContainer } from '../manifests/operator';
import { RELEASE_DEFAULT_IMAGE_NAME } from './admission/operator-settings';
import { CheckIssue } from './issue';

/** Where one configuration value came from. @internal */
export type ConfigSource = 'default' | 'env' | 'envFrom' | 'ConfigMap' | 'Secret';

/** The operator's effective configuration, as far as the manifests show it. @internal */
export interface OperatorConfig {
  /** `OPERATOR_NAMESPACE`, exactly as the container gets it; undefined when it is not set. */
  readonly operatorNamespace?: string;
  /** `PLUGIN_SOCKET_DIR`, byte for byte (no trimming). */
  readonly pluginSocketDir: string;
  readonly pluginSocketDirSource: ConfigSource;
  /** `INCLUDE_PLUGINS` after GetIncludePlugins: split on commas, trimmed, empty pieces dropped. */
  readonly includePlugins: readonly string[];
  readonly includePluginsSource: ConfigSource;
  /** `POSTGRES_IMAGE_NAME`: the image of a Cluster that names none (pkg/versions DefaultImageName by default). */
  readonly postgresImageName: string;
  /** `MONITORING_QUERIES_CONFIGMAP` (empty by default): the ConfigMap of default monitoring queries. */
  readonly monitoringQueriesConfigMap: string;
  /** `MONITORING_QUERIES_SECRET` (empty by default): the Secret of default monitoring queries. */
  readonly monitoringQueriesSecret: string;
  /** The proxy and no-proxy values grpc-go's dial would see. */
  readonly httpsProxy?: string;
  readonly noProxy?: string;
  /** Values the manifests cannot show (a referenced ConfigMap or Secret missing from the input). */
  readonly unknown: readonly string[];
}

/** What the manager container's environment is built from. @internal */
export interface OperatorInputs {
  /** The operator Deployment. */
  readonly deployment: Json;
  /** ConfigMaps and Secrets of the input, to resolve `envFrom`, `valueFrom` and `--config-map-name`. */
  readonly configMaps: readonly Json[];
  readonly secrets: readonly Json[];
  /**
   * The namespace each object will live in, as the caller resolves it (the doctor: its manifest
   * index, which gives an object without one the default namespace).
   * @default - `metadata.namespace`; an object without one is taken to be in the Deployment's
   */
  readonly namespaceOf?: (o: Json) => string | undefined;
}

/** The operator's default socket directory (the upstream docs' `/plugin` is wrong). @internal */
export const DEFAULT_SOCKET_DIR = '/plugins';

/**
 * The container whose environment configures the operator: the `manager` container, else (a
 * Deployment the caller names as the operator without one) the first.
 */
function configuredContainer(deployment: Json): Json | undefined {
  const podSpec = dig(deployment, 'spec', 'template', 'spec');
  return managerContainer(podSpec) ?? asObject(asArray(dig(podSpec, 'containers'))[0]);
}

/** Decodes a Secret's value as bytes-to-string (data is base64, stringData is plain). @internal */
export function secretValues(secret: Json): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(stringMap(secret.data))) out[k] = Buffer.from(v, 'base64').toString('utf8');
  Object.assign(out, stringMap(secret.stringData));
  return out;
}

/**
 * Resolves the container environment (Kubernetes: explicit `env` wins over `envFrom`, later
 * `envFrom` sources win over earlier ones, a `prefix` is prepended), then the operator's own
 * precedence (cloudnative-pg v1.30.0 pkg/configparser/configparser.go ReadConfigMap: default,
 * then a non-empty environment value, then the ConfigMap key, then the Secret key, present keys
 * winning even when empty; internal/cmd/manager/controller/controller.go loadConfiguration).
 * @internal
 */
export function resolveOperatorConfig(inputs: OperatorInputs): OperatorConfig {
  const namespaceOf = (o: Json): string | undefined => inputs.namespaceOf?.(o) ?? objectMeta(o).namespace;
  const ns = namespaceOf(inputs.deployment);
  const findIn = (list: readonly Json[], namespace: string | undefined, name: string): Json | undefined =>
    list.find((o) => objectMeta(o).name === name && (namespaceOf(o) ?? namespace) === namespace);
  const c = configuredContainer(inputs.deployment) ?? {};
  const unknown: string[] = [];
  const env = new Map<string, { value: string; source: ConfigSource }>();
  for (const ef of asArray(c.envFrom).map((e) => asObject(e) ?? {})) {
    const prefix = asString(ef.prefix) ?? '';
    const cmName = asString(dig(ef, 'configMapRef', 'name'));
    const secName = asString(dig(ef, 'secretRef', 'name'));
    const values =
      cmName !== undefined
        ? stringMap(findIn(inputs.configMaps, ns, cmName)?.data)
        : secName !== undefined
          ? (() => {
              const s = findIn(inputs.secrets, ns, secName);
              return s ? secretValues(s) : undefined;
            })()
          : undefined;
    const found = cmName !== undefined ? findIn(inputs.configMaps, ns, cmName) : secName !== undefined ? findIn(inputs.secrets, ns, secName) : undefined;
    if (!found) {
      unknown.push(`envFrom ${cmName !== undefined ? 'ConfigMap' : 'Secret'} '${cmName ?? secName}'`);
      continue;
    }
    for (const [k, v] of Object.entries(values ?? {})) env.set(prefix + k, { value: v, source: 'envFrom' });
  }
  for (const e of asArray(c.env).map((x) => asObject(x) ?? {})) {
    const name = asString(e.name);
    if (!name) continue;
    if (typeof e.value === 'string' || e.valueFrom === undefined) {
      env.set(name, { value: asString(e.value) ?? '', source: 'env' });
      continue;
    }
    const fieldPath = asString(dig(e, 'valueFrom', 'fieldRef', 'fieldPath'));
    if (fieldPath === 'metadata.namespace') {
      // The downward API gives the pod's namespace, which is the Deployment's.
      if (ns !== undefined) env.set(name, { value: ns, source: 'env' });
      else unknown.push(`env ${name} (the Deployment has no namespace)`);
      continue;
    }
    const cmKey = asObject(dig(e, 'valueFrom', 'configMapKeyRef'));
    const secKey = asObject(dig(e, 'valueFrom', 'secretKeyRef'));
    const ref = cmKey ?? secKey;
    const holder = ref && (cmKey ? findIn(inputs.configMaps, ns, asString(ref.name) ?? '') : findIn(inputs.secrets, ns, asString(ref.name) ?? ''));
    const value = holder && (cmKey ? stringMap(holder.data) : secretValues(holder))[asString(ref?.key) ?? ''];
    if (value !== undefined) env.set(name, { value, source: 'env' });
    else unknown.push(`env ${name}`);
  }
  const getenv = (n: string): string => env.get(n)?.value ?? '';

  const operatorNamespace = env.has('OPERATOR_NAMESPACE') ? getenv('OPERATOR_NAMESPACE') : undefined;
  const args = asArray(c.args)
    .concat(asArray(c.command))
    .filter((a): a is string => typeof a === 'string');
  const flag = (f: string): string | undefined => {
    for (let i = 0; i < args.length; i++) {
      if (args[i].startsWith(`${f}=`)) return args[i].slice(f.length + 1);
      if (args[i] === f && i + 1 < args.length) return args[i + 1];
    }
    return undefined;
  };
  const data: Record<string, { value: string; source: ConfigSource }> = {};
  const cmName = flag('--config-map-name');
  const secName = flag('--secret-name');
  const readNs = operatorNamespace ?? '';
  if (cmName) {
    const cm = findIn(inputs.configMaps, readNs, cmName);
    if (cm) for (const [k, v] of Object.entries(stringMap(cm.data))) data[k] = { value: v, source: 'ConfigMap' };
    else unknown.push(`ConfigMap '${cmName}'`);
  }
  if (secName) {
    const s = findIn(inputs.secrets, readNs, secName);
    if (s) for (const [k, v] of Object.entries(secretValues(s))) data[k] = { value: v, source: 'Secret' };
    else unknown.push(`Secret '${secName}'`);
  }
  const setting = (key: string, def: string): { value: string; source: ConfigSource } => {
    if (data[key]) return data[key];
    const e = env.get(key);
    if (e && e.value !== '') return e;
    return { value: def, source: 'default' };
  };
  const socket = setting('PLUGIN_SOCKET_DIR', DEFAULT_SOCKET_DIR);
  const include = setting('INCLUDE_PLUGINS', '');
  const firstNonEmpty = (...names: string[]): string | undefined => names.map(getenv).find((v) => v !== '');
  return {
    operatorNamespace,
    pluginSocketDir: socket.value,
    pluginSocketDirSource: socket.source,
    includePlugins: include.value
      .split(',')
      .map((p) => p.trim())
      .filter((p) => p !== ''),
    includePluginsSource: include.source,
    postgresImageName: setting('POSTGRES_IMAGE_NAME', RELEASE_DEFAULT_IMAGE_NAME).value,
    monitoringQueriesConfigMap: setting('MONITORING_QUERIES_CONFIGMAP', '').value,
    monitoringQueriesSecret: setting('MONITORING_QUERIES_SECRET', '').value,
    httpsProxy: firstNonEmpty('HTTPS_PROXY', 'https_proxy'),
    noProxy: firstNonEmpty('NO_PROXY', 'no_proxy'),
    unknown,
  };
}

/**
 * Go's NO_PROXY matching for a host name (golang.org/x/net/http/httpproxy config.init and
 * useProxy, as vendored in Go 1.23): `*` matches all; entries are lower-cased and trimmed; a
 * `*.` prefix counts as `.`; `x.y` matches `x.y` and its sub-domains, `.x.y` only sub-domains;
 * an entry's `:port` must equal the port. IP and CIDR entries never match a DNS name.
 * @internal
 */
export function noProxyMatches(noProxy: string, host: string, port: string): boolean {
  const h = host.toLowerCase();
  if (h === 'localhost') return true;
  for (const raw of noProxy.split(',')) {
    let p = raw.trim().toLowerCase();
    if (p === '') continue;
    if (p === '*') return true;
    let entryPort = '';
    const m = /^(.*):([0-9]+)$/.exec(p);
    if (m && !p.includes(']') && m[1].indexOf(':') < 0) {
      p = m[1];
      entryPort = m[2];
    }
    if (p === '' || /^[0-9.]+(\/[0-9]+)?$/.test(p) || p.includes(':')) continue;
    if (p.startsWith('*.')) p = p.slice(1);
    const matchHost = !p.startsWith('.');
    if (matchHost) p = `.${p}`;
    if ((h.endsWith(p) || (matchHost && h === p.slice(1))) && (entryPort === '' || entryPort === port)) return true;
  }
  return false;
}

/**
 * Class 4 findings for one operator Deployment. `discovered` holds the plugin names the input
 * shows as discoverable (Services in the operator namespace, sidecar sockets, known plugins);
 * `services` the plugin Services with their dial address parts.
 * @internal
 */
export function checkOperatorConfig(
  config: OperatorConfig,
  discovered: ReadonlySet<string>,
  services: ReadonlyArray<{ name: string; namespace: string; port: string }>,
): CheckIssue[] {
  const issues: CheckIssue[] = [];
  if (config.operatorNamespace === undefined || config.operatorNamespace === '') {
    issues.push({
      severity: 'error',
      path: 'spec.template.spec.containers[manager].env',
      message: `OPERATOR_NAMESPACE is ${config.operatorNamespace === undefined ? 'not set' : 'empty'}; the operator compares each Service's namespace with it, so no plugin Service is discovered at all`,
      fix: 'set OPERATOR_NAMESPACE from the downward API: valueFrom: { fieldRef: { fieldPath: metadata.namespace } }',
    });
  }
  if (config.pluginSocketDir !== config.pluginSocketDir.trim() || config.pluginSocketDir === '') {
    issues.push({
      severity: 'error',
      path: 'PLUGIN_SOCKET_DIR',
      message: `is ${JSON.stringify(config.pluginSocketDir)} (from the ${config.pluginSocketDirSource}); the operator uses the value byte for byte, so it lists a directory that does not exist and finds no sidecar plugin`,
      fix: `write ${JSON.stringify(config.pluginSocketDir.trim() || DEFAULT_SOCKET_DIR)} without surrounding whitespace (printf, not echo, when making the Secret)`,
    });
  }
  for (const name of config.includePlugins) {
    if (!discovered.has(name)) {
      issues.push({
        severity: 'error',
        path: 'INCLUDE_PLUGINS',
        message: `names '${name}' (from the ${config.includePluginsSource}), which the defaulting webhook adds to every Cluster, but no such plugin is discovered; every Cluster waits for an unknown plugin`,
        fix: `deploy the plugin '${name}' (a Service labelled cnpg.io/pluginName: ${name} in the operator namespace, or a sidecar socket), or remove it from INCLUDE_PLUGINS`,
      });
    }
  }
  if (config.httpsProxy) {
    for (const s of services) {
      const host = `${s.name}.${s.namespace}.svc`;
      if (!noProxyMatches(config.noProxy ?? '', host, s.port)) {
        issues.push({
          severity: 'error',
          path: 'HTTPS_PROXY',
          message: `sends the operator's gRPC dial of ${host}:${s.port} through ${config.httpsProxy} (grpc-go resolves proxies with http.ProxyFromEnvironment for https), and NO_PROXY ${JSON.stringify(config.noProxy ?? '')} does not exempt it`,
          fix: 'add .svc (or the cluster domain suffix) to NO_PROXY',
        });
      }
    }
  }
  return issues;
}
