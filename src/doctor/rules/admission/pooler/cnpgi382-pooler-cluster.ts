/*
 * CNPGI382: the Pooler webhook's check of the Cluster it points to.
 */
import type { RuleDefinition } from '../../../../rules/rule';
import type { DoctorModel } from '../../../model/doctor-model';
import { reportAdmission } from '../admission-inputs';

/** A Pooler without a cluster name, or named like its Cluster. */
export const rule: RuleDefinition<DoctorModel> = {
  id: 'CNPGI382',
  name: 'pooler-cluster',
  severities: [{ severity: 'error', when: 'always' }],
  what: "A Pooler's `spec.cluster.name` is empty, or equal to the Pooler's own name.",
  why: 'The Pooler webhook refuses both (cloudnative-pg v1.30.0 internal/webhook/v1/pooler_webhook.go PoolerCustomValidator.validateCluster).',
  fix: 'Name the Cluster in `spec.cluster.name`, and give the Pooler a name of its own, e.g. `<cluster>-pooler-rw`.',
  kinds: ['postgresql.cnpg.io/Pooler'],
  check: reportAdmission('Pooler', 'validateCluster'),
};
