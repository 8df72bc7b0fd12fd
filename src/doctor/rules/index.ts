/*
 * The rule registry. A new rule or family is one module under this folder and one line in
 * `RULE_FAMILIES`; `RuleId` grows with it.
 */
import { backupPlugins } from './backup-plugins';
import { clusterPlugins } from './cluster-plugins';
import { inputRules } from './input';
import { operatorFidelity } from './operator-fidelity';
import { operatorNamespace } from './operator-namespace';
import { pluginReferences } from './plugin-references';
import { pluginServiceDiscovery } from './plugin-service-discovery';
import { pluginServiceKeys } from './plugin-service-keys';
import { pluginServicePorts } from './plugin-service-ports';
import { pluginCertificates, pluginPodTls, pluginTlsSecrets } from './plugin-tls';
import { podSecurity } from './pod-security';
import { RuleFamily, RuleSpec } from './rule';
import { schemaRules } from './schema';
import { sidecarSocket } from './sidecar-socket';

export * from './rule';

/** Every rule family, in the order their findings are listed for one object. */
export const RULE_FAMILIES = [
  operatorNamespace,
  inputRules,
  pluginServiceKeys,
  pluginServiceDiscovery,
  pluginServicePorts,
  sidecarSocket,
  pluginTlsSecrets,
  pluginCertificates,
  pluginPodTls,
  pluginReferences,
  schemaRules,
  clusterPlugins,
  backupPlugins,
  podSecurity,
  operatorFidelity,
] as const;

/** The id of a registered rule. */
export type RuleId = (typeof RULE_FAMILIES)[number]['rules'][number]['id'];

/** Every registered rule, sorted by id. */
export const RULE_SPECS: readonly RuleSpec<RuleId>[] = (RULE_FAMILIES as readonly RuleFamily<RuleId>[])
  .flatMap((f) => f.rules)
  .sort((a, b) => a.id.localeCompare(b.id));

const BY_ID = new Map<string, RuleSpec<RuleId>>(RULE_SPECS.map((r) => [r.id, r]));

/** The rule of an id, if it is registered. */
export function ruleSpec(id: string): RuleSpec<RuleId> | undefined {
  return BY_ID.get(id);
}

/** True when `id` is a registered rule id. */
export function isRuleId(id: string): id is RuleId {
  return BY_ID.has(id);
}
