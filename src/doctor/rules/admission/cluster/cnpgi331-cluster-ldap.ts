/*
 * CNPGI331: the Cluster webhook's check of the LDAP settings.
 */
import type { RuleDefinition } from '../../../../rules/rule';
import type { DoctorModel } from '../../../model/doctor-model';
import { reportAdmission } from '../admission-inputs';

/** `spec.postgresql.ldap` without a server, or with both bind methods. */
export const rule: RuleDefinition<DoctorModel> = {
  id: 'CNPGI331',
  name: 'cluster-ldap',
  severities: [{ severity: 'error', when: 'always' }],
  what: "A Cluster's `spec.postgresql.ldap` has no `server`, or sets both `bindAsAuth` and `bindSearchAuth`.",
  why: 'The operator writes one LDAP line into pg_hba.conf, which needs a server and one method (simple bind, or search+bind); the Cluster webhook refuses the Cluster otherwise (cloudnative-pg v1.30.0 internal/webhook/v1/cluster_webhook.go validateLDAP).',
  fix: 'Name the LDAP `server` and keep one of `bindAsAuth` and `bindSearchAuth`, or remove the `ldap` stanza.',
  kinds: ['postgresql.cnpg.io/Cluster'],
  check: reportAdmission('Cluster', 'validateLDAP'),
};
