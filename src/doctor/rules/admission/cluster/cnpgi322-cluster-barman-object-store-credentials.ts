/*
 * CNPGI322: the Cluster webhook's check of the in-tree Barman Cloud credentials.
 */
import type { RuleDefinition } from '../../../../rules/rule';
import type { DoctorModel } from '../../../model/doctor-model';
import { reportAdmission } from '../admission-inputs';

/** `spec.backup.barmanObjectStore` without exactly one complete set of credentials. */
export const rule: RuleDefinition<DoctorModel> = {
  id: 'CNPGI322',
  name: 'cluster-barman-object-store-credentials',
  severities: [{ severity: 'error', when: 'always' }],
  what: "A Cluster's `spec.backup.barmanObjectStore` names no credentials, the credentials of more than one provider, or incomplete ones: S3 without a key pair or `inheritFromIAMRole` (or with both, or half a pair); Azure without exactly one way to authenticate, a connection string beside other settings, or a key or SAS token without the storage account; Google without `applicationCredentials` outside GKE, or with them on GKE.",
  why: 'The Cluster webhook checks the stanza with Barman Cloud\'s own rules and refuses the Cluster (cloudnative-pg v1.30.0 internal/webhook/v1/cluster_webhook.go validateBackupConfiguration; barman-cloud v0.5.1 pkg/api/webhooks/config.go ValidateBackupConfiguration, pkg/api/config.go ValidateAzureCredentials, ValidateAwsCredentials, ValidateGCSCredentials). With two providers only the last one checked (Azure, then S3, then Google) has its problems reported, beside "too many credentials"; the webhook names the S3 stanza `awsCredentials` and the Google one `spec.backupConfiguration.googleCredentials`.',
  fix: 'Keep the credentials of one provider, complete: e.g. `s3Credentials: { accessKeyId: {...}, secretAccessKey: {...} }` or `s3Credentials: { inheritFromIAMRole: true }`. Better, move backups to the Barman Cloud plugin.',
  kinds: ['postgresql.cnpg.io/Cluster'],
  check: reportAdmission('Cluster', 'validateBackupConfiguration'),
};
