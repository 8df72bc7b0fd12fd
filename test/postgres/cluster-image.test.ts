import { Size, Testing } from 'cdk8s';
import { ClusterImage, ImageCatalogKind, PostgresCluster } from '../../src/postgres';
import { expectValidationError, only, synth } from '../util';
import { synthErrors } from './synth-errors';

const js = (v: unknown): any => v;

function specWith(image: ClusterImage) {
  const chart = Testing.chart();
  new PostgresCluster(chart, 'pg', { storage: { size: Size.gibibytes(1) }, image });
  return { chart, spec: () => only(synth(chart), 'Cluster').spec };
}

describe('ClusterImage', () => {
  test('by name: spec.imageName only', () => {
    const spec = specWith(ClusterImage.fromName('ghcr.io/cloudnative-pg/postgresql:17.5')).spec();
    expect(spec.imageName).toBe('ghcr.io/cloudnative-pg/postgresql:17.5');
    expect(spec).not.toHaveProperty('imageCatalogRef');
  });

  test('from a catalog: spec.imageCatalogRef with the group the CRD rule requires, ImageCatalog by default', () => {
    const spec = specWith(ClusterImage.fromCatalog({ name: 'postgresql', major: 17 })).spec();
    expect(spec.imageCatalogRef).toEqual({ apiGroup: 'postgresql.cnpg.io', kind: ImageCatalogKind.IMAGE_CATALOG, name: 'postgresql', major: 17 });
    expect(spec).not.toHaveProperty('imageName');
  });

  test('bad input', () => {
    expectValidationError(
      () => ClusterImage.fromName(js(new Date(0))),
      'ClusterImage.fromName: imageName "1970-01-01T00:00:00.000Z" is not plain JSON (Date); write strings, numbers, booleans, arrays and plain objects, as the CRD takes them',
    );
    expect(synthErrors(specWith(ClusterImage.fromName(js(17))).chart)).toEqual([
      "[test/pg] Cluster 'pg' spec.imageName: must be a string; value 17; allowed a string",
    ]);
    expectValidationError(
      () => ClusterImage.fromCatalog(js({ name: 'pg', major: 17, Kind: 'ImageCatalog' })),
      "ClusterImage.fromCatalog: reference.Kind 'ImageCatalog' is not a declared key of reference; did you mean 'kind'?",
    );
    // Values are judged by the CRD schema and its CEL rules at synth.
    expect(synthErrors(specWith(ClusterImage.fromCatalog({ name: 'pg', major: js('17'), kind: js('Catalog') })).chart)).toEqual([
      "[test/pg] Cluster 'pg' spec.imageCatalogRef.major: must be a whole number; value '17'; allowed a whole number",
      "[test/pg] Cluster 'pg' spec.imageCatalogRef: fails the CRD rule `self.kind == 'ImageCatalog' || self.kind == 'ClusterImageCatalog'`, so the API server refuses the object; allowed what the rule allows",
    ]);
  });
});
