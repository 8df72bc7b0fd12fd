/*
 * The shape of CloudNativePG's admission as the library models it: one check per function of
 * its validating webhooks (and per warning they return), judging an object as the API server
 * and the defaulting webhook leave it. The doctor's admission rules, the constructs (at synth)
 * and the conformance table (test/conformance) all run these same checks.
 */
import type { Json } from '../../manifests/json';
import type { CheckIssue } from '../issue';

/** A CloudNativePG kind that a validating webhook judges. */
export type AdmissionKind = 'Cluster' | 'Backup' | 'ScheduledBackup' | 'Pooler' | 'Database';

/** What the admission of an object can depend on besides the object: the operator's settings. */
export interface AdmissionContext {
  /**
   * The PostgreSQL image the operator gives a Cluster without `imageName` and `imageCatalogRef`
   * (its `POSTGRES_IMAGE_NAME`).
   * @default - the default of the operator's release (pkg/versions DefaultImageName)
   */
  readonly defaultImageName?: string;
  /**
   * The operator's `MONITORING_QUERIES_CONFIGMAP`: when it is not empty, the defaulter adds the
   * default queries to a Cluster's `monitoring.customQueriesConfigMap`.
   * @default - the release manifest's `cnpg-default-monitoring`
   */
  readonly monitoringQueriesConfigMap?: string;
  /**
   * The operator's `MONITORING_QUERIES_SECRET`: when it is not empty, the defaulter adds the
   * default queries to a Cluster's `monitoring.customQueriesSecret`.
   * @default - empty, as in the release manifest
   */
  readonly monitoringQueriesSecret?: string;
  /**
   * The operator's `INCLUDE_PLUGINS`, split and trimmed: plugins the defaulter adds to every
   * Cluster's `spec.plugins` that does not list them.
   * @default - none, as in the release manifest
   */
  readonly includePlugins?: readonly string[];
}

/**
 * One function of a validating webhook (or one of its warnings): judges the object after
 * defaulting, and returns what the webhook answers, each as a {@link CheckIssue} with the JSON
 * path of the field (the webhook's own path, when it differs, is in the message) and
 * `severity: 'warning'` for a webhook warning.
 * @internal
 */
export interface AdmissionCheck {
  readonly kind: AdmissionKind;
  /** The upstream function that decides, e.g. `validateStorageSize` (cloudnative-pg v1.30.0). */
  readonly upstream: string;
  /** Judges the defaulted object. Never throws on odd input: a field of the wrong type is absent. */
  readonly check: (object: Json, context: AdmissionContext) => readonly CheckIssue[];
}

/**
 * What a check of an update finds: a {@link CheckIssue} with the value the changed field had
 * and has (`null` where there is none: a removed section has no value after).
 * @internal
 */
export interface ChangeIssue extends CheckIssue {
  /** The value in the stored object, e.g. `10Gi`, as written there. */
  readonly before: unknown;
  /** The value in the new object, as written there; `null` when the field is gone. */
  readonly after: unknown;
}

/**
 * One check of `validateClusterChanges` (updates only): judges the new object against the stored
 * one, both defaulted.
 * @internal
 */
export interface AdmissionChangeCheck {
  readonly kind: AdmissionKind;
  /** The upstream function, e.g. `validateWalStorageChange`. */
  readonly upstream: string;
  /** Judges the defaulted new object against the defaulted stored one. Never throws on odd input. */
  readonly check: (next: Json, previous: Json, context: AdmissionContext) => readonly ChangeIssue[];
}
