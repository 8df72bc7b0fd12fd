/*
 * CNPGI320: the Cluster webhook's check of the instances' tolerations.
 */
import type { RuleDefinition } from '../../../../rules/rule';
import type { DoctorModel } from '../../../model/doctor-model';
import { reportAdmission } from '../admission-inputs';

/** A toleration in `spec.affinity.tolerations` that Kubernetes would not accept on a Pod. */
export const rule: RuleDefinition<DoctorModel> = {
  id: 'CNPGI320',
  name: 'cluster-tolerations',
  severities: [{ severity: 'error', when: 'always' }],
  what: "A toleration in a Cluster's `spec.affinity.tolerations` has a key that is no label key, a value that is no label value, no key with an operator other than `Exists`, a value with `Exists`, `tolerationSeconds` with an effect other than `NoExecute`, or an unknown operator or effect.",
  why: "The CRD types the tolerations loosely; the Cluster webhook checks each one as Kubernetes checks a Pod's, and refuses the Cluster (cloudnative-pg v1.30.0 internal/webhook/v1/cluster_webhook.go validateTolerations, validateTaintEffect; label rules from k8s.io/apimachinery v0.36.2 pkg/api/validate/content/kube.go). The webhook names the list `spec.affinity.toleration`.",
  fix: "Write the taint's key and value, `operator: Equal` (with a value) or `Exists` (without), an effect of `NoSchedule`, `PreferNoSchedule` or `NoExecute`, and `tolerationSeconds` only with `NoExecute`.",
  kinds: ['postgresql.cnpg.io/Cluster'],
  check: reportAdmission('Cluster', 'validateTolerations'),
};
