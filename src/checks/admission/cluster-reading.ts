/*
 * How CloudNativePG v1.30.0 reads a Cluster where its defaulter and its webhook share the answer:
 * the image reference and its PostgreSQL version (cloudnative-pg/machinery v0.5.0
 * pkg/image/reference, pkg/postgres/version), the major version, the replica role and the
 * application database owner (api/v1/cluster_funcs.go). Plain JSON in, plain values out; odd
 * input reads as absent.
 */
import { isGoInt } from '../../manifests/go-numbers';
import { Json, asObject, asString, dig, stringMap } from '../../manifests/json';
import { memoized } from '../../manifests/memo';
import type { AdmissionContext } from './admission-check';
import { isSet } from './go-values';
import { operatorSettings } from './operator-settings';

/** An image name split the way CloudNativePG splits it. @internal */
export interface ImageReference {
  /** The repository, with the registry CloudNativePG assumes (`docker.io/library/postgres`). */
  readonly name: string;
  /** The tag; `latest` when the name has neither a tag nor a digest, empty with a digest alone. */
  readonly tag: string;
  /** The hex digits of an `@sha256:` digest, or empty. */
  readonly digest: string;
}

const DIGEST = /@sha256:([a-fA-F0-9]+)$/;
const TAG = /:([^/]+)$/;
const HOST = /^[^./:]+((\.[^./:]+)+(:[0-9]+)?|:[0-9]+)\//;

/**
 * Splits an image name as machinery v0.5.0 pkg/image/reference New does: a name without `/` is
 * under `docker.io/library/`, one whose first part is no host under `docker.io/`; a trailing
 * `@sha256:<hex>` is the digest, then a trailing `:<no slash>` the tag, and with neither the tag
 * is `latest`.
 * @internal
 */
export const imageReference: (image: string) => ImageReference = memoized(readImageReference);

function readImageReference(image: string): ImageReference {
  let name = !image.includes('/') ? `docker.io/library/${image}` : HOST.test(image) ? image : `docker.io/${image}`;
  let digest = '';
  let tag = '';
  const d = DIGEST.exec(name);
  if (d) {
    digest = d[1];
    name = name.slice(0, name.length - d[0].length);
  }
  const t = TAG.exec(name);
  if (t) {
    tag = t[1];
    name = name.slice(0, name.length - t[0].length);
  } else if (digest === '') {
    tag = 'latest';
  }
  return { name, tag, digest };
}

const VERSION_PREFIX = /^(\d\.?)+/;

/**
 * The PostgreSQL version of an image tag, as machinery v0.5.0 pkg/postgres/version FromTag reads
 * it: the tag must start with digits and dots (`18.4-system-trixie` is 18.4, `17rc1` is 17.0,
 * `15.5-10` is 15.5); undefined when it does not, or when the first two parts are not numbers
 * (`18.` has an empty minor).
 * @internal
 */
export const versionFromTag: (tag: string) => PostgresVersion | undefined = memoized(readVersionFromTag);

/** A PostgreSQL version as machinery reads it from a tag. @internal */
export interface PostgresVersion {
  readonly major: number;
  readonly minor: number;
}

function readVersionFromTag(tag: string): PostgresVersion | undefined {
  const m = VERSION_PREFIX.exec(tag);
  if (!m) return undefined;
  const parts = m[0].split('.');
  // Go's strconv.Atoi on each of the first two parts, which hold digits only.
  if (!isGoInt(parts[0]) || (parts.length > 1 && !isGoInt(parts[1]))) return undefined;
  return { major: Number(parts[0]), minor: parts.length > 1 ? Number(parts[1]) : 0 };
}

/**
 * The PostgreSQL major version of a Cluster (api/v1/cluster_funcs.go GetPostgresqlMajorVersion):
 * `spec.imageCatalogRef.major` when there is a catalog reference, else the version of the
 * `imageName` tag, else that of the operator's default image. Undefined when the tag gives no
 * version (validateImageName reports that image).
 * @internal
 */
export function postgresMajor(cluster: Json, context: AdmissionContext): number | undefined {
  const spec = asObject(cluster.spec);
  if (isSet(spec?.imageCatalogRef)) {
    const major = dig(spec, 'imageCatalogRef', 'major');
    if (major === undefined || major === null) return 0;
    return typeof major === 'number' && Number.isInteger(major) ? major : undefined;
  }
  const image = asString(spec?.imageName) || operatorSettings(context).defaultImageName;
  return versionFromTag(imageReference(image).tag)?.major;
}

/**
 * Whether a Cluster is a replica cluster (api/v1/cluster_funcs.go IsReplica): with a
 * `spec.replica` stanza, its `enabled` when set, else whether `self` (by default the Cluster's
 * name) differs from `primary`.
 * @internal
 */
export function isReplicaCluster(cluster: Json): boolean {
  const replica = asObject(dig(cluster, 'spec', 'replica'));
  if (!replica) return false;
  if (typeof replica.enabled === 'boolean') return replica.enabled;
  const self = asString(replica.self) || (asString(dig(cluster, 'metadata', 'name')) ?? '');
  return self !== (asString(replica.primary) ?? '');
}

/**
 * The owner of the application database (api/v1/cluster_funcs.go GetApplicationDatabaseOwner):
 * the first non-empty `owner` of `recovery`, `pg_basebackup` and `initdb`, else empty.
 * @internal
 */
export function applicationOwner(cluster: Json): string {
  for (const method of ['recovery', 'pg_basebackup', 'initdb']) {
    const owner = asString(dig(cluster, 'spec', 'bootstrap', method, 'owner'));
    if (owner) return owner;
  }
  return '';
}

/** The string annotations of an object (a value of another type is none). @internal */
export function annotationsOf(object: Json): Record<string, string> {
  return stringMap(dig(object, 'metadata', 'annotations'));
}

/** The annotation that switches WAL archiving off (`enabled`), so that `archive_mode` is `off`. @internal */
export const SKIP_WAL_ARCHIVING_ANNOTATION = 'cnpg.io/skipWalArchiving';

/**
 * Whether a Cluster turns WAL archiving off (pkg/utils IsWalArchivingDisabled: the annotation
 * `cnpg.io/skipWalArchiving` is exactly `enabled`).
 * @internal
 */
export function walArchivingDisabled(cluster: Json): boolean {
  return annotationsOf(cluster)[SKIP_WAL_ARCHIVING_ANNOTATION] === 'enabled';
}
