/*
 * CNPGI017: the operator only watches plugin Services in its own namespace.
 */
import type { RuleDefinition } from '../../../rules/rule';
import type { DoctorModel } from '../../model/doctor-model';

/** A plugin Service is outside the operator namespace. */
export const rule: RuleDefinition<DoctorModel> = {
  id: 'CNPGI017',
  name: 'plugin-service-namespace',
  severities: [
    { severity: 'error', when: "the Service's namespace and the operator namespace are both known" },
    {
      severity: 'warning',
      when: 'either is only assumed: the Service has no namespace (and no Flux or kustomize namespace gives it one), or the operator namespace is neither given nor shown by the input (pass `--namespace` or `--operator-namespace`)',
    },
  ],
  what: 'A plugin Service is outside the operator namespace.',
  why: 'The operator only takes Services in its own namespace (`OPERATOR_NAMESPACE`) as plugins (cloudnative-pg v1.30.0 internal/controller/plugin_predicates.go isPluginService), whatever the docs\' "same namespace" suggests.',
  fix: 'Deploy the plugin (Service, Deployment, Secrets, Certificates) in the operator namespace.',
  kinds: ['Service'],
  check(model, report) {
    for (const info of model.pluginServices) {
      if (info.inOperatorNamespace) continue;
      const svc = info.service;
      const { severity, note } = model.acrossNamespaces('error', [svc], true);
      report(
        severity,
        svc,
        `plugin Service is in namespace '${svc.namespace}', but the operator only watches Services in its own namespace '${model.operatorNamespace}'${note}`,
        `deploy the plugin (Service, Deployment, Secrets, Certificates) in '${model.operatorNamespace}', or pass the right --operator-namespace`,
        'metadata.namespace',
      );
    }
  },
};
