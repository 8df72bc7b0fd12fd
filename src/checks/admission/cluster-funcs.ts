/*
 * What CloudNativePG computes from a Cluster before judging it: the PostgreSQL major it runs and
 * whether it is a replica cluster (cloudnative-pg v1.30.0 api/v1/cluster_funcs.go
 * GetPostgresqlMajorVersion and IsReplica, with cloudnative-pg/machinery v0.5.0
 * pkg/image/reference New and pkg/postgres/version FromTag). Plain JSON in, plain values out;
 * nothing here throws on odd input.
 */
import { Json, asObject, asString, dig } from '../../manifests/json';
import type { AdmissionContext } from './admission-check';

/**
 * Whether a field is set as the webhook sees it: present and not null, as a Go pointer, slice
 * or map decoded from JSON is then non-nil (an empty object or list is set).
 * @internal
 */
export function present(value: unknown): boolean {
  return value !== undefined && value !== null;
}

/**
 * The image the operator of the pinned release runs for a Cluster without `imageName` and
 * `imageCatalogRef` (cloudnative-pg v1.30.0 pkg/versions DefaultImageName), PostgreSQL 18.
 * @internal
 */
export const RELEASE_DEFAULT_IMAGE = 'ghcr.io/cloudnative-pg/postgresql:18.4-system-trixie';

/** An image reference split as the operator splits it; an absent part is `''`. @internal */
export interface ImageReference {
  /** The repository, with the registry the operator assumes (`docker.io/library/postgres`). */
  readonly name: string;
  /** The tag; `latest` when the reference has neither a tag nor a digest. */
  readonly tag: string;
  /** The hex of a trailing `@sha256:` digest. */
  readonly digest: string;
}

// A first path component with a dot or a port is a registry host (machinery reference.New).
const HOST = /^[^./:]+((\.[^./:]+)+(:[0-9]+)?|:[0-9]+)\//;
const DIGEST = /@sha256:([a-fA-F0-9]+)$/;
const TAG = /:([^/]+)$/;

/**
 * An image reference as CloudNativePG reads it: a name without `/` is a Docker Hub library
 * image, a name whose first component is no host is on Docker Hub; a trailing `@sha256:` digest
 * is split off first, then a trailing `:tag`; a reference with neither is tagged `latest`.
 * @internal
 */
export function imageReference(image: string): ImageReference {
  let name = !image.includes('/') ? `docker.io/library/${image}` : HOST.test(image) ? image : `docker.io/${image}`;
  let digest = '';
  const d = DIGEST.exec(name);
  if (d) {
    digest = d[1];
    name = name.slice(0, name.length - d[0].length);
  }
  let tag = '';
  const t = TAG.exec(name);
  if (t) {
    tag = t[1];
    name = name.slice(0, name.length - t[0].length);
  } else if (digest === '') {
    tag = 'latest';
  }
  return { name, tag, digest };
}

// Go's strconv.Atoi on a 64-bit platform: at most 19 digits and no more than the int64 bound.
function goInt(digits: string): number | undefined {
  if (!/^\d+$/.test(digits) || BigInt(digits) > 9223372036854775807n) return undefined;
  return Number(digits);
}

/**
 * The PostgreSQL major of an image tag (`17.5-bookworm` is 17, `17beta1` is 17, `14` is 14): the
 * tag must start with digits and dots, whose first number is the major and second, if any, the
 * minor; undefined where the operator cannot read it (`latest`, `bookworm-17`, `17.-1`).
 * @internal
 */
export function majorOfTag(tag: string): number | undefined {
  const version = /^(\d\.?)+/.exec(tag);
  if (!version) return undefined;
  const [major, minor] = version[0].split('.');
  if (minor !== undefined && goInt(minor) === undefined) return undefined;
  return goInt(major);
}

/**
 * The PostgreSQL major a Cluster asks for: the `major` of its `imageCatalogRef`, else the major
 * of the tag of its `imageName`, else that of the operator's default image. Undefined where the
 * operator cannot read it (the image checks report that; a catalog reference without an
 * integer `major` is refused by the CRD schema first).
 * @internal
 */
export function clusterMajor(cluster: Json, context: AdmissionContext): number | undefined {
  const catalog = asObject(dig(cluster, 'spec', 'imageCatalogRef'));
  if (catalog) return typeof catalog.major === 'number' && Number.isSafeInteger(catalog.major) ? catalog.major : undefined;
  const image = asString(dig(cluster, 'spec', 'imageName')) ?? '';
  return majorOfTag(imageReference(image !== '' ? image : (context.defaultImageName ?? RELEASE_DEFAULT_IMAGE)).tag);
}

/**
 * Whether a Cluster is a replica cluster: `spec.replica.enabled` when it is set, else (the
 * distributed topology) whether the Cluster's own name, `spec.replica.self` or else
 * `metadata.name`, differs from `spec.replica.primary`. No `spec.replica` is a primary cluster.
 * @internal
 */
export function isReplicaCluster(cluster: Json): boolean {
  const replica = asObject(dig(cluster, 'spec', 'replica'));
  if (!replica) return false;
  if (typeof replica.enabled === 'boolean') return replica.enabled;
  const self = asString(replica.self) ?? '';
  const name = self !== '' ? self : (asString(dig(cluster, 'metadata', 'name')) ?? '');
  return name !== (asString(replica.primary) ?? '');
}
