/*
 * The Cluster webhook's checks of the in-tree Barman Cloud backup stanza: the credentials of
 * `spec.backup.barmanObjectStore` and `spec.backup.retentionPolicy` (cloudnative-pg v1.30.0
 * internal/webhook/v1/cluster_webhook.go validateBackupConfiguration, validateRetentionPolicy,
 * which call barman-cloud v0.5.1 pkg/api/webhooks/config.go ValidateBackupConfiguration,
 * ValidateRetentionPolicy; pkg/api/config.go ValidateAzureCredentials, ValidateAwsCredentials,
 * ValidateGCSCredentials; pkg/utils/barman.go ParsePolicy).
 */
import { describeValue } from '../../manifests/errors';
import { Json, asObject, dig } from '../../manifests/json';
import type { CheckIssue } from '../issue';
import type { AdmissionCheck } from './admission-check';
import { webhookText } from './webhook-text';

const BASE = 'spec.backup.barmanObjectStore';
/** A secret reference is set when it is an object (a Go pointer that is not nil). */
const set = (value: unknown) => asObject(value) !== undefined;
const ONE_PROVIDER = 'One and only one of azureCredentials, s3Credentials and googleCredentials are required';

function azure(credentials: Json): CheckIssue[] {
  const path = `${BASE}.azureCredentials`;
  const issue = (text: string, why: string, fix: string): CheckIssue => ({
    severity: 'error',
    path,
    message: `the Cluster webhook refuses azureCredentials (${webhookText(text)}): ${why}`,
    fix,
  });
  const methods = [
    credentials.inheritFromAzureAD === true,
    credentials.useDefaultAzureCredentials === true,
    set(credentials.storageKey),
    set(credentials.storageSasToken),
  ];
  const count = methods.filter(Boolean).length;
  const connectionString = set(credentials.connectionString);
  const out: CheckIssue[] = [];
  if (count !== 1 && !connectionString) {
    out.push(
      issue(
        'when connection string is not specified, one and only one of storage key, storage SAS token, Azure AD authentication, or default Azure credentials is required',
        count === 0 ? 'it names no way to authenticate' : `it names ${count} ways to authenticate`,
        'keep exactly one of storageKey (with storageAccount), storageSasToken (with storageAccount), inheritFromAzureAD: true and useDefaultAzureCredentials: true, or use connectionString alone',
      ),
    );
  }
  if ((count !== 0 || set(credentials.storageAccount)) && connectionString) {
    out.push(
      issue(
        'when connection string is specified, the other parameters must be empty',
        'a connection string carries the account and the key itself',
        'keep connectionString alone, or drop it and name the account and one way to authenticate',
      ),
    );
  }
  if ((set(credentials.storageKey) || set(credentials.storageSasToken)) && !set(credentials.storageAccount)) {
    out.push(
      issue(
        'storage account must be specified when using storage key or SAS token',
        'a key or a SAS token is only valid with the account it belongs to',
        'add storageAccount: { name: <secret>, key: <key> } naming the storage account',
      ),
    );
  }
  return out;
}

function s3(credentials: Json): CheckIssue[] {
  const issue = (text: string, why: string, fix: string): CheckIssue => ({
    severity: 'error',
    path: `${BASE}.s3Credentials`,
    webhookPath: `${BASE}.awsCredentials`,
    message: `the Cluster webhook refuses s3Credentials (${webhookText(text)}): ${why}`,
    fix,
  });
  const keyId = set(credentials.accessKeyId);
  const secret = set(credentials.secretAccessKey);
  let count = credentials.inheritFromIAMRole === true ? 1 : 0;
  const out: CheckIssue[] = [];
  if (keyId || secret) count++;
  if (keyId !== secret) {
    out.push(
      issue(
        'when using AWS credentials both accessKeyId and secretAccessKey must be provided',
        `it names ${keyId ? 'accessKeyId without secretAccessKey' : 'secretAccessKey without accessKeyId'}`,
        'name both accessKeyId and secretAccessKey (each a secret key reference), or use inheritFromIAMRole: true',
      ),
    );
  }
  if (count === 0) {
    out.push(
      issue(
        'at least one AWS authentication method should be supplied',
        'it names neither a key pair nor inheritFromIAMRole',
        'name accessKeyId and secretAccessKey, or set inheritFromIAMRole: true',
      ),
    );
  }
  if (count > 1) {
    out.push(
      issue(
        'only one AWS authentication method should be supplied',
        'it names a key pair and inheritFromIAMRole: true',
        'keep the key pair or inheritFromIAMRole: true, not both',
      ),
    );
  }
  return out;
}

function google(credentials: Json): CheckIssue[] {
  const gke = credentials.gkeEnvironment === true;
  const secret = set(credentials.applicationCredentials);
  const issue = (text: string, why: string, fix: string): CheckIssue => ({
    severity: 'error',
    path: `${BASE}.googleCredentials`,
    // barman-cloud names this path itself, whatever the caller's
    webhookPath: 'spec.backupConfiguration.googleCredentials',
    message: `the Cluster webhook refuses googleCredentials (${webhookText(text)}): ${why}`,
    fix,
  });
  if (!gke && !secret) {
    return [
      issue(
        'if gkeEnvironment is false, secret with credentials must be provided',
        'outside GKE the instances need a service account key',
        'name applicationCredentials (a secret key reference to the service account JSON), or set gkeEnvironment: true on GKE with Workload Identity',
      ),
    ];
  }
  if (gke && secret) {
    return [
      issue(
        'if gkeEnvironment is true, secret with credentials must not be provided',
        'on GKE the instances authenticate as their Kubernetes service account',
        'leave applicationCredentials out, or set gkeEnvironment: false to use the key',
      ),
    ];
  }
  return [];
}

/**
 * validateBackupConfiguration: a `barmanObjectStore` names exactly one provider's credentials,
 * and those are complete. As in barman-cloud, each provider's check replaces the findings of the
 * one before it (Azure, then S3, then Google), so with two providers only the last one's
 * problems are reported, with the "too many credentials" one.
 */
function backupConfiguration(cluster: Json): CheckIssue[] {
  const store = asObject(dig(cluster, 'spec', 'backup', 'barmanObjectStore'));
  if (store === undefined) return [];
  const providers: Array<[string, (c: Json) => CheckIssue[]]> = [
    ['azureCredentials', azure],
    ['s3Credentials', s3],
    ['googleCredentials', google],
  ];
  let out: CheckIssue[] = [];
  let count = 0;
  for (const [field, check] of providers) {
    const credentials = asObject(store[field]);
    if (credentials === undefined) continue;
    count++;
    out = check(credentials);
  }
  if (count === 0) {
    out.push({
      severity: 'error',
      path: BASE,
      message: `the Cluster webhook refuses a barmanObjectStore without credentials (${webhookText(`missing credentials. ${ONE_PROVIDER}`)})`,
      fix: 'add s3Credentials, azureCredentials or googleCredentials for the object store, e.g. s3Credentials: { inheritFromIAMRole: true }',
    });
  }
  if (count > 1) {
    out.push({
      severity: 'error',
      path: BASE,
      message: `the Cluster webhook refuses a barmanObjectStore with ${count} kinds of credentials (${webhookText(`too many credentials. ${ONE_PROVIDER}`)})`,
      fix: 'keep the credentials of the provider that holds destinationPath, and remove the others',
    });
  }
  return out;
}

/**
 * validateRetentionPolicy: a non-empty `retentionPolicy` ends in a number without leading zero
 * and `d`, `w` or `m` (barman-cloud's pattern is not anchored at the start: `x30d` passes the
 * webhook, though the CRD's own pattern refuses it).
 */
function retentionPolicy(cluster: Json): CheckIssue[] {
  const policy = dig(cluster, 'spec', 'backup', 'retentionPolicy');
  if (typeof policy !== 'string' || policy === '' || /([1-9][0-9]*)([dwm])$/.test(policy)) return [];
  return [
    {
      severity: 'error',
      path: 'spec.backup.retentionPolicy',
      message: `the Cluster webhook refuses retentionPolicy ${describeValue(policy)} (${webhookText('not a valid retention policy')}): Barman keeps backups for a number of days, weeks or months`,
      fix: "write a recovery window such as '30d', '4w' or '6m'",
    },
  ];
}

/** The Barman Cloud backup checks, in the webhook's order. @internal */
export const CLUSTER_BARMAN_CHECKS: readonly AdmissionCheck[] = [
  { kind: 'Cluster', upstream: 'validateBackupConfiguration', check: backupConfiguration },
  { kind: 'Cluster', upstream: 'validateRetentionPolicy', check: retentionPolicy },
];
