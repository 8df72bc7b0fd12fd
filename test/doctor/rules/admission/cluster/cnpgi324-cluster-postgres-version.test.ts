import { clusterDoc, findingsOf } from './webhook-findings';

const of = (spec: object) => findingsOf('CNPGI324', clusterDoc(spec));
const catalog = (major: number) => ({ imageCatalogRef: { apiGroup: 'postgresql.cnpg.io', kind: 'ImageCatalog', name: 'postgresql', major } });

describe('CNPGI324 cluster-postgres-version', () => {
  test('an image of PostgreSQL 12 (the upstream test)', () => {
    expect(of({ imageName: 'postgres:12' })).toEqual([
      {
        path: 'spec.imageName',
        message: 'the Cluster webhook refuses the image \'postgres:12\', PostgreSQL 12 ("Unsupported PostgreSQL version. Versions 13 or newer are supported")',
        fix: 'use an image of PostgreSQL 13 or later, e.g. ghcr.io/cloudnative-pg/postgresql:18.4-system-trixie',
      },
    ]);
  });

  test('PostgreSQL 12 from an image catalog', () => {
    expect(of(catalog(12))).toEqual([
      {
        path: 'spec.imageCatalogRef.major',
        message: 'the Cluster webhook refuses PostgreSQL 12 from the image catalog ("Unsupported PostgreSQL version. Versions 13 or newer are supported")',
        fix: 'pick a major of 13 or later from the catalog',
      },
    ]);
  });

  test('the tag is read as machinery reads it: a registry port is no tag, the digest is set aside', () => {
    expect(of({ imageName: 'registry.example.com:5000/postgresql:9.6-alpine@sha256:0123abcd' }).map((f) => f.message)).toEqual([
      'the Cluster webhook refuses the image \'registry.example.com:5000/postgresql:9.6-alpine@sha256:0123abcd\', PostgreSQL 9 ("Unsupported PostgreSQL version. Versions 13 or newer are supported")',
    ]);
  });

  test.each([
    ['PostgreSQL 13', { imageName: 'ghcr.io/cloudnative-pg/postgresql:13.18' }],
    ['a tag with a suffix', { imageName: 'ghcr.io/cloudnative-pg/postgresql:17.5-standard-bookworm' }],
    ["no image: the operator's default, PostgreSQL 18", {}],
    ['a catalog major of 16', catalog(16)],
    ['a tag that is no version (validateImageName reports it)', { imageName: 'postgres:latest' }],
    ['a digest without a tag (validateImageName reports it)', { imageName: 'postgres@sha256:0123abcd' }],
  ])('accepted: %s', (_what, spec) => {
    expect(of(spec)).toEqual([]);
  });
});
