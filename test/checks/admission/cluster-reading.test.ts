/*
 * How CloudNativePG v1.30.0 reads a Cluster's image, major version and replica role
 * (cloudnative-pg/machinery v0.5.0 pkg/image/reference and pkg/postgres/version, api/v1
 * cluster_funcs.go), with the examples of their own tests where they have some.
 */
import {
  annotationsOf,
  applicationOwner,
  imageReference,
  isReplicaCluster,
  postgresMajor,
  versionFromTag,
  walArchivingDisabled,
} from '../../../src/checks/admission/cluster-reading';
import { isSet } from '../../../src/checks/admission/go-values';
import type { Json } from '../../../src/manifests/json';

const normalized = (image: string) => {
  const r = imageReference(image);
  return `${r.name}${r.tag ? `:${r.tag}` : ''}${r.digest ? `@sha256:${r.digest}` : ''}`;
};
const cluster = (spec: object, name = 'pg', annotations?: object): Json => ({ metadata: { name, ...(annotations ? { annotations } : {}) }, spec });
const DIGEST = 'cff94de382ca538861622bbe84cfe03f44f307a9846a5c5eda672cf4dc692866';

describe('imageReference (machinery reference.New)', () => {
  test.each([
    ['postgres', 'docker.io/library/postgres:latest'],
    ['myimage/postgres', 'docker.io/myimage/postgres:latest'],
    ['localhost:5000/postgres', 'localhost:5000/postgres:latest'],
    ['registry.localhost:5000/postgres:14.4', 'registry.localhost:5000/postgres:14.4'],
    ['ghcr.io/cloudnative-pg/postgresql:34', 'ghcr.io/cloudnative-pg/postgresql:34'],
    [`postgres:13@sha256:${DIGEST}`, `docker.io/library/postgres:13@sha256:${DIGEST}`],
  ])('%s is %s', (image, expected) => {
    expect(normalized(image)).toBe(expected);
  });

  test.each<[string, string, string, string]>([
    ['postgres:16', 'docker.io/library/postgres', '16', ''],
    ['bitnami/postgresql:16.2.0', 'docker.io/bitnami/postgresql', '16.2.0', ''],
    ['ghcr.io/cloudnative-pg/postgresql:18.4-system-trixie', 'ghcr.io/cloudnative-pg/postgresql', '18.4-system-trixie', ''],
    ['localhost:5000/postgres:17', 'localhost:5000/postgres', '17', ''],
    ['registry:5000/pg', 'registry:5000/pg', 'latest', ''],
    [`postgres@sha256:${DIGEST}`, 'docker.io/library/postgres', '', DIGEST],
    [`postgres:17.5@sha256:${DIGEST}`, 'docker.io/library/postgres', '17.5', DIGEST],
    ['ghcr.io/x/pg:17.2@sha256:ABCDEF', 'ghcr.io/x/pg', '17.2', 'ABCDEF'],
    ['postgres:a:b', 'docker.io/library/postgres', 'a:b', ''],
    // Not a sha256 digest: the part after ':' is read as the tag.
    ['postgres@sha512:abc', 'docker.io/library/postgres@sha512', 'abc', ''],
  ])('%s', (image, name, tag, digest) => {
    expect(imageReference(image)).toEqual({ name, tag, digest });
  });
});

describe('versionFromTag (machinery version.FromTag)', () => {
  test.each([
    ['9.6', 9, 6],
    ['11.2', 11, 2],
    ['13.3.2.1-1', 13, 3],
    ['14', 14, 0],
    ['14.4-1', 14, 4],
    ['15.5-10', 15, 5],
    ['17beta1', 17, 0],
    ['18rc1', 18, 0],
    ['18.4-system-trixie', 18, 4],
  ])('%s is %i.%i', (tag, major, minor) => {
    expect(versionFromTag(tag)).toEqual({ major, minor });
  });

  test.each(['latest', 'bookworm', 'bookworm-17', 'test_12', 'v17', '', '18.', '17.-1', '16.-bookworm', '99999999999999999999'])('%j has no version', (tag) => {
    expect(versionFromTag(tag)).toBeUndefined();
  });
});

describe('postgresMajor (GetPostgresqlMajorVersion)', () => {
  test('the catalog, else the image tag, else the operator default image', () => {
    expect(postgresMajor(cluster({ imageCatalogRef: { name: 'c', kind: 'ImageCatalog', major: 16 }, imageName: 'postgres:17' }), {})).toBe(16);
    expect(postgresMajor(cluster({ imageName: 'ghcr.io/cloudnative-pg/postgresql:15.8' }), {})).toBe(15);
    expect(postgresMajor(cluster({}), {})).toBe(18);
    expect(postgresMajor({ kind: 'Cluster' }, {})).toBe(18);
    expect(postgresMajor(cluster({}), { defaultImageName: 'registry.example.com/pg:17.6' })).toBe(17);
    expect(postgresMajor(cluster({ imageName: '' }), { defaultImageName: 'ghcr.io/cloudnative-pg/postgresql:16.9' })).toBe(16);
  });

  test('an image whose tag has no version has none', () => {
    expect(postgresMajor(cluster({ imageName: 'postgres:latest' }), {})).toBeUndefined();
    expect(postgresMajor(cluster({ imageName: 'postgres' }), {})).toBeUndefined();
    expect(postgresMajor(cluster({ imageName: `postgres@sha256:${DIGEST}` }), {})).toBeUndefined();
  });

  test("a catalog reference's major as Go decodes it: absent is the int zero value, a string none", () => {
    // The CRD requires an integer major, so only a schema-less reading meets these.
    expect(postgresMajor(cluster({ imageCatalogRef: { name: 'c', kind: 'ImageCatalog' } }), {})).toBe(0);
    expect(postgresMajor(cluster({ imageCatalogRef: { name: 'c', major: 'sixteen' } }), {})).toBeUndefined();
  });
});

describe('isReplicaCluster', () => {
  test.each([
    [{}, false],
    [{ replica: { enabled: true, source: 'o' } }, true],
    [{ replica: { enabled: false, source: 'o' } }, false],
    [{ replica: { enabled: false, primary: 'other' } }, false],
    [{ replica: { enabled: null, primary: 'pg' } }, false],
    [{ replica: { source: 'o' } }, true],
    [{ replica: { source: 'o', primary: 'pg' } }, false],
    [{ replica: { source: 'o', primary: 'other' } }, true],
    [{ replica: { source: 'o', self: 'a', primary: 'a' } }, false],
    [{ replica: { source: 'o', self: 'west', primary: 'east' } }, true],
    [{ replica: 'yes' }, false],
  ])('%j: %s', (spec, replica) => {
    expect(isReplicaCluster(cluster(spec))).toBe(replica);
  });
});

describe('the other readings', () => {
  test('applicationOwner: recovery, then pg_basebackup, then initdb', () => {
    expect(applicationOwner(cluster({ bootstrap: { initdb: { owner: 'i' }, recovery: { owner: 'r' } } }))).toBe('r');
    expect(applicationOwner(cluster({ bootstrap: { initdb: { owner: 'i' }, pg_basebackup: { owner: '' } } }))).toBe('i');
    expect(applicationOwner(cluster({}))).toBe('');
  });

  test('annotations and the WAL archiving switch', () => {
    expect(annotationsOf(cluster({}, 'pg', { a: 'b', n: 1 }))).toEqual({ a: 'b' });
    expect(walArchivingDisabled(cluster({}, 'pg', { 'cnpg.io/skipWalArchiving': 'enabled' }))).toBe(true);
    expect(walArchivingDisabled(cluster({}, 'pg', { 'cnpg.io/skipWalArchiving': 'true' }))).toBe(false);
  });

  test('isSet: set and not null, an empty object or list included', () => {
    expect([undefined, null, {}, [], '', 0, false].map(isSet)).toEqual([false, false, true, true, true, true, true]);
  });
});
