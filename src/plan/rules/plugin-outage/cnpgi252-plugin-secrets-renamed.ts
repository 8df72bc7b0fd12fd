/*
 * Plugin outage: the Service of a used plugin points the operator at other TLS Secrets.
 */
import type { RuleDefinition } from '../../../rules/rule';
import { PlanContext, asString, dig } from '../../plan-model';
import { pluginServices, users } from './plugin-services';

const CLIENT_SECRET = 'cnpg.io/pluginClientSecret';
const SERVER_SECRET = 'cnpg.io/pluginServerSecret';

export const rule: RuleDefinition<PlanContext> = {
  id: 'CNPGI252',
  name: 'plugin-secrets-renamed',
  severities: [{ severity: 'warning', when: '`cnpg.io/pluginClientSecret` or `cnpg.io/pluginServerSecret` of a used plugin Service names another Secret.' }],
  what: 'A plugin Service points the operator at other TLS Secrets.',
  why:
    'The operator reads the certificates from the Secrets the annotations name and re-registers the plugin when they change (cloudnative-pg v1.30.0 ' +
    'internal/controller/plugin_controller.go reconcile, mapSecretToPlugin): until cert-manager has issued the new Secrets the connection fails.',
  fix: "Keep the Secret names (pin the Certificates' `secretName`), or create the new Secrets before switching the annotations.",
  kinds: ['Service'],
  check(ctx, report) {
    const { before, after, used } = pluginServices(ctx);
    for (const [plugin, services] of before) {
      const refs = used.get(plugin);
      if (!refs || !after.has(plugin)) continue;
      for (const service of services) {
        const same = ctx.next.get(service);
        if (!same) continue;
        for (const annotation of [CLIENT_SECRET, SERVER_SECRET]) {
          const b = asString(dig(service.body, 'metadata', 'annotations', annotation));
          const a = asString(dig(same.body, 'metadata', 'annotations', annotation));
          if (b === undefined || b === a) continue;
          report(
            'warning',
            same,
            `points the operator at Secret '${a ?? '(none)'}' instead of '${b}': new certificates and a re-registration of '${plugin}' ` +
              `for ${users(refs)}, failing until the new Secret exists`,
            `keep \`${annotation}: ${b}\` (pin the Certificate's secretName)`,
            `metadata.annotations.${annotation}`,
            { before: b, after: a ?? null },
          );
        }
      }
    }
  },
};
