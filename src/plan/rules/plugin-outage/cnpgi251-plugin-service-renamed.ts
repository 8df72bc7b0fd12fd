/*
 * Plugin outage: the Service of a used plugin gets a new name; the operator forgets the plugin
 * and registers it again.
 */
import type { RuleDefinition } from '../../../rules/rule';
import { PlanContext } from '../../plan-model';
import { pluginServices, users } from './plugin-services';

export const rule: RuleDefinition<PlanContext> = {
  id: 'CNPGI251',
  name: 'plugin-service-renamed',
  severities: [{ severity: 'warning', when: 'The plugin name is offered by a differently named Service after the change, and something uses it.' }],
  what: 'The Service of a plugin that Clusters use gets a new name.',
  why:
    "The old Service's deletion removes the plugin from the operator's pool and the new one registers it again (cloudnative-pg v1.30.0 " +
    'internal/controller/plugin_controller.go handleDeletion and reconcile); with pruning there is a gap, and the server certificate must cover the new name ' +
    '(the operator verifies the short Service name unless `cnpg.io/pluginServerName` is set).',
  fix: 'Pin the old Service name (`serviceName` on StandalonePlugin, `BarmanCloudNames.upstream()` to adopt an upstream install).',
  kinds: ['Service'],
  check(ctx, report) {
    const { before, after, used } = pluginServices(ctx);
    for (const [plugin, services] of before) {
      const refs = used.get(plugin);
      const now = after.get(plugin);
      if (!refs || !now) continue;
      for (const service of services) {
        if (ctx.next.get(service)) continue;
        report(
          'warning',
          service,
          `is renamed to '${now.map((s) => s.name).join("', '")}': the operator forgets plugin '${plugin}' and registers it again, ` +
            `a gap for ${users(refs)}; the server certificate must cover the new name`,
          `pin the Service name \`${service.name}\` (StandalonePlugin \`serviceName\`, or BarmanCloudNames)`,
          'metadata.name',
          { before: service.name, after: now.map((s) => s.name).join(', ') },
        );
      }
    }
  },
};
