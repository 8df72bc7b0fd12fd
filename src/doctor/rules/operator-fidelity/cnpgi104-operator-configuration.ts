/*
 * CNPGI104: the operator's configuration, as its Deployment, ConfigMaps and Secrets show it.
 */
import { checkOperatorConfig } from '../../../checks/operator-config';
import type { RuleDefinition } from '../../../rules/rule';
import type { DoctorModel } from '../../model/doctor-model';
import { PLUGIN_KEYS } from '../../model/plugin-services';
import { labelledPluginServices, reportIssues } from './fidelity-inputs';

/** The env path of the manager container's `OPERATOR_NAMESPACE` finding. */
const NAMESPACE_ENV = 'spec.template.spec.containers[manager].env';

/** OPERATOR_NAMESPACE, PLUGIN_SOCKET_DIR, INCLUDE_PLUGINS and the HTTPS proxy of the operator. */
export const rule: RuleDefinition<DoctorModel> = {
  id: 'CNPGI104',
  name: 'operator-configuration',
  severities: [{ severity: 'error', when: 'always' }],
  what: 'OPERATOR_NAMESPACE missing, PLUGIN_SOCKET_DIR with stray bytes, INCLUDE_PLUGINS names not discovered, an HTTPS proxy not exempting <svc>.<ns>.svc.',
  why: 'cloudnative-pg v1.30.0 pkg/configparser/configparser.go ReadConfigMap, internal/configuration/configuration.go GetIncludePlugins, api/v1/cluster_defaults.go setDefaultPlugins, internal/controller/plugin_predicates.go isPluginService; grpc-go v1.81.1 internal/resolver/delegatingresolver/delegatingresolver.go proxyURLForTarget.',
  fix: 'Set OPERATOR_NAMESPACE from the downward API; trim values; add .svc to NO_PROXY.',
  kinds: ['Deployment', 'ConfigMap', 'Secret'],
  check(model, report) {
    const operator = model.operatorDeployment;
    const config = model.operatorConfig;
    if (!operator || !config) return;
    const inNamespace = labelledPluginServices(model).filter((svc) => svc.namespace === model.operatorNamespace);
    const discovered = new Set<string>([...model.knownPlugins, ...model.discovered.keys(), ...inNamespace.map((svc) => svc.labels[PLUGIN_KEYS.name])]);
    const issues = checkOperatorConfig(
      config,
      discovered,
      inNamespace.map((svc) => ({ name: svc.name, namespace: model.operatorNamespace, port: svc.annotations[PLUGIN_KEYS.port] ?? '' })),
    );
    // An OPERATOR_NAMESPACE that the manager's env sets from a source the input does not show is
    // unknown, not unset: no finding. When the env has no entry at all, CNPGI002 reports it (and
    // subsumes this rule's finding at that path).
    const setFromElsewhere = config.operatorNamespace === undefined && model.operatorCandidates.some((c) => c.raw === operator.raw && c.hasNamespaceEnv);
    reportIssues(
      report,
      operator,
      issues.filter((i) => !(setFromElsewhere && i.path === NAMESPACE_ENV)),
    );
  },
};
