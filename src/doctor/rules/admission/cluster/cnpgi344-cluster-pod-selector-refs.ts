/*
 * CNPGI344: the Cluster webhook's check of pod selectors.
 */
import type { RuleDefinition } from '../../../../rules/rule';
import type { DoctorModel } from '../../../model/doctor-model';
import { reportAdmission } from '../admission-inputs';

/** A Cluster's `spec.podSelectorRefs` repeats a name or holds an invalid label selector, or a `spec.postgresql.pg_hba` line refers to an unknown pod selector, to another kind of reference than `${podselector:<name>}`, or to more than one pod selector. */
export const rule: RuleDefinition<DoctorModel> = {
  id: 'CNPGI344',
  name: 'cluster-pod-selector-refs',
  severities: [{ severity: 'error', when: 'always' }],
  what: "A Cluster's `spec.podSelectorRefs` repeats a name or holds an invalid label selector, or a `spec.postgresql.pg_hba` line refers to an unknown pod selector, to another kind of reference than `${podselector:<name>}`, or to more than one pod selector.",
  why: 'The Cluster webhook refuses the Cluster (cloudnative-pg v1.30.0 internal/webhook/v1/cluster_webhook.go validatePodSelectorRefs; cloudnative-pg v1.30.0 pkg/postgres/hba/hba.go ValidateLine; k8s.io/apimachinery v0.36.2 pkg/apis/meta/v1/validation/validation.go ValidateLabelSelector).',
  fix: 'Name each pod selector once, write valid label selectors, and refer from each pg_hba line to at most one selector that exists.',
  kinds: ['postgresql.cnpg.io/Cluster'],
  check: reportAdmission('Cluster', 'validatePodSelectorRefs'),
};
