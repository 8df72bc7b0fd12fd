/*
 * CloudNativePG's admission, as one function per kind: what the API server's CRD defaults and the
 * defaulting webhook do to an object, then every check of its validating webhook
 * (cloudnative-pg v1.30.0 internal/webhook/v1/*_webhook.go), unless the object switches its
 * validation off (common.go isValidationEnabled).
 */
import type { Json } from '../../manifests/json';
import type { CheckIssue } from '../issue';
import { AdmissionCheck, AdmissionContext, AdmissionKind } from './admission-check';
import { CLUSTER_IMAGE_CHECKS } from './cluster-images';
import { CLUSTER_REFERENCE_CHECKS } from './cluster-references';
import { defaultObject } from './defaults';
import { validationEnabled } from './validation-annotation';

export { VALIDATION_ANNOTATION, validationEnabled } from './validation-annotation';

/**
 * Every admission check. Each family of checks is a module of this folder exporting its list;
 * {@link admit} runs them in the order of {@link WEBHOOK_FUNCTIONS}.
 * @internal
 */
export const ADMISSION_CHECKS: readonly AdmissionCheck[] = [...CLUSTER_IMAGE_CHECKS, ...CLUSTER_REFERENCE_CHECKS];

/**
 * The functions each validating webhook runs, in its order (cloudnative-pg v1.30.0
 * internal/webhook/v1/cluster_webhook.go validate then getAdmissionWarnings,
 * pooler_webhook.go getAdmissionWarnings, validateDeprecatedMonitoringFields then validate,
 * database_webhook.go validate; the Backup and ScheduledBackup webhooks have one `validate`).
 * Each entry is a function, then the functions it calls that have checks of their own (a check
 * of the caller then leaves their part out).
 * @internal
 */
export const WEBHOOK_FUNCTIONS: { readonly [K in AdmissionKind]: ReadonlyArray<readonly [string, ...string[]]> } = {
  Cluster: [
    ['validateInitDB'],
    ['validateRecoveryApplicationDatabase'],
    ['validatePgBaseBackupApplicationDatabase'],
    ['validateImport'],
    ['validateSuperuserSecret'],
    ['validateCerts'],
    ['validateBootstrapMethod'],
    ['validateImageName'],
    ['validateImagePullPolicy'],
    ['validateRecoveryTarget'],
    ['validatePrimaryUpdateStrategy'],
    ['validateMinSyncReplicas'],
    ['validateMaxSyncReplicas'],
    ['validateStorageSize'],
    ['validateWalStorageSize'],
    ['validateEphemeralVolumeSource'],
    ['validateTablespaceStorageSize'],
    ['validateName'],
    ['validateTablespaceNames'],
    ['validateBootstrapPgBaseBackupSource'],
    ['validateTablespaceBackupSnapshot'],
    ['validateBootstrapRecoverySource'],
    ['validateBootstrapRecoveryDataSource'],
    ['validateExternalClusters'],
    ['validateTolerations'],
    ['validateAntiAffinity'],
    ['validateReplicaMode', 'validateReplicaClusterExternalClusters'],
    ['validateBackupConfiguration'],
    ['validateRetentionPolicy'],
    ['validateConfiguration'],
    ['validateSynchronousReplicaConfiguration'],
    ['validateFailoverQuorumAlphaAnnotation'],
    ['validateFailoverQuorum'],
    ['validateLDAP'],
    ['validateReplicationSlots'],
    ['validateSynchronizeLogicalDecoding'],
    ['validateEnv'],
    ['validateManagedServices'],
    ['validateManagedRoles'],
    ['validateManagedExtensions', 'validatePgFailoverSlots'],
    ['validateResources'],
    ['validateHibernationAnnotation'],
    ['validatePodPatchAnnotation'],
    ['validatePromotionToken'],
    ['validatePluginConfiguration'],
    ['validateLivenessPingerProbe'],
    ['validatePodSelectorRefs'],
    ['validateExtensions'],
    ['validateServiceAccountConfig'],
    ['validatePrimaryLease'],
    ['getMaintenanceWindowsAdmissionWarnings'],
    ['getInTreeBarmanWarnings'],
    ['getRetentionPolicyWarnings'],
    ['getStorageWarnings'],
    ['getSharedBuffersWarnings'],
    ['getMonitoringFieldsWarnings'],
    ['getDeprecatedMonitoringFieldsWarnings'],
  ],
  Backup: [['validate']],
  ScheduledBackup: [['validate']],
  Pooler: [
    ['getAdmissionWarnings'],
    ['validateDeprecatedMonitoringFields'],
    ['validatePgBouncer', 'validatePgbouncerGenericParameters'],
    ['validateCluster'],
    ['validateMonitoring'],
  ],
  Database: [['validateExtensions'], ['validateSchemas'], ['validateFDWs'], ['validateForeignServers']],
};

/** What admission does to one object. @internal */
export interface Admission {
  /** The object as the defaulting webhook leaves it: what the checks judged. */
  readonly defaulted: Json;
  /**
   * Set when the object's `cnpg.io/validation: disabled` annotation makes the webhook accept it
   * unjudged (every kind but ScheduledBackup, whose webhook ignores the annotation).
   */
  readonly validationDisabled: boolean;
  /** The issues of each check that found any, by upstream function, in the webhook's order. */
  readonly issues: ReadonlyMap<string, readonly CheckIssue[]>;
}

/** A check's rank in its webhook's order (a called function right after its caller); unknown ones last. */
function rank(c: AdmissionCheck): number {
  const i = WEBHOOK_FUNCTIONS[c.kind].flat().indexOf(c.upstream);
  return i < 0 ? Number.MAX_SAFE_INTEGER : i;
}

const BY_KIND = new Map<AdmissionKind, AdmissionCheck[]>();
for (const c of ADMISSION_CHECKS) BY_KIND.set(c.kind, [...(BY_KIND.get(c.kind) ?? []), c]);
for (const list of BY_KIND.values()) list.sort((a, b) => rank(a) - rank(b));

/** Runs the admission of `kind` over `object` (which is not changed). @internal */
export function admit(kind: AdmissionKind, object: Json, context: AdmissionContext = {}): Admission {
  const defaulted = defaultObject(kind, object, context);
  const validationDisabled = !validationEnabled(kind, object);
  const issues = new Map<string, readonly CheckIssue[]>();
  if (!validationDisabled) {
    for (const c of BY_KIND.get(kind) ?? []) {
      const found = c.check(defaulted, context);
      if (found.length > 0) issues.set(c.upstream, found);
    }
  }
  return { defaulted, validationDisabled, issues };
}

/** The errors of an admission, in the webhook's order: what makes the API server refuse the object. @internal */
export function admissionErrors(admission: Admission): CheckIssue[] {
  return [...admission.issues.values()].flat().filter((i) => i.severity === 'error');
}

/** Whether any admission check judges objects of `kind` (else admitting one can find nothing). @internal */
export function hasAdmissionChecks(kind: AdmissionKind): boolean {
  return (BY_KIND.get(kind)?.length ?? 0) > 0;
}

/** The check of an upstream function, for the conformance table and the tests. @internal */
export function admissionCheck(kind: AdmissionKind, upstream: string): AdmissionCheck | undefined {
  return BY_KIND.get(kind)?.find((c) => c.upstream === upstream);
}

/**
 * Whether every function of the whole validator of `kind` has a check (its own, or one of those
 * it calls), or the validator has one as a whole (`validate`): then the table's cases of the
 * whole validator can be judged.
 * @internal
 */
export function wholeValidatorChecked(kind: AdmissionKind): boolean {
  if (admissionCheck(kind, 'validate') !== undefined) return true;
  const functions = WEBHOOK_FUNCTIONS[kind].filter(([f]) => !f.startsWith('get') && f !== 'validateDeprecatedMonitoringFields');
  return functions.length > 0 && functions.every((names) => names.some((n) => admissionCheck(kind, n) !== undefined));
}
