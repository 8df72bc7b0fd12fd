/*
 * The shape of the admission conformance table: CloudNativePG's own webhook tests at the pinned
 * tag, carried over as data (input object, expected verdict, the upstream function the test
 * exercises). See README.md beside this file for how a runner uses it.
 *
 * Every case is a fact of cloudnative-pg v1.30.0 internal/webhook/v1/*_test.go; the inputs are
 * written as the JSON a user would write (CRD field names), never as Go.
 */

/** A JSON value, as a manifest holds it. */
export type Json = null | boolean | number | string | readonly Json[] | { readonly [key: string]: Json };

/** A JSON object. */
export type JsonObject = { readonly [key: string]: Json };

/** The upstream release whose tests the table carries. */
export const UPSTREAM = {
  repository: 'cloudnative-pg/cloudnative-pg',
  tag: 'v1.30.0',
  folder: 'internal/webhook/v1',
} as const;

/** The upstream test files the table covers. */
export const UPSTREAM_FILES = [
  'cluster_webhook_test.go',
  'backup_webhook_test.go',
  'scheduledbackup_webhook_test.go',
  'pooler_webhook_test.go',
  'database_webhook_test.go',
  'common_test.go',
] as const;

/** One of the upstream test files. */
export type UpstreamFile = (typeof UPSTREAM_FILES)[number];

/** Where a case comes from, precise enough that a reader finds it at the tag. */
export interface UpstreamRef {
  /** The test file in internal/webhook/v1 at v1.30.0. */
  readonly file: UpstreamFile;
  /** The line of the It or Entry (or of the container that asserts without one) at v1.30.0. */
  readonly line: number;
  /** The enclosing Describe / Context / When / DescribeTable texts, outermost first, joined by ' > '. */
  readonly describe: string;
  /** The It or Entry text (for a container that asserts without an It, its own text). */
  readonly it: string;
}

/** The CloudNativePG kinds whose admission the upstream tests exercise. */
export type CnpgKind = 'Cluster' | 'Backup' | 'ScheduledBackup' | 'Pooler' | 'Database';

/** The API version of every CloudNativePG object in the table. */
export const CNPG_API_VERSION = 'postgresql.cnpg.io/v1';

/** The metadata the upstream objects set. */
export interface Metadata {
  readonly name: string;
  readonly namespace?: string;
  readonly annotations?: { readonly [key: string]: string };
  readonly resourceVersion?: string;
}

/** An object as the webhook receives it (CRD field names; `status` only where the test sets it). */
export interface Manifest {
  readonly apiVersion: typeof CNPG_API_VERSION;
  readonly kind: CnpgKind;
  readonly metadata: Metadata;
  readonly spec: JsonObject;
  readonly status?: JsonObject;
}

/**
 * The `reason` Kubernetes puts on a cause of an Invalid status, i.e. the field.ErrorType of the
 * error the webhook returns (FieldValueInvalid for field.Invalid, and so on).
 */
export type Reason = 'FieldValueInvalid' | 'FieldValueRequired' | 'FieldValueDuplicate' | 'FieldValueForbidden' | 'FieldValueNotSupported';

/** What the upstream test asserts about one error of the list (only what it asserts). */
export interface ExpectedError {
  /** The position in the error list, when the test asserts by index. */
  readonly index?: number;
  /** The error's field path, when the test asserts it equal. */
  readonly path?: string;
  /** A prefix of the field path, when the test asserts only that. */
  readonly pathPrefix?: string;
  /** A substring of the field path, when the test asserts only that. */
  readonly pathContains?: string;
  /** The error type, when the test asserts it. */
  readonly reason?: Reason;
  /** The error's detail, when the test asserts it equal. */
  readonly message?: string;
  /** Substrings of the detail (or of the whole error text) that the test asserts. */
  readonly messageContains?: readonly string[];
  /** The rejected value, when the test asserts it. */
  readonly value?: string | number | boolean;
}

/** What the upstream test asserts about one admission warning. */
export interface ExpectedWarning {
  /** The position in the warning list. */
  readonly index: number;
  /** Substrings the warning contains. */
  readonly contains: readonly string[];
}

/**
 * The verdict the upstream test asserts. `errors` is exact (`BeEmpty()` / `BeNil()` is 0,
 * `HaveLen(n)` is n) or 'some' (`NotTo(BeEmpty())`: at least one). `paths` are field paths the
 * test asserts equal, in any order; `details` carries what it asserts beyond the path.
 */
export interface Verdict {
  readonly errors: number | 'some';
  /** Number of admission warnings, when the test asserts it. */
  readonly warnings?: number | 'some';
  readonly paths?: readonly string[];
  readonly details?: readonly ExpectedError[];
  readonly warningDetails?: readonly ExpectedWarning[];
}

/** A value the upstream test asserts after running the defaulter (a JSON path in the object). */
export interface DefaultedValue {
  /** Dotted path from the object root, e.g. 'spec.replicationSlots.highAvailability.enabled'. */
  readonly path: string;
  /** The value asserted; absent when the test only asserts that the field is set. */
  readonly equals?: Json;
}

/** What rewrites an object before the validating webhook sees it. */
export type Rewriter = 'crd-defaults' | 'defaulter';

/** What admission as a whole decides where it differs from the tested function. */
export interface AdmissionDifference {
  readonly rewrittenBy: readonly Rewriter[];
  readonly errors: number;
  /** The paths of those errors, where they differ from the tested function's. */
  readonly paths?: readonly string[];
}

/** One upstream test (or one object of it) as data: an object and what admission decides. */
export interface AdmissionCase {
  /** Stable id: '<webhook>/<function>/<n>'. */
  readonly id: string;
  readonly upstream: UpstreamRef;
  /**
   * The upstream function the test calls: a single check (e.g. 'validateStorageSize'), or the
   * whole validator ('validate', 'validateClusterChanges') when the test calls that.
   */
  readonly function: string;
  readonly kind: CnpgKind;
  /** The object under test (the new object of an update). */
  readonly input: Manifest;
  /** The stored object, for the update checks. */
  readonly old?: Manifest;
  readonly verdict: Verdict;
  /** The test runs the Cluster defaulter (Cluster.Default()) on `input` before the function. */
  readonly defaulted?: boolean;
  /** The test runs the Cluster defaulter on `old` before the function. */
  readonly oldDefaulted?: boolean;
  /** Values the test asserts on the input after the defaulter ran. */
  readonly afterDefaulting?: readonly DefaultedValue[];
  /**
   * Set when admission as a whole decides otherwise on this input than the function the test
   * calls, because the object is rewritten before the validator sees it: by the API server's
   * structural defaulting (the CRD's `default:` values) and/or by the Cluster defaulter of the
   * mutating webhook. `errors` is the number of errors the function then returns. Derived from
   * the upstream code, not asserted by the test; the note says how.
   */
  readonly admission?: AdmissionDifference;
  readonly note?: string;
}

/**
 * One upstream test of a helper that takes a value rather than an object (a quantity parser, the
 * validation-annotation parser, the service-template check with a flag no caller passes).
 */
export interface HelperCase {
  readonly id: string;
  readonly upstream: UpstreamRef;
  readonly function: string;
  /** The helper's arguments, by the upstream parameter name, as JSON (an object argument as a manifest). */
  readonly args: { readonly [name: string]: Json | Manifest };
  /** What the test asserts: the returned value, that it fails, or an error-list verdict. */
  readonly expected: { readonly returns?: Json; readonly fails?: boolean; readonly verdict?: Verdict };
  readonly note?: string;
}

/** Why an upstream test is not in the table. */
export type LeftOutReason =
  /** The verdict depends on a fact of the running operator that no manifest carries. */
  | 'operator-environment'
  /** The test exercises a Go test double (a fake validator), not an object. */
  | 'go-test-double';

/** An upstream test that the table does not carry, and why. */
export interface LeftOut {
  readonly upstream: UpstreamRef;
  readonly function: string;
  readonly kind: CnpgKind;
  readonly reason: LeftOutReason;
  /** What the test decides and what it would need. */
  readonly detail: string;
}

/** The names the table gives objects that upstream leaves unnamed; none of them changes a verdict. */
export const DEFAULT_NAMES: { readonly [K in CnpgKind]: string } = {
  Cluster: 'cluster-example',
  Backup: 'backup-example',
  ScheduledBackup: 'scheduled-backup-example',
  Pooler: 'pooler-example',
  Database: 'database-example',
};

/** Optional metadata for the builders below; the name defaults to DEFAULT_NAMES. */
export type MetadataInput = Partial<Metadata>;

function manifest(kind: CnpgKind, spec: JsonObject, metadata: MetadataInput, status?: JsonObject): Manifest {
  const object: Manifest = {
    apiVersion: CNPG_API_VERSION,
    kind,
    metadata: { name: DEFAULT_NAMES[kind], ...metadata },
    spec,
  };
  return status === undefined ? object : { ...object, status };
}

/** A Cluster with the given spec (and metadata, and status when the test sets one). */
export function cluster(spec: JsonObject = {}, metadata: MetadataInput = {}, status?: JsonObject): Manifest {
  return manifest('Cluster', spec, metadata, status);
}

/** A Backup with the given spec. */
export function backup(spec: JsonObject = {}, metadata: MetadataInput = {}): Manifest {
  return manifest('Backup', spec, metadata);
}

/** A ScheduledBackup with the given spec. */
export function scheduledBackup(spec: JsonObject = {}, metadata: MetadataInput = {}): Manifest {
  return manifest('ScheduledBackup', spec, metadata);
}

/** A Pooler with the given spec. */
export function pooler(spec: JsonObject = {}, metadata: MetadataInput = {}): Manifest {
  return manifest('Pooler', spec, metadata);
}

/** A Database with the given spec. */
export function database(spec: JsonObject = {}, metadata: MetadataInput = {}): Manifest {
  return manifest('Database', spec, metadata);
}
