/*
 * Plugin outage: a change after which the operator loses a plugin that Clusters use, for a
 * moment (re-registration, new certificates) or for good (nothing offers the name any more).
 */
import { pluginsUsedBy } from './cluster-facts';
import { CNPG_GROUP, PlanContext, PlanIndex, PlanObject, PlanRule, asArray, asObject, asString, dig } from './plan-model';

const PLUGIN_NAME_LABEL = 'cnpg.io/pluginName';
const CLIENT_SECRET = 'cnpg.io/pluginClientSecret';
const SERVER_SECRET = 'cnpg.io/pluginServerSecret';
const SOCKET_DIR_ENV = 'PLUGIN_SOCKET_DIR';
const DEFAULT_SOCKET_DIR = '/plugins';

/** @internal */
export const PLUGIN_NAME_GONE: PlanRule = {
  id: 'CNPGI250',
  name: 'plugin-name-gone',
  severities: {
    error:
      'No Service of the next manifests carries `cnpg.io/pluginName: <name>` while a Cluster, Backup or ScheduledBackup of the next manifests uses the name.',
  },
  what: 'The plugin Service is removed, or its `cnpg.io/pluginName` label changes, while Clusters still use the old name.',
  why:
    'The operator registers a plugin under the label value of its Service and forgets it when the Service goes (cloudnative-pg v1.30.0 ' +
    'internal/controller/plugin_controller.go reconcile and handleDeletion); a Cluster that names an unknown plugin cannot be reconciled.',
  fix: 'Keep the label value (the plugin name is fixed by the plugin itself), or change every Cluster, Backup and ScheduledBackup to the new name in the same commit.',
  kinds: ['Service', 'Cluster', 'Backup', 'ScheduledBackup'],
};

/** @internal */
export const PLUGIN_SERVICE_RENAMED: PlanRule = {
  id: 'CNPGI251',
  name: 'plugin-service-renamed',
  severities: { warning: 'The plugin name is offered by a differently named Service after the change, and something uses it.' },
  what: 'The Service of a plugin that Clusters use gets a new name.',
  why:
    "The old Service's deletion removes the plugin from the operator's pool and the new one registers it again (cloudnative-pg v1.30.0 " +
    'internal/controller/plugin_controller.go handleDeletion and reconcile); with pruning there is a gap, and the server certificate must cover the new name ' +
    '(the operator verifies the short Service name unless `cnpg.io/pluginServerName` is set).',
  fix: 'Pin the old Service name (`serviceName` on StandalonePlugin, `BarmanCloudNames.upstream()` to adopt an upstream install).',
  kinds: ['Service'],
};

/** @internal */
export const PLUGIN_SECRETS_RENAMED: PlanRule = {
  id: 'CNPGI252',
  name: 'plugin-secrets-renamed',
  severities: { warning: '`cnpg.io/pluginClientSecret` or `cnpg.io/pluginServerSecret` of a used plugin Service names another Secret.' },
  what: 'A plugin Service points the operator at other TLS Secrets.',
  why:
    'The operator reads the certificates from the Secrets the annotations name and re-registers the plugin when they change (cloudnative-pg v1.30.0 ' +
    'internal/controller/plugin_controller.go reconcile, mapSecretToPlugin): until cert-manager has issued the new Secrets the connection fails.',
  fix: "Keep the Secret names (pin the Certificates' `secretName`), or create the new Secrets before switching the annotations.",
  kinds: ['Service'],
};

/** @internal */
export const SIDECAR_SOCKET_DIR_MOVED: PlanRule = {
  id: 'CNPGI253',
  name: 'sidecar-socket-dir-moved',
  severities: { warning: "The operator's `PLUGIN_SOCKET_DIR` (default /plugins), or where a container mounts that volume, differs." },
  what: 'The socket directory shared by the operator and its sidecar plugins moves.',
  why:
    'The operator lists the socket directory once, at start-up (cloudnative-pg v1.30.0 internal/cmd/manager/controller/controller.go RunController ' +
    'calls RegisterUnixSocketPluginsInPath of internal/cnpi/plugin/repository/setup.go): every sidecar must create its socket in the new place, and the operator restarts.',
  fix: 'Move the directory in the manager and every sidecar in one change, or keep /plugins.',
  kinds: ['Deployment'],
};

/** @internal */
export const PLUGIN_OUTAGE_RULES: readonly PlanRule[] = [PLUGIN_NAME_GONE, PLUGIN_SERVICE_RENAMED, PLUGIN_SECRETS_RENAMED, SIDECAR_SOCKET_DIR_MOVED];

function offeredPlugins(index: PlanIndex): Map<string, PlanObject[]> {
  const out = new Map<string, PlanObject[]>();
  for (const s of index.ofKind('Service', '')) {
    const name = asString(dig(s.body, 'metadata', 'labels', PLUGIN_NAME_LABEL));
    if (name === undefined || name === '') continue;
    out.set(name, [...(out.get(name) ?? []), s]);
  }
  return out;
}

function usedPlugins(index: PlanIndex): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const kind of ['Cluster', 'Backup', 'ScheduledBackup']) {
    for (const o of index.ofKind(kind, CNPG_GROUP)) {
      for (const name of pluginsUsedBy(kind, o.body)) out.set(name, [...(out.get(name) ?? []), o.ref]);
    }
  }
  return out;
}

function users(refs: string[]): string {
  return refs.length <= 3 ? refs.join(', ') : `${refs.slice(0, 3).join(', ')} and ${refs.length - 3} more`;
}

/** Where a Deployment's containers find the plugin sockets, as one comparable string; undefined if it has none. */
function socketLayout(deployment: PlanObject): string | undefined {
  const spec = dig(deployment.body, 'spec', 'template', 'spec');
  const containers = asArray(dig(spec, 'containers'))
    .map(asObject)
    .filter((c) => c !== undefined);
  let dir: string | undefined;
  for (const c of containers) {
    for (const e of asArray(c!.env)) {
      if (asString(dig(e, 'name')) === SOCKET_DIR_ENV && asString(dig(e, 'value'))) dir = asString(dig(e, 'value'));
    }
  }
  const mounts = containers.flatMap((c) =>
    asArray(c!.volumeMounts).map((m) => ({
      container: asString(c!.name) ?? '?',
      volume: asString(dig(m, 'name')),
      path: asString(dig(m, 'mountPath')),
    })),
  );
  if (dir === undefined && !mounts.some((m) => m.path === DEFAULT_SOCKET_DIR)) return undefined;
  const socketDir = dir ?? DEFAULT_SOCKET_DIR;
  const volumes = new Set(mounts.filter((m) => m.path === socketDir).map((m) => m.volume));
  const sharing = mounts
    .filter((m) => volumes.has(m.volume))
    .map((m) => `${m.container}:${m.path}`)
    .sort();
  return `${SOCKET_DIR_ENV}=${socketDir}${sharing.length > 0 ? `; mounts ${sharing.join(', ')}` : ''}`;
}

/** @internal */
export function checkPluginOutage(ctx: PlanContext): void {
  const before = offeredPlugins(ctx.previous);
  const after = offeredPlugins(ctx.next);
  const used = usedPlugins(ctx.next);
  for (const [plugin, services] of before) {
    const refs = used.get(plugin);
    if (!refs) continue;
    const now = after.get(plugin);
    if (!now) {
      const service = services[0];
      const same = ctx.next.get(service);
      const label = same ? asString(dig(same.body, 'metadata', 'labels', PLUGIN_NAME_LABEL)) : undefined;
      ctx.emit({
        ruleId: PLUGIN_NAME_GONE.id,
        severity: 'error',
        object: service.ref,
        path: same ? `metadata.labels.${PLUGIN_NAME_LABEL}` : 'metadata.name',
        before: plugin,
        after: label ?? null,
        message:
          (same ? `changes its plugin name from '${plugin}' to '${label ?? '(none)'}'` : 'disappears') +
          `, and no other Service offers '${plugin}', which ${users(refs)} use${refs.length === 1 ? 's' : ''}: they cannot be reconciled`,
        fix: same ? `keep the label \`${PLUGIN_NAME_LABEL}: ${plugin}\`` : `keep the Service (pin \`metadata.name: ${service.name}\`)`,
      });
      continue;
    }
    for (const service of services) {
      const same = ctx.next.get(service);
      if (!same) {
        ctx.emit({
          ruleId: PLUGIN_SERVICE_RENAMED.id,
          severity: 'warning',
          object: service.ref,
          path: 'metadata.name',
          before: service.name,
          after: now.map((s) => s.name).join(', '),
          message:
            `is renamed to '${now.map((s) => s.name).join("', '")}': the operator forgets plugin '${plugin}' and registers it again, ` +
            `a gap for ${users(refs)}; the server certificate must cover the new name`,
          fix: `pin the Service name \`${service.name}\` (StandalonePlugin \`serviceName\`, or BarmanCloudNames)`,
        });
        continue;
      }
      for (const annotation of [CLIENT_SECRET, SERVER_SECRET]) {
        const b = asString(dig(service.body, 'metadata', 'annotations', annotation));
        const a = asString(dig(same.body, 'metadata', 'annotations', annotation));
        if (b === undefined || b === a) continue;
        ctx.emit({
          ruleId: PLUGIN_SECRETS_RENAMED.id,
          severity: 'warning',
          object: same.ref,
          path: `metadata.annotations.${annotation}`,
          before: b,
          after: a ?? null,
          message:
            `points the operator at Secret '${a ?? '(none)'}' instead of '${b}': new certificates and a re-registration of '${plugin}' ` +
            `for ${users(refs)}, failing until the new Secret exists`,
          fix: `keep \`${annotation}: ${b}\` (pin the Certificate's secretName)`,
        });
      }
    }
  }

  for (const prev of ctx.previous.ofKind('Deployment', 'apps')) {
    const next = ctx.next.get(prev);
    if (!next) continue;
    const b = socketLayout(prev);
    const a = socketLayout(next);
    if (b === undefined || a === undefined || b === a) continue;
    ctx.emit({
      ruleId: SIDECAR_SOCKET_DIR_MOVED.id,
      severity: 'warning',
      object: next.ref,
      path: 'spec.template.spec.containers',
      before: b,
      after: a,
      message:
        'moves the plugin socket directory: the operator lists it once at start-up, so it restarts, and every sidecar must create its socket in the new place',
      fix: 'keep the socket directory, or move it in the manager and every sidecar at once',
    });
  }
}
