/*
 * Plugin outage: the socket directory shared by the operator and its sidecar plugins moves.
 */
import type { RuleDefinition } from '../../../rules/rule';
import { PlanContext, PlanObject, asArray, asObject, asString, dig } from '../../plan-model';

const SOCKET_DIR_ENV = 'PLUGIN_SOCKET_DIR';
const DEFAULT_SOCKET_DIR = '/plugins';

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

export const rule: RuleDefinition<PlanContext> = {
  id: 'CNPGI253',
  name: 'sidecar-socket-dir-moved',
  severities: [{ severity: 'warning', when: "The operator's `PLUGIN_SOCKET_DIR` (default /plugins), or where a container mounts that volume, differs." }],
  what: 'The socket directory shared by the operator and its sidecar plugins moves.',
  why:
    'The operator lists the socket directory once, at start-up (cloudnative-pg v1.30.0 internal/cmd/manager/controller/controller.go RunController ' +
    'calls RegisterUnixSocketPluginsInPath of internal/cnpi/plugin/repository/setup.go): every sidecar must create its socket in the new place, and the operator restarts.',
  fix: 'Move the directory in the manager and every sidecar in one change, or keep /plugins.',
  kinds: ['Deployment'],
  check(ctx, report) {
    for (const prev of ctx.previous.ofKind('Deployment', 'apps')) {
      const next = ctx.next.get(prev);
      if (!next) continue;
      const b = socketLayout(prev);
      const a = socketLayout(next);
      if (b === undefined || a === undefined || b === a) continue;
      report(
        'warning',
        next,
        'moves the plugin socket directory: the operator lists it once at start-up, so it restarts, and every sidecar must create its socket in the new place',
        'keep the socket directory, or move it in the manager and every sidecar at once',
        'spec.template.spec.containers',
        { before: b, after: a },
      );
    }
  },
};
