import { clusterPostgresMajor, imageTag, majorFromTag } from '../../../src/checks/admission/postgres-major';

describe('the PostgreSQL major of a Cluster', () => {
  test.each([
    ['postgres', 'latest'],
    ['postgres:16', '16'],
    ['ghcr.io/cloudnative-pg/postgresql:17.5-standard-bookworm', '17.5-standard-bookworm'],
    ['registry.example.com:5000/postgresql', 'latest'],
    ['registry.example.com:5000/postgresql:16.2', '16.2'],
    ['postgres@sha256:0123abcdef', ''],
    ['postgres:16@sha256:0123abcdef', '16'],
    ['postgres:a:b', 'a:b'],
  ])('the tag of %s is %p', (image, tag) => {
    expect(imageTag(image)).toBe(tag);
  });

  test.each([
    ['16', 16],
    ['9.6', 9],
    ['13.3.2.1-1', 13],
    ['17beta1', 17],
    ['18.4-system-trixie', 18],
    ['latest', undefined],
    ['', undefined],
    ['v16', undefined],
    ['17.', undefined],
  ])('the major of tag %p is %p', (tag, major) => {
    expect(majorFromTag(tag)).toBe(major);
  });

  test("the catalog's major, else the image's, else the operator's default image", () => {
    const cluster = (spec: object) => ({ spec });
    expect(clusterPostgresMajor(cluster({ imageCatalogRef: { major: 15 }, imageName: 'postgres:17' }), {})).toBe(15);
    expect(clusterPostgresMajor(cluster({ imageName: 'postgres:17' }), {})).toBe(17);
    expect(clusterPostgresMajor(cluster({}), {})).toBe(18);
    expect(clusterPostgresMajor(cluster({}), { defaultImageName: 'example.com/pg:14.1' })).toBe(14);
    expect(clusterPostgresMajor(cluster({ imageName: 'postgres:latest' }), {})).toBeUndefined();
    expect(clusterPostgresMajor(cluster({ imageCatalogRef: { major: '15' } }), {})).toBeUndefined();
  });
});
