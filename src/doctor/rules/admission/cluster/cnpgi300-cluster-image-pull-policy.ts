/*
 * CNPGI300: the Cluster webhook's pull policy check.
 */
import type { RuleDefinition } from '../../../../rules/rule';
import type { DoctorModel } from '../../../model/doctor-model';
import { reportAdmission } from '../admission-inputs';

/** A Cluster's `imagePullPolicy` that is no Kubernetes pull policy. */
export const rule: RuleDefinition<DoctorModel> = {
  id: 'CNPGI300',
  name: 'cluster-image-pull-policy',
  severities: [{ severity: 'error', when: 'always' }],
  what: "A Cluster's `spec.imagePullPolicy` is set to something other than `Always`, `Never` or `IfNotPresent`.",
  why: 'The CRD types the field as a plain string, and the Cluster webhook refuses any other value (cloudnative-pg v1.30.0 internal/webhook/v1/cluster_webhook.go validateImagePullPolicy).',
  fix: 'Use `Always`, `Never` or `IfNotPresent`, or leave the field out.',
  kinds: ['postgresql.cnpg.io/Cluster'],
  check: reportAdmission('Cluster', 'validateImagePullPolicy'),
};
