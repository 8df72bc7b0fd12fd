/*
 * CNPGI336: the Cluster webhook's check of managed Services.
 */
import type { RuleDefinition } from '../../../../rules/rule';
import type { DoctorModel } from '../../../model/doctor-model';
import { reportAdmission } from '../admission-inputs';

/** A Cluster's `spec.managed.services` disables the `rw` Service, or adds a Service without a name, with the name of one of the operator's Services (`<cluster>-rw`, `-ro`, `-r`, `-any`), with a name another additional Service has, or with a selector of its own. */
export const rule: RuleDefinition<DoctorModel> = {
  id: 'CNPGI336',
  name: 'cluster-managed-services',
  severities: [{ severity: 'error', when: 'always' }],
  what: "A Cluster's `spec.managed.services` disables the `rw` Service, or adds a Service without a name, with the name of one of the operator's Services (`<cluster>-rw`, `-ro`, `-r`, `-any`), with a name another additional Service has, or with a selector of its own.",
  why: 'The Cluster webhook refuses the Cluster (cloudnative-pg v1.30.0 internal/webhook/v1/cluster_webhook.go validateManagedServices, validateServiceTemplate).',
  fix: 'Keep the `rw` Service; give each additional Service its own name and no `spec.selector` (the operator selects the instances by `selectorType`).',
  kinds: ['postgresql.cnpg.io/Cluster'],
  check: reportAdmission('Cluster', 'validateManagedServices'),
};
