/*
 * CNPGI001, CNPGI002: the namespace the operator runs in, on which every discovery check depends.
 */
import { DEFAULT_OPERATOR_NAMESPACE, OperatorCandidate } from '../../manifests/operator';
import { defineFamily } from './rule';

/** The operator namespace rules. */
export const operatorNamespace = defineFamily({
  rules: [
    {
      id: 'CNPGI001',
      name: 'operator-namespace',
      severities: [{ severity: 'warning', when: 'the namespace is assumed (`cnpg-system`) or chosen among operator Deployments that disagree' }],
      what: 'The operator namespace is neither given nor found in an operator Deployment of the input, or several operator Deployments disagree.',
      why: 'The operator only takes plugin Services, and reads their Secrets, in its own namespace (cloudnative-pg v1.30.0 internal/controller/plugin_predicates.go isPluginService, internal/controller/plugin_controller.go PluginReconciler.reconcile); every discovery check depends on it.',
      fix: 'Pass `--operator-namespace` (`operatorNamespace`), or include the operator Deployment.',
      kinds: ['Deployment'],
    },
    {
      id: 'CNPGI002',
      name: 'operator-namespace-env',
      severities: [{ severity: 'error', when: 'always' }],
      what: "The operator Deployment's `manager` container does not set `OPERATOR_NAMESPACE`.",
      why: 'The operator takes its namespace from the `OPERATOR_NAMESPACE` env (cloudnative-pg v1.30.0 internal/configuration/configuration.go Data.OperatorNamespace; the release manifest sets it from the downward API); without it the namespace comparison is against the empty string, so no plugin Service is discovered at all (cloudnative-pg v1.30.0 internal/controller/plugin_predicates.go isPluginService).',
      fix: 'Set `OPERATOR_NAMESPACE` from `fieldRef: metadata.namespace`.',
      kinds: ['Deployment'],
    },
  ],
  check(model, report) {
    const describe = (c: OperatorCandidate) => `Deployment/${c.namespace ?? model.defaultNamespace ?? '?'}/${c.name}`;
    const source = model.operatorNamespaceSource;
    if (source.kind === 'deployment' && source.conflicting.length > 0) {
      const all = [model.operatorNamespace, ...source.conflicting.map((x) => x.namespace)];
      report(
        'CNPGI001',
        'warning',
        { ref: describe(source.from), index: source.from.index, raw: source.from.raw },
        `several operator Deployments run in different namespaces (${all.map((n) => `'${n}'`).join(', ')}); the checks use '${model.operatorNamespace}'`,
        'pass --operator-namespace (operatorNamespace) to choose',
      );
    } else if (source.kind === 'default') {
      const c = source.candidate;
      report(
        'CNPGI001',
        'warning',
        c ? { ref: describe(c), index: c.index, raw: c.raw } : { ref: 'input' },
        c
          ? `the operator Deployment has no namespace; assumed '${DEFAULT_OPERATOR_NAMESPACE}'`
          : `no operator namespace given and no operator Deployment in the input; assumed '${DEFAULT_OPERATOR_NAMESPACE}'`,
        'pass --operator-namespace <namespace> (operatorNamespace), or include the operator Deployment',
      );
    }
    for (const c of model.operatorCandidates) {
      if (c.hasNamespaceEnv) continue;
      report(
        'CNPGI002',
        'error',
        { ref: `Deployment/${c.namespace ?? model.defaultNamespace ?? model.operatorNamespace}/${c.name}`, index: c.index, raw: c.raw },
        'the manager container does not set OPERATOR_NAMESPACE; the operator takes its namespace from it, and without it no plugin Service is discovered',
        'add env OPERATOR_NAMESPACE with valueFrom.fieldRef.fieldPath: metadata.namespace',
        'spec.template.spec.containers',
      );
    }
  },
});
