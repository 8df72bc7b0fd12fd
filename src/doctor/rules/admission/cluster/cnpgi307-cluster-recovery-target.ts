/*
 * CNPGI307: the Cluster webhook's validateRecoveryTarget.
 */
import type { RuleDefinition } from '../../../../rules/rule';
import type { DoctorModel } from '../../../model/doctor-model';
import { reportAdmission } from '../admission-inputs';

/** What the Cluster webhook's validateRecoveryTarget refuses. */
export const rule: RuleDefinition<DoctorModel> = {
  id: 'CNPGI307',
  name: 'cluster-recovery-target',
  severities: [{ severity: 'error', when: 'always' }],
  what: "A Cluster's `spec.bootstrap.recovery.recoveryTarget` sets more than one target, a `targetTime` or `targetLSN` that does not parse, a `targetXID` that is no 32-bit number, a `targetName` of 64 bytes or more or with control characters, a name, xid or immediate target without `backupID` (outside a volume snapshot recovery), or a `targetTLI` that is neither `latest` nor a positive integer.",
  why: "The Cluster webhook refuses each (cloudnative-pg v1.30.0 internal/webhook/v1/cluster_webhook.go validateRecoveryTarget, validateTargetExclusiveness; machinery v0.5.0 pkg/types ParseTargetTime, which tries lib/pq v1.12.3's timestamp parser then Go's RFC 3339 layouts, and LSN.Parse).",
  fix: 'Set one target, written as PostgreSQL reads it (a timestamp such as `2024-05-01 12:00:00+00`, an LSN such as `0/3000060`), with `backupID` for a name, xid or immediate target.',
  kinds: ['postgresql.cnpg.io/Cluster'],
  check: reportAdmission('Cluster', 'validateRecoveryTarget'),
};
