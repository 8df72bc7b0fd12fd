/*
 * CNPGI340: the Cluster webhook's check of the hibernation annotation.
 */
import type { RuleDefinition } from '../../../../rules/rule';
import type { DoctorModel } from '../../../model/doctor-model';
import { reportAdmission } from '../admission-inputs';

/** A Cluster's `cnpg.io/hibernation` annotation is neither `on` nor `off`. */
export const rule: RuleDefinition<DoctorModel> = {
  id: 'CNPGI340',
  name: 'cluster-hibernation-annotation',
  severities: [{ severity: 'error', when: 'always' }],
  what: "A Cluster's `cnpg.io/hibernation` annotation is neither `on` nor `off`.",
  why: 'The Cluster webhook refuses the Cluster (cloudnative-pg v1.30.0 internal/webhook/v1/cluster_webhook.go validateHibernationAnnotation).',
  fix: 'Write `on` or `off`, or remove the annotation.',
  kinds: ['postgresql.cnpg.io/Cluster'],
  check: reportAdmission('Cluster', 'validateHibernationAnnotation'),
};
