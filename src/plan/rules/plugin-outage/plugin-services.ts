/*
 * What the plugin-outage rules share: which plugin names the Services of each set offer, and
 * which objects of the next set use each name.
 */
import { pluginsUsedBy } from '../../cluster-facts';
import { CNPG_GROUP, PlanContext, PlanIndex, PlanObject, asString, dig } from '../../plan-model';

/** The label that names the plugin a Service offers. */
export const PLUGIN_NAME_LABEL = 'cnpg.io/pluginName';

/** The plugins of both sets. */
export interface PluginServices {
  /** The Services of the previous set, by the plugin name they offer. */
  readonly before: ReadonlyMap<string, readonly PlanObject[]>;
  /** The Services of the next set, by the plugin name they offer. */
  readonly after: ReadonlyMap<string, readonly PlanObject[]>;
  /** The objects of the next set (`Kind/namespace/name`) that use each plugin name. */
  readonly used: ReadonlyMap<string, readonly string[]>;
}

function offeredPlugins(index: PlanIndex): Map<string, PlanObject[]> {
  const out = new Map<string, PlanObject[]>();
  for (const s of index.ofKind('Service', '')) {
    const name = asString(dig(s.body, 'metadata', 'labels', PLUGIN_NAME_LABEL));
    if (name === undefined || name === '') continue;
    const list = out.get(name);
    if (list) list.push(s);
    else out.set(name, [s]);
  }
  return out;
}

function usedPlugins(index: PlanIndex): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const kind of ['Cluster', 'Backup', 'ScheduledBackup']) {
    for (const o of index.ofKind(kind, CNPG_GROUP)) {
      for (const name of pluginsUsedBy(kind, o.body)) {
        const list = out.get(name);
        if (list) list.push(o.ref);
        else out.set(name, [o.ref]);
      }
    }
  }
  return out;
}

function readPluginServices(ctx: PlanContext): PluginServices {
  return { before: offeredPlugins(ctx.previous), after: offeredPlugins(ctx.next), used: usedPlugins(ctx.next) };
}

/** The plugins of both sets, worked out once per plan. */
export function pluginServices(ctx: PlanContext): PluginServices {
  return ctx.derived(readPluginServices);
}

/** The users of a plugin, the first three by name. */
export function users(refs: readonly string[]): string {
  return refs.length <= 3 ? refs.join(', ') : `${refs.slice(0, 3).join(', ')} and ${refs.length - 3} more`;
}
