/*
 * The PostgreSQL major version of a Cluster, read the way the operator reads it
 * (cloudnative-pg v1.30.0 api/v1/cluster_funcs.go GetPostgresqlMajorVersion): the image
 * catalog's `major`, else the version in the tag of `imageName` (machinery v0.5.0
 * pkg/image/reference New, pkg/postgres/version FromTag), else the operator's default image.
 */
import { parseGoInt } from '../../manifests/duration';
import { Json, asObject, asString, dig } from '../../manifests/json';
import type { AdmissionContext } from './admission-check';

/**
 * The image a Cluster without `imageName` and `imageCatalogRef` runs when the operator's
 * `POSTGRES_IMAGE_NAME` is not changed (cloudnative-pg v1.30.0 pkg/versions DefaultImageName).
 * @internal
 */
export const DEFAULT_POSTGRES_IMAGE = 'ghcr.io/cloudnative-pg/postgresql:18.4-system-trixie';

/**
 * The tag of an image reference as machinery's `reference.New` splits it: a trailing
 * `@sha256:<hex>` digest is set aside, then the text after the first `:` that has no `/` after
 * it is the tag; no tag and no digest means `latest`, a digest alone gives no tag (`''`).
 * @internal
 */
export function imageTag(image: string): string {
  // reference.New first puts `docker.io/library/` or `docker.io/` before a name without a
  // registry; that changes the name, never the tag, since the prefix holds no `:` after a `/`.
  let name = image.includes('/') ? image : `docker.io/library/${image}`;
  const digest = /@sha256:[a-fA-F0-9]+$/.exec(name);
  if (digest) name = name.slice(0, digest.index);
  const tag = /:([^/]+)$/.exec(name);
  if (tag) return tag[1];
  return digest ? '' : 'latest';
}

/**
 * The major of a PostgreSQL version tag as machinery's `version.FromTag` reads it (`16.2` and
 * `16.2-bookworm` are 16, `17beta1` is 17), or `undefined` when the tag does not start with a
 * version (`latest`, `''`, `v16`) or its major or minor is no Go integer (`17.`).
 * @internal
 */
export function majorFromTag(tag: string): number | undefined {
  const version = /^(\d\.?)+/.exec(tag)?.[0];
  if (version === undefined) return undefined;
  const [major, minor] = version.split('.');
  const goInt = (text: string) => typeof parseGoInt(text) === 'bigint';
  if (!goInt(major) || (minor !== undefined && !goInt(minor))) return undefined;
  return Number(major);
}

/**
 * The PostgreSQL major version the operator reads for `cluster`, or `undefined` when it cannot
 * read one (the tag is no version: the image checks report that). The catalog's `major` is taken
 * as written when it is an integer (the CRD requires one).
 * @internal
 */
export function clusterPostgresMajor(cluster: Json, context: AdmissionContext): number | undefined {
  const catalog = asObject(dig(cluster, 'spec', 'imageCatalogRef'));
  if (catalog !== undefined) return Number.isInteger(catalog.major) ? (catalog.major as number) : undefined;
  const image = asString(dig(cluster, 'spec', 'imageName')) ?? '';
  return majorFromTag(imageTag(image !== '' ? image : (context.defaultImageName ?? DEFAULT_POSTGRES_IMAGE)));
}
