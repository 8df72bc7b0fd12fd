import { RELEASE_DEFAULT_IMAGE, clusterMajor, imageReference, isReplicaCluster, majorOfTag, present } from '../../../src/checks/admission/cluster-funcs';

const cluster = (spec: Record<string, unknown>, name = 'pg') => ({ apiVersion: 'postgresql.cnpg.io/v1', kind: 'Cluster', metadata: { name }, spec });

describe('imageReference, as the operator splits an image', () => {
  test.each([
    ['postgres:16', 'docker.io/library/postgres', '16', ''],
    ['example/postgres:16.2', 'docker.io/example/postgres', '16.2', ''],
    ['ghcr.io/cloudnative-pg/postgresql:17.5-bookworm', 'ghcr.io/cloudnative-pg/postgresql', '17.5-bookworm', ''],
    ['localhost:5000/pg:16', 'localhost:5000/pg', '16', ''],
    ['registry:5000/pg', 'registry:5000/pg', 'latest', ''],
    ['ghcr.io/x/pg', 'ghcr.io/x/pg', 'latest', ''],
    ['ghcr.io/x/pg@sha256:0123abcdef', 'ghcr.io/x/pg', '', '0123abcdef'],
    ['ghcr.io/x/pg:17.2@sha256:ABCDEF', 'ghcr.io/x/pg', '17.2', 'ABCDEF'],
  ])('%s', (image, name, tag, digest) => {
    expect(imageReference(image)).toEqual({ name, tag, digest });
  });
});

describe('majorOfTag, as the operator reads a version tag', () => {
  test.each([
    ['17.5-bookworm', 17],
    ['17beta1', 17],
    ['14', 14],
    ['13.3.2.1-1', 13],
    ['18.4-system-trixie', 18],
  ])('%s is %d', (tag, major) => {
    expect(majorOfTag(tag)).toBe(major);
  });

  test.each(['latest', 'bookworm-17', '', '17.-1', '99999999999999999999'])('%s has none', (tag) => {
    expect(majorOfTag(tag)).toBeUndefined();
  });
});

describe('clusterMajor', () => {
  test('the image catalog major wins over the image name', () => {
    expect(clusterMajor(cluster({ imageName: 'postgres:17', imageCatalogRef: { kind: 'ImageCatalog', name: 'pg', major: 16 } }), {})).toBe(16);
  });
  test('a catalog reference without an integer major has none', () => {
    expect(clusterMajor(cluster({ imageCatalogRef: { kind: 'ImageCatalog', name: 'pg' } }), {})).toBeUndefined();
    expect(clusterMajor(cluster({ imageCatalogRef: { kind: 'ImageCatalog', name: 'pg', major: '16' } }), {})).toBeUndefined();
  });
  test("no image is the operator's default image: the release's, or the one the context names", () => {
    expect(RELEASE_DEFAULT_IMAGE).toBe('ghcr.io/cloudnative-pg/postgresql:18.4-system-trixie');
    expect(clusterMajor(cluster({}), {})).toBe(18);
    expect(clusterMajor(cluster({ imageName: '' }), { defaultImageName: 'ghcr.io/cloudnative-pg/postgresql:16.9' })).toBe(16);
    expect(clusterMajor({ kind: 'Cluster' }, {})).toBe(18);
  });
  test('an image whose tag has no version has none', () => {
    expect(clusterMajor(cluster({ imageName: 'postgres' }), {})).toBeUndefined();
    expect(clusterMajor(cluster({ imageName: 'postgres@sha256:0123' }), {})).toBeUndefined();
    expect(clusterMajor(cluster({ imageName: 'postgres:17.2' }), {})).toBe(17);
  });
});

describe('isReplicaCluster', () => {
  test.each([
    ['no replica stanza', {}, false],
    ['enabled', { replica: { enabled: true, source: 'a' } }, true],
    ['disabled, whatever primary says', { replica: { enabled: false, primary: 'other', source: 'a' } }, false],
    ['primary names another cluster', { replica: { primary: 'other', source: 'a' } }, true],
    ['primary names this one', { replica: { primary: 'pg', source: 'a' } }, false],
    ['self and primary agree', { replica: { self: 'east', primary: 'east', source: 'a' } }, false],
    ['self differs from primary', { replica: { self: 'west', primary: 'east', source: 'a' } }, true],
    ['enabled null is unset', { replica: { enabled: null, primary: 'pg' } }, false],
  ])('%s', (_what, spec, replica) => {
    expect(isReplicaCluster(cluster(spec))).toBe(replica);
  });
});

test('present: set and not null, an empty object or list included', () => {
  expect([undefined, null, {}, [], '', 0, false].map(present)).toEqual([false, false, true, true, true, true, true]);
});
