/*
 * Plugin outage: no Service offers a plugin name any more while objects still use it.
 */
import type { RuleDefinition } from '../../../rules/rule';
import { PlanContext, asString, dig } from '../../plan-model';
import { PLUGIN_NAME_LABEL, pluginServices, users } from './plugin-services';

export const rule: RuleDefinition<PlanContext> = {
  id: 'CNPGI250',
  name: 'plugin-name-gone',
  severities: [
    {
      severity: 'error',
      when: 'No Service of the next manifests carries `cnpg.io/pluginName: <name>` while a Cluster, Backup or ScheduledBackup of the next manifests uses the name.',
    },
  ],
  what: 'The plugin Service is removed, or its `cnpg.io/pluginName` label changes, while Clusters still use the old name.',
  why:
    'The operator registers a plugin under the label value of its Service and forgets it when the Service goes (cloudnative-pg v1.30.0 ' +
    'internal/controller/plugin_controller.go reconcile and handleDeletion); a Cluster that names an unknown plugin cannot be reconciled.',
  fix: 'Keep the label value (the plugin name is fixed by the plugin itself), or change every Cluster, Backup and ScheduledBackup to the new name in the same commit.',
  kinds: ['Service', 'Cluster', 'Backup', 'ScheduledBackup'],
  check(ctx, report) {
    const { before, after, used } = pluginServices(ctx);
    for (const [plugin, services] of before) {
      const refs = used.get(plugin);
      if (!refs || after.has(plugin)) continue;
      const service = services[0];
      const same = ctx.next.get(service);
      const label = same ? asString(dig(same.body, 'metadata', 'labels', PLUGIN_NAME_LABEL)) : undefined;
      report(
        'error',
        service,
        (same ? `changes its plugin name from '${plugin}' to '${label ?? '(none)'}'` : 'disappears') +
          `, and no other Service offers '${plugin}', which ${users(refs)} use${refs.length === 1 ? 's' : ''}: they cannot be reconciled`,
        same ? `keep the label \`${PLUGIN_NAME_LABEL}: ${plugin}\`` : `keep the Service (pin \`metadata.name: ${service.name}\`)`,
        same ? `metadata.labels.${PLUGIN_NAME_LABEL}` : 'metadata.name',
        { before: plugin, after: label ?? null },
      );
    }
  },
};
