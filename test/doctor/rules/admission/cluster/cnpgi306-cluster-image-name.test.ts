/*
 * CNPGI306 cluster-image-name: the Cluster webhook's validateImageName as the doctor reports it: inputs that trip it
 * (what the doctor says, where), and near misses the webhook accepts.
 */
import { cluster, findingsOf } from '../admission-helpers';

const RULE = 'CNPGI306';

describe('CNPGI306 cluster-image-name', () => {
  test('trips: the latest tag', () => {
    expect(findingsOf(RULE, cluster({ imageName: 'ghcr.io/cloudnative-pg/postgresql:latest' }))).toEqual([
      {
        severity: 'error',
        path: 'spec.imageName',
        message:
          "the Cluster webhook refuses imageName 'ghcr.io/cloudnative-pg/postgresql:latest' (\"Can't use 'latest' as image tag as we can't detect upgrades\"): the latest tag names no PostgreSQL version, so the operator cannot tell the major version or a major upgrade",
        fix: "pin a tag that starts with the PostgreSQL version, such as 'ghcr.io/cloudnative-pg/postgresql:18.4-system-trixie' (a digest may follow the tag), or use imageCatalogRef",
      },
    ]);
  });
  test('trips: no tag', () => {
    expect(findingsOf(RULE, cluster({ imageName: 'postgres' }))).toEqual([
      {
        severity: 'error',
        path: 'spec.imageName',
        message:
          "the Cluster webhook refuses imageName 'postgres' (\"Can't use 'latest' as image tag as we can't detect upgrades\"): an image without tag or digest is the latest tag, which names no PostgreSQL version, so the operator cannot tell the major version or a major upgrade",
        fix: "pin a tag that starts with the PostgreSQL version, such as 'ghcr.io/cloudnative-pg/postgresql:18.4-system-trixie' (a digest may follow the tag), or use imageCatalogRef",
      },
    ]);
  });
  test('trips: a registry with a port and no tag', () => {
    expect(findingsOf(RULE, cluster({ imageName: 'localhost:5000/postgres' }))).toEqual([
      {
        severity: 'error',
        path: 'spec.imageName',
        message:
          "the Cluster webhook refuses imageName 'localhost:5000/postgres' (\"Can't use 'latest' as image tag as we can't detect upgrades\"): an image without tag or digest is the latest tag, which names no PostgreSQL version, so the operator cannot tell the major version or a major upgrade",
        fix: "pin a tag that starts with the PostgreSQL version, such as 'ghcr.io/cloudnative-pg/postgresql:18.4-system-trixie' (a digest may follow the tag), or use imageCatalogRef",
      },
    ]);
  });
  test('trips: a bare digest', () => {
    expect(
      findingsOf(RULE, cluster({ imageName: 'ghcr.io/cloudnative-pg/postgresql@sha256:cff94de382ca538861622bbe84cfe03f44f307a9846a5c5eda672cf4dc692866' })),
    ).toEqual([
      {
        severity: 'error',
        path: 'spec.imageName',
        message:
          "the Cluster webhook refuses imageName 'ghcr.io/cloudnative-pg/postgresql@sha256:cff94de382ca538861622bbe84cfe03f44f307a9846a5c5eda672cf4dc692866' (\"Can't use just the image sha as we can't detect upgrades\"): a digest alone names no PostgreSQL version, so the operator cannot tell the major version or a major upgrade",
        fix: "pin a tag that starts with the PostgreSQL version, such as 'ghcr.io/cloudnative-pg/postgresql:18.4-system-trixie' (a digest may follow the tag), or use imageCatalogRef",
      },
    ]);
  });
  test('trips: a tag that is no version', () => {
    expect(findingsOf(RULE, cluster({ imageName: 'postgres:bookworm' }))).toEqual([
      {
        severity: 'error',
        path: 'spec.imageName',
        message:
          "the Cluster webhook refuses imageName 'postgres:bookworm' (\"invalid version tag\"): the tag 'bookworm' does not start with a PostgreSQL version, from which the operator reads the major version",
        fix: "pin a tag that starts with the PostgreSQL version, such as 'ghcr.io/cloudnative-pg/postgresql:18.4-system-trixie' (a digest may follow the tag), or use imageCatalogRef",
      },
    ]);
  });
  test('trips: a version with an empty minor', () => {
    expect(findingsOf(RULE, cluster({ imageName: 'postgres:16.-bookworm' }))).toEqual([
      {
        severity: 'error',
        path: 'spec.imageName',
        message:
          "the Cluster webhook refuses imageName 'postgres:16.-bookworm' (\"invalid version tag\"): the tag '16.-bookworm' does not start with a PostgreSQL version, from which the operator reads the major version",
        fix: "pin a tag that starts with the PostgreSQL version, such as 'ghcr.io/cloudnative-pg/postgresql:18.4-system-trixie' (a digest may follow the tag), or use imageCatalogRef",
      },
    ]);
  });

  test.each<[string, Record<string, unknown>, Record<string, unknown>]>([
    ['the release default image', { imageName: 'ghcr.io/cloudnative-pg/postgresql:18.4-system-trixie' }, {}],
    ['a tag and a digest', { imageName: 'postgres:17.5@sha256:cff94de382ca538861622bbe84cfe03f44f307a9846a5c5eda672cf4dc692866' }, {}],
    ['a registry with a port and a tag', { imageName: 'localhost:5000/postgres:17' }, {}],
    ['a release candidate', { imageName: 'postgres:18rc1' }, {}],
    ['a major alone', { imageName: 'postgres:16' }, {}],
    ['an image catalog instead', { imageCatalogRef: { apiGroup: 'postgresql.cnpg.io', kind: 'ClusterImageCatalog', name: 'postgresql', major: 17 } }, {}],
    ['no imageName (the operator default)', {}, {}],
  ])('passes: %s', (_title, spec, metadata) => {
    expect(findingsOf(RULE, cluster(spec, metadata))).toEqual([]);
  });
});
