/*
 * CNPGI010 to CNPGI013: the label and annotations that make a Service a plugin Service. The
 * model reads them (plugin-service-rules.ts `readPluginService`) and records what it could not
 * use; this family reports it.
 */
import { defineFamily } from './rule';

const PLUGIN_SERVICE = 'cloudnative-pg v1.30.0 internal/controller/plugin_predicates.go isPluginService';
const RECONCILE = 'cloudnative-pg v1.30.0 internal/controller/plugin_controller.go';

/** The label and annotation rules of plugin Services. */
export const pluginServiceKeys = defineFamily({
  rules: [
    {
      id: 'CNPGI010',
      name: 'plugin-name-label',
      severities: [{ severity: 'error', when: 'always: the Service is not a plugin Service for the operator' }],
      what: 'A Service carries plugin annotations but no `cnpg.io/pluginName` label, or a misspelled one (`cnpg.io/plugin`, wrong case, as an annotation).',
      why: `The operator takes a Service as a plugin only when it has the exact label key (${PLUGIN_SERVICE}); any other key is silently ignored.`,
      fix: 'Add the label `cnpg.io/pluginName: <plugin name>` to `metadata.labels`.',
      kinds: ['Service'],
    },
    {
      id: 'CNPGI011',
      name: 'plugin-annotations',
      severities: [
        {
          severity: 'error',
          when: 'a required annotation (`pluginPort`, `pluginClientSecret`, `pluginServerSecret`) is missing, misspelled or set as a label',
        },
        { severity: 'warning', when: 'the optional `cnpg.io/pluginServerName` is misspelled (the short Service name is verified instead)' },
      ],
      what: 'A plugin Service lacks `cnpg.io/pluginPort`, `cnpg.io/pluginClientSecret` or `cnpg.io/pluginServerSecret`, or spells one wrong (a misspelled optional `cnpg.io/pluginServerName` is a warning).',
      why: `The operator requires all three annotations (${PLUGIN_SERVICE}) and skips any other Service with a trace-level log only (${RECONCILE} PluginReconciler.Reconcile), whatever the upstream docs say.`,
      fix: 'Add all three annotations with the exact keys in `metadata.annotations`.',
      kinds: ['Service'],
    },
    {
      id: 'CNPGI012',
      name: 'plugin-empty-value',
      severities: [
        { severity: 'error', when: 'the label or a required annotation is empty, or any plugin key holds a non-string value' },
        { severity: 'warning', when: 'the optional `cnpg.io/pluginServerName` is empty (the short Service name is verified instead)' },
      ],
      what: 'The plugin label or a plugin annotation is empty or not a string.',
      why: `The operator skips a plugin Service whose label or required annotation is empty, with an info log (${RECONCILE} PluginReconciler.Reconcile and PluginReconciler.reconcile), and falls back to the Service name for an empty \`pluginServerName\` (same function); the API server rejects non-string label and annotation values.`,
      fix: 'Give it a non-empty string value (quote numbers in YAML).',
      kinds: ['Service'],
    },
    {
      id: 'CNPGI013',
      name: 'plugin-port-integer',
      severities: [{ severity: 'error', when: 'always' }],
      what: '`cnpg.io/pluginPort` is not an integer string from 1 to 65535.',
      why: `The operator parses it with \`strconv.Atoi\`, records an \`InvalidPortAnnotation\` event and retries with backoff (${RECONCILE} PluginReconciler.reconcile); a number out of the TCP range never connects.`,
      fix: 'Write the port as a quoted integer, e.g. `cnpg.io/pluginPort: "9090"`.',
      kinds: ['Service'],
    },
  ],
  check(model, report) {
    for (const info of model.pluginServices) {
      for (const p of info.keyProblems) report(p.ruleId, p.severity, info.service, p.message, p.fix, p.path);
    }
  },
});
