/*
 * CNPGI001: the namespace the operator runs in, on which every discovery check depends.
 */
import { DEFAULT_OPERATOR_NAMESPACE } from '../../../manifests/operator';
import type { RuleDefinition } from '../../../rules/rule';
import type { DoctorModel } from '../../model/doctor-model';
import { operatorTarget } from './operator-targets';

/** The operator namespace is assumed, or chosen among operator Deployments that disagree. */
export const rule: RuleDefinition<DoctorModel> = {
  id: 'CNPGI001',
  name: 'operator-namespace',
  severities: [{ severity: 'warning', when: 'the namespace is assumed (`cnpg-system`) or chosen among operator Deployments that disagree' }],
  what: 'The operator namespace is neither given nor found in an operator Deployment of the input, or several operator Deployments disagree.',
  why: 'The operator only takes plugin Services, and reads their Secrets, in its own namespace (cloudnative-pg v1.30.0 internal/controller/plugin_predicates.go isPluginService, internal/controller/plugin_controller.go PluginReconciler.reconcile); every discovery check depends on it.',
  fix: 'Pass `--operator-namespace` (`operatorNamespace`), or include the operator Deployment.',
  kinds: ['Deployment'],
  check(model, report) {
    const source = model.operatorNamespaceSource;
    if (source.kind === 'deployment' && source.conflicting.length > 0) {
      const all = [model.operatorNamespace, ...source.conflicting.map((x) => x.namespace)];
      report(
        'warning',
        operatorTarget(model, source.from),
        `several operator Deployments run in different namespaces (${all.map((n) => `'${n}'`).join(', ')}); the checks use '${model.operatorNamespace}'`,
        'pass --operator-namespace (operatorNamespace) to choose',
      );
    } else if (source.kind === 'default') {
      const c = source.candidate;
      report(
        'warning',
        c ? operatorTarget(model, c) : { ref: 'input' },
        c
          ? `the operator Deployment has no namespace; assumed '${DEFAULT_OPERATOR_NAMESPACE}'`
          : `no operator namespace given and no operator Deployment in the input; assumed '${DEFAULT_OPERATOR_NAMESPACE}'`,
        'pass --operator-namespace <namespace> (operatorNamespace), or include the operator Deployment',
      );
    }
  },
};
