/*
 * CNPGI321: the Cluster webhook's check of the pod anti-affinity type.
 */
import type { RuleDefinition } from '../../../../rules/rule';
import type { DoctorModel } from '../../../model/doctor-model';
import { reportAdmission } from '../admission-inputs';

/** `spec.affinity.podAntiAffinityType` other than `preferred` or `required`. */
export const rule: RuleDefinition<DoctorModel> = {
  id: 'CNPGI321',
  name: 'cluster-pod-anti-affinity-type',
  severities: [{ severity: 'error', when: 'always' }],
  what: "A Cluster's `spec.affinity.podAntiAffinityType` is set to something other than `preferred` or `required`.",
  why: 'The CRD types the field as a plain string; the Cluster webhook refuses any other value, also when `enablePodAntiAffinity` is false (cloudnative-pg v1.30.0 internal/webhook/v1/cluster_webhook.go validateAntiAffinity).',
  fix: 'Use `preferred` (the default: instances spread over nodes when they can) or `required` (never two instances on one node), or leave the field out.',
  kinds: ['postgresql.cnpg.io/Cluster'],
  check: reportAdmission('Cluster', 'validateAntiAffinity'),
};
