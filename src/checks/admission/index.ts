/*
 * CloudNativePG's admission, as one function per kind: what the API server's CRD defaults and the
 * defaulting webhook do to an object, then every check of its validating webhook
 * (cloudnative-pg v1.30.0 internal/webhook/v1/*_webhook.go), unless the object switches its
 * validation off (common.go isValidationEnabled).
 */
import type { Json } from '../../manifests/json';
import { recordingReads, trackLike } from '../../manifests/unrendered';
import type { CheckIssue } from '../issue';
import { AdmissionChangeCheck, AdmissionCheck, AdmissionContext, AdmissionKind, ChangeIssue } from './admission-check';
import { BACKUP_CHECKS } from './backup';
import { CLUSTER_ANNOTATION_CHECKS } from './cluster-annotations';
import { CLUSTER_BARMAN_CHECKS } from './cluster-barman';
import { CLUSTER_BOOTSTRAP_CHECKS } from './cluster-bootstrap';
import { CLUSTER_CHANGE_CHECKS } from './cluster-changes';
import { CLUSTER_IMAGE_CHECKS } from './cluster-images';
import { CLUSTER_INSTANCE_CHECKS } from './cluster-instances';
import { CLUSTER_LDAP_CHECKS } from './cluster-ldap';
import { CLUSTER_MANAGED_CHECKS } from './cluster-managed';
import { CLUSTER_NAME_CHECKS } from './cluster-names';
import { CLUSTER_PARAMETER_CHECKS } from './cluster-parameters';
import { CLUSTER_PLUGIN_CHECKS } from './cluster-plugins';
import { CLUSTER_POD_SPEC_CHECKS } from './cluster-pod-spec';
import { CLUSTER_PRIMARY_CHECKS } from './cluster-primary';
import { CLUSTER_REFERENCE_CHECKS } from './cluster-references';
import { CLUSTER_REPLICATION_SLOT_CHECKS } from './cluster-replication-slots';
import { CLUSTER_RESOURCE_CHECKS } from './cluster-resources';
import { CLUSTER_SCHEDULING_CHECKS } from './cluster-scheduling';
import { CLUSTER_SECRET_CHECKS } from './cluster-secrets';
import { CLUSTER_STORAGE_CHECKS } from './cluster-storage';
import { CLUSTER_SYNCHRONOUS_CHECKS } from './cluster-synchronous';
import { CLUSTER_WARNING_CHECKS } from './cluster-warnings';
import { DATABASE_CHECKS } from './database';
import { defaultObject } from './defaults';
import { POOLER_CHECKS } from './pooler';
import { validationEnabled } from './validation-annotation';

export { VALIDATION_ANNOTATION, validationEnabled } from './validation-annotation';

/**
 * Every admission check. Each family of checks is a module of this folder exporting its list;
 * {@link admit} runs them in the order of {@link WEBHOOK_FUNCTIONS}.
 * @internal
 */
export const ADMISSION_CHECKS: readonly AdmissionCheck[] = [
  ...CLUSTER_BOOTSTRAP_CHECKS,
  ...CLUSTER_SECRET_CHECKS,
  ...CLUSTER_IMAGE_CHECKS,
  ...CLUSTER_INSTANCE_CHECKS,
  ...CLUSTER_STORAGE_CHECKS,
  ...CLUSTER_NAME_CHECKS,
  ...CLUSTER_REFERENCE_CHECKS,
  ...CLUSTER_SCHEDULING_CHECKS,
  ...CLUSTER_BARMAN_CHECKS,
  ...CLUSTER_PARAMETER_CHECKS,
  ...CLUSTER_SYNCHRONOUS_CHECKS,
  ...CLUSTER_LDAP_CHECKS,
  ...CLUSTER_REPLICATION_SLOT_CHECKS,
  ...CLUSTER_POD_SPEC_CHECKS,
  ...CLUSTER_MANAGED_CHECKS,
  ...CLUSTER_RESOURCE_CHECKS,
  ...CLUSTER_ANNOTATION_CHECKS,
  ...CLUSTER_PRIMARY_CHECKS,
  ...CLUSTER_PLUGIN_CHECKS,
  ...CLUSTER_WARNING_CHECKS,
  ...BACKUP_CHECKS,
  ...POOLER_CHECKS,
  ...DATABASE_CHECKS,
];

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
  /**
   * The upstream functions whose check read a field holding unrendered text (a Flux variable, see
   * src/manifests/unrendered.ts): what they found is not judged, so it is not in `issues`.
   */
  readonly withheld: readonly string[];
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
  const withheld: string[] = [];
  if (!validationDisabled) {
    // an object holding unrendered text is judged one upstream function at a time: a function
    // that reads such text judges what will not be applied
    const judged = trackLike(object, defaulted);
    for (const c of BY_KIND.get(kind) ?? []) {
      const { result: found, read } = recordingReads(() => c.check(judged, context));
      if (read.size > 0) withheld.push(c.upstream);
      else if (found.length > 0) issues.set(c.upstream, found);
    }
  }
  return { defaulted, validationDisabled, issues, withheld };
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
 * Every check of an update (the Cluster webhook's `validateClusterChanges`), by kind, in the
 * order the webhooks run them. An update also runs every check of {@link ADMISSION_CHECKS} on
 * the new object, which `admit` does.
 * @internal
 */
export const ADMISSION_CHANGE_CHECKS: readonly AdmissionChangeCheck[] = [...CLUSTER_CHANGE_CHECKS];

/** What the update checks decide on one update. @internal */
export interface ChangeAdmission {
  /** The new object as the API server and the defaulting webhook leave it: what the checks judged. */
  readonly next: Json;
  /** The stored object as the webhook defaults it before comparing (`SetDefaults`). */
  readonly previous: Json;
  /** Set when the new object's `cnpg.io/validation: disabled` makes the webhook accept the update unjudged. */
  readonly validationDisabled: boolean;
  /** The issues of each update check that found any, by upstream function. */
  readonly issues: ReadonlyMap<string, readonly ChangeIssue[]>;
}

const CHANGES_BY_KIND = new Map<AdmissionKind, AdmissionChangeCheck[]>();
for (const c of ADMISSION_CHANGE_CHECKS) CHANGES_BY_KIND.set(c.kind, [...(CHANGES_BY_KIND.get(c.kind) ?? []), c]);

/**
 * Runs the update checks of `kind` on `next` replacing `previous` (neither is changed), as the
 * webhook's ValidateUpdate does: the new object as the API server passes it on (its `status` is
 * the stored one: the CRDs have the status subresource, so an update of the object never changes
 * its status) after the defaulting webhook, the stored one defaulted by `SetDefaults` (cloudnative-pg
 * v1.30.0 internal/webhook/v1/cluster_webhook.go ValidateUpdate). The checks of the new object
 * alone are `admit`'s.
 * @internal
 */
export function admitChange(kind: AdmissionKind, next: Json, previous: Json, context: AdmissionContext = {}): ChangeAdmission {
  const { status: _ignored, ...spec } = next;
  const withStatus = previous.status === undefined ? spec : { ...spec, status: previous.status };
  const defaultedNext = defaultObject(kind, withStatus, context);
  const defaultedPrevious = defaultObject(kind, previous, context, false);
  const validationDisabled = !validationEnabled(kind, next);
  const issues = new Map<string, readonly ChangeIssue[]>();
  if (!validationDisabled) {
    for (const c of CHANGES_BY_KIND.get(kind) ?? []) {
      const found = c.check(defaultedNext, defaultedPrevious, context);
      if (found.length > 0) issues.set(c.upstream, found);
    }
  }
  return { next: defaultedNext, previous: defaultedPrevious, validationDisabled, issues };
}

/** The update check of an upstream function, for the conformance table and the tests. @internal */
export function admissionChangeCheck(kind: AdmissionKind, upstream: string): AdmissionChangeCheck | undefined {
  return CHANGES_BY_KIND.get(kind)?.find((c) => c.upstream === upstream);
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
