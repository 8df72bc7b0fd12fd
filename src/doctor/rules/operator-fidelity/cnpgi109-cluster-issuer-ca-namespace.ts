/*
 * CNPGI109: where cert-manager reads a ClusterIssuer's CA Secret.
 */
import { checkClusterIssuerSecret } from '../../../checks/certificate';
import { asString, dig } from '../../../manifests/json';
import type { RuleDefinition } from '../../../rules/rule';
import type { DoctorModel } from '../../model/doctor-model';
import { reportIssues } from './fidelity-inputs';

/** A ClusterIssuer's CA Secret exists only outside cert-manager's cluster-resource namespace. */
export const rule: RuleDefinition<DoctorModel> = {
  id: 'CNPGI109',
  name: 'cluster-issuer-ca-namespace',
  severities: [
    { severity: 'error', when: 'the CA Secret (or its Certificate) has a namespace, written or given by Flux, kustomize or `--namespace`' },
    { severity: 'warning', when: 'it has none, so its namespace is only assumed (`--namespace` makes it an error)' },
  ],
  what: "A ClusterIssuer's CA Secret (or the Certificate writing it) exists only outside cert-manager's cluster-resource namespace (option `clusterResourceNamespace`, CLI `--cluster-resource-namespace`; default: the cert-manager controller Deployment's flag when the input has one, else `cert-manager`).",
  why: "A cluster-scoped issuer has no namespace, so cert-manager reads its resources from the cluster-resource namespace (cert-manager v1.21.1 pkg/controller/helper.go IssuerOptions.ResourceNamespace, used by pkg/issuer/ca/setup.go CA.Setup). That namespace is the controller flag --cluster-resource-namespace (cmd/controller/app/options/options.go AddConfigFlags), `kube-system` when the flag is absent (internal/apis/config/controller/v1alpha1/defaults.go SetDefaults_ControllerConfiguration), and `$(POD_NAMESPACE)` (cert-manager's own namespace, `cert-manager` in the static manifests) as the Helm chart sets it (deploy/charts/cert-manager/templates/deployment.yaml).",
  fix: 'Put the CA Secret in the cluster-resource namespace, or tell the doctor the namespace cert-manager really uses.',
  kinds: ['cert-manager.io/ClusterIssuer', 'Secret', 'cert-manager.io/Certificate', 'Deployment'],
  check(model, report) {
    const clusterResourceNamespace = model.certManager.clusterResourceNamespace;
    for (const ci of model.index.ofKind('ClusterIssuer')) {
      const caName = asString(dig(ci.raw, 'spec', 'ca', 'secretName')) ?? '';
      const holders = [
        ...model.index.named('Secret', caName).map((x) => ({ namespace: x.namespace ?? '', what: 'Secret', raw: x.raw })),
        ...model.index
          .certificatesWritingAnywhere(caName)
          .map((x) => ({ namespace: x.namespace ?? '', what: `written by Certificate '${x.name}'`, raw: x.raw })),
      ];
      reportIssues(report, ci, checkClusterIssuerSecret(ci.raw, holders, clusterResourceNamespace), model);
    }
  },
};
