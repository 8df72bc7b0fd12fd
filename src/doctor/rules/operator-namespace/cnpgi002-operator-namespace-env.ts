/*
 * CNPGI002: the operator's manager container must set OPERATOR_NAMESPACE.
 */
import type { RuleDefinition } from '../../../rules/rule';
import type { DoctorModel } from '../../model/doctor-model';
import { operatorTarget } from './operator-targets';

/** The manager container of an operator Deployment does not set `OPERATOR_NAMESPACE`. */
export const rule: RuleDefinition<DoctorModel> = {
  id: 'CNPGI002',
  name: 'operator-namespace-env',
  severities: [{ severity: 'error', when: 'always' }],
  what: "The operator Deployment's `manager` container does not set `OPERATOR_NAMESPACE`.",
  why: 'The operator takes its namespace from the `OPERATOR_NAMESPACE` env (cloudnative-pg v1.30.0 internal/configuration/configuration.go Data.OperatorNamespace; the release manifest sets it from the downward API); without it the namespace comparison is against the empty string, so no plugin Service is discovered at all (cloudnative-pg v1.30.0 internal/controller/plugin_predicates.go isPluginService).',
  fix: 'Set `OPERATOR_NAMESPACE` from `fieldRef: metadata.namespace`.',
  kinds: ['Deployment'],
  // CNPGI104 reads the operator's configuration and says the same of the same env (its
  // "OPERATOR_NAMESPACE is not set"): this finding is the one kept.
  subsumes: [{ rule: 'CNPGI104', path: 'spec.template.spec.containers[manager].env' }],
  check(model, report) {
    for (const c of model.operatorCandidates) {
      if (c.hasNamespaceEnv) continue;
      report(
        'error',
        operatorTarget(model, c),
        'the manager container does not set OPERATOR_NAMESPACE; the operator takes its namespace from it, and without it no plugin Service is discovered',
        'add env OPERATOR_NAMESPACE with valueFrom.fieldRef.fieldPath: metadata.namespace',
        'spec.template.spec.containers',
      );
    }
  },
};
