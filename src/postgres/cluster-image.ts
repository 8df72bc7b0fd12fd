import { ClusterSpecImageCatalogRef as CnpgImageCatalogRef } from '../../imports/postgresql.cnpg.io';
import { declaredKeys } from '../common/keys';
import { plainJson, propsOf } from './internal';

/** Which kind of image catalog `ClusterImage.fromCatalog()` names. */
export enum ImageCatalogKind {
  /** A namespaced `ImageCatalog` in the Cluster's namespace. */
  IMAGE_CATALOG = 'ImageCatalog',
  /** A cluster-wide `ClusterImageCatalog`. */
  CLUSTER_IMAGE_CATALOG = 'ClusterImageCatalog',
}

/**
 * The PostgreSQL image taken from an image catalog (`spec.imageCatalogRef`) for one major version.
 */
export interface ImageCatalogReference {
  /** The name of the `ImageCatalog` or `ClusterImageCatalog`. */
  readonly name: string;
  /** The PostgreSQL major version to pick from the catalog, e.g. 17. */
  readonly major: number;
  /**
   * Whether `name` is a namespaced or a cluster-wide catalog.
   * @default ImageCatalogKind.IMAGE_CATALOG
   */
  readonly kind?: ImageCatalogKind;
}

const CATALOG_KEYS = declaredKeys<ImageCatalogReference>({ name: true, major: true, kind: true });

/**
 * The PostgreSQL image of a Cluster: an image reference (`spec.imageName`) or an entry of an
 * image catalog (`spec.imageCatalogRef`). CloudNativePG takes one of the two; this class makes
 * the other impossible to write.
 */
export class ClusterImage {
  /** An image reference, e.g. `ghcr.io/cloudnative-pg/postgresql:17.5`. */
  public static fromName(imageName: string): ClusterImage {
    return new ClusterImage(plainJson('ClusterImage.fromName', { imageName }));
  }

  /** The image of one PostgreSQL major version in an `ImageCatalog` or `ClusterImageCatalog`. */
  public static fromCatalog(reference: ImageCatalogReference): ClusterImage {
    const r = plainJson('ClusterImage.fromCatalog', { ...propsOf('ClusterImage.fromCatalog', 'reference', reference, CATALOG_KEYS) });
    return new ClusterImage({
      imageCatalogRef: {
        // The CRD's CEL rule requires the group, although Kubernetes references usually omit it.
        apiGroup: 'postgresql.cnpg.io',
        kind: r.kind ?? ImageCatalogKind.IMAGE_CATALOG,
        name: r.name,
        major: r.major,
      },
    });
  }

  /** @internal */
  public readonly _spec: { readonly imageName?: string; readonly imageCatalogRef?: CnpgImageCatalogRef };

  private constructor(spec: { imageName?: string; imageCatalogRef?: CnpgImageCatalogRef }) {
    this._spec = spec;
  }
}
