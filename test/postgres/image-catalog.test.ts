import { Chart, Size, Testing } from 'cdk8s';
import { ClusterImageCatalog, ImageCatalog, PostgresCluster } from '../../src/postgres';
import { chartIn, expectValidationError, only, synth } from '../util';
import { synthErrors } from './synth-errors';

const storage = { size: Size.gibibytes(10) };
const images = [
  { major: 16, image: 'ghcr.io/cloudnative-pg/postgresql:16.9' },
  { major: 17, image: 'ghcr.io/cloudnative-pg/postgresql:17.5' },
];

describe('ImageCatalog and ClusterImageCatalog', () => {
  test('an ImageCatalog in the chart namespace, named after the id; imageFor writes the Cluster reference', () => {
    const chart = chartIn('apps', 'catalogs');
    const catalog = new ImageCatalog(chart, 'postgresql', { images });
    new PostgresCluster(chart, 'pg', { storage, image: catalog.imageFor(17) });
    const out = synth(chart);
    expect(only(out, 'ImageCatalog')).toEqual({
      apiVersion: 'postgresql.cnpg.io/v1',
      kind: 'ImageCatalog',
      metadata: { name: 'postgresql', namespace: 'apps' },
      spec: { images },
    });
    expect(only(out, 'Cluster').spec.imageCatalogRef).toEqual({ apiGroup: 'postgresql.cnpg.io', kind: 'ImageCatalog', name: 'postgresql', major: 17 });
    expect(catalog.majors).toEqual([16, 17]);
    expect(synthErrors(chart)).toEqual([]);
  });

  test('a ClusterImageCatalog carries no namespace, and the reference names its kind', () => {
    const chart = chartIn('apps', 'catalogs');
    const catalog = new ClusterImageCatalog(chart, 'catalog', { images, metadata: { name: 'postgresql-global', labels: { team: 'db' } } });
    new PostgresCluster(chart, 'pg', { storage, image: catalog.imageFor(16) });
    const out = synth(chart);
    expect(only(out, 'ClusterImageCatalog')).toEqual({
      apiVersion: 'postgresql.cnpg.io/v1',
      kind: 'ClusterImageCatalog',
      metadata: { name: 'postgresql-global', labels: { team: 'db' } },
      spec: { images },
    });
    expect(only(out, 'Cluster').spec.imageCatalogRef).toEqual({
      apiGroup: 'postgresql.cnpg.io',
      kind: 'ClusterImageCatalog',
      name: 'postgresql-global',
      major: 16,
    });
    expect(synthErrors(chart)).toEqual([]);
  });

  test("the CRD's rules are refused at construction, with the fix; pass: eight majors, and 10", () => {
    const chart = () => Testing.chart();
    expectValidationError(
      () => new ImageCatalog(chart(), 'c', { images: [] }),
      "test/c: images [] is empty: the ImageCatalog CRD needs at least one image; add one, e.g. { major: 17, image: 'ghcr.io/cloudnative-pg/postgresql:17.5' }",
    );
    expectValidationError(
      () => new ClusterImageCatalog(chart(), 'c', { images: [...images, { major: 16, image: 'ghcr.io/cloudnative-pg/postgresql:16.8' }] }),
      'test/c: images[major 16] 16 is given twice: the ClusterImageCatalog CRD refuses it ("Images must have unique major versions"); give one image per major version',
    );
    const nine = Array.from({ length: 9 }, (_, i) => ({ major: 10 + i, image: `ghcr.io/cloudnative-pg/postgresql:${10 + i}.1` }));
    expectValidationError(
      () => new ImageCatalog(chart(), 'c', { images: nine }),
      "test/c: images '9 images' are more than the ImageCatalog CRD takes (8); keep at most 8 major versions, or split them into two catalogs",
    );
    expect(() => new ImageCatalog(chart(), 'c', { images: [{ major: 9, image: 'ghcr.io/cloudnative-pg/postgresql:9.6' }] })).toThrow(
      /^test\/c: images\[0\]\.major 9 /,
    );
    expect(() => new ImageCatalog(chart(), 'c', { images: [{ major: 17 } as never] })).toThrow(/^test\/c: images\[0\]\.image /);
    const ok = new ImageCatalog(chart(), 'c', { images: nine.slice(0, 8) });
    expect(ok.majors).toEqual([10, 11, 12, 13, 14, 15, 16, 17]);
  });

  test('a major the catalog lacks is refused by imageFor', () => {
    const catalog = new ImageCatalog(Testing.chart(), 'postgresql', { images });
    expectValidationError(
      () => catalog.imageFor(18),
      "test/postgresql: major 18 is not in the ImageCatalog 'postgresql' (majors 16, 17); pick one of its majors, or add { major: 18, image } to its images",
    );
  });

  test("an ImageCatalog of another namespace is refused: the operator reads it from the Cluster's namespace", () => {
    const app = Testing.app();
    const catalogs = new Chart(app, 'catalogs', { namespace: 'images' });
    const catalog = new ImageCatalog(catalogs, 'postgresql', { images });
    const apps = new Chart(app, 'apps', { namespace: 'apps' });
    expectValidationError(
      () => new PostgresCluster(apps, 'pg', { storage, image: catalog.imageFor(17) }),
      `apps/pg: image 'postgresql' names an ImageCatalog of namespace 'images' (catalogs/postgresql); the operator reads an ImageCatalog from the Cluster's namespace, 'apps', and stops the Cluster with "catalog not found"; add an ImageCatalog in the Cluster's namespace, or use a ClusterImageCatalog, which every namespace can name`,
    );
    // also when the Cluster sets its own namespace
    expectValidationError(
      () => new PostgresCluster(catalogs, 'pg', { storage, image: catalog.imageFor(17), metadata: { namespace: 'apps' } }),
      `catalogs/pg: image 'postgresql' names an ImageCatalog of namespace 'images' (catalogs/postgresql); the operator reads an ImageCatalog from the Cluster's namespace, 'apps', and stops the Cluster with "catalog not found"; add an ImageCatalog in the Cluster's namespace, or use a ClusterImageCatalog, which every namespace can name`,
    );
  });

  test('near misses: the same namespace written two ways, and a ClusterImageCatalog from any namespace, pass', () => {
    const app = Testing.app();
    const catalogs = new Chart(app, 'catalogs', { namespace: 'apps' });
    const catalog = new ImageCatalog(catalogs, 'postgresql', { images });
    const other = new Chart(app, 'other');
    new PostgresCluster(other, 'pg', { storage, image: catalog.imageFor(17), metadata: { namespace: 'apps' } });
    const global = new ClusterImageCatalog(catalogs, 'global', { images });
    new PostgresCluster(new Chart(app, 'elsewhere', { namespace: 'elsewhere' }), 'pg', { storage, image: global.imageFor(16) });
    expect(() => app.synth()).not.toThrow();
  });
});
