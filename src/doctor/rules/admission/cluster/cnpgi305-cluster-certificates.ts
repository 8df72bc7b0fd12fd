/*
 * CNPGI305: the Cluster webhook's validateCerts.
 */
import type { RuleDefinition } from '../../../../rules/rule';
import type { DoctorModel } from '../../../model/doctor-model';
import { reportAdmission } from '../admission-inputs';

/** What the Cluster webhook's validateCerts refuses. */
export const rule: RuleDefinition<DoctorModel> = {
  id: 'CNPGI305',
  name: 'cluster-certificates',
  severities: [{ severity: 'error', when: 'always' }],
  what: "A Cluster's `spec.certificates` gives a server TLS Secret with alternative DNS names or without a server CA Secret, or a replication TLS Secret without a client CA Secret.",
  why: 'The Cluster webhook refuses each, naming the fields in lower case (cloudnative-pg v1.30.0 internal/webhook/v1/cluster_webhook.go validateCerts): the operator adds DNS names only to certificates it issues, and each user-provided certificate needs the CA that verifies it.',
  fix: 'With `serverTLSSecret`, set `serverCASecret` and no `serverAltDNSNames`; with `replicationTLSSecret`, set `clientCASecret`.',
  kinds: ['postgresql.cnpg.io/Cluster'],
  check: reportAdmission('Cluster', 'validateCerts'),
};
