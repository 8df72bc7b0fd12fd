import { ClusterSpecImageCatalogRef as CnpgImageCatalogRef } from '../../imports/postgresql.cnpg.io';
import { Kind } from '../common/prop-kinds';
import { PropSpec, checkProps, checkValue } from '../common/props';

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

/** The reference is written as given; the schema guard judges its fields at synth. */
const CATALOG_SPEC: PropSpec<ImageCatalogReference> = { name: Kind.json, major: Kind.json, kind: Kind.json };

/**
 * The PostgreSQL image of a Cluster: an image reference (`spec.imageName`) or an entry of an
 * image catalog (`spec.imageCatalogRef`). CloudNativePG takes one of the two; this class makes
 * the other impossible to write.
 */
export class ClusterImage {
  /** How a value of this class is made, for the message that refuses another value. @internal */
  public static readonly _factories = "ClusterImage.fromName('ghcr.io/cloudnative-pg/postgresql:17.5') or ClusterImage.fromCatalog({ name, major })";

  /** An image reference, e.g. `ghcr.io/cloudnative-pg/postgresql:17.5`. */
  public static fromName(imageName: string): ClusterImage {
    checkValue('ClusterImage.fromName', 'imageName', imageName, Kind.json);
    return new ClusterImage({ imageName });
  }

  /** The image of one PostgreSQL major version in an `ImageCatalog` or `ClusterImageCatalog`. */
  public static fromCatalog(reference: ImageCatalogReference): ClusterImage {
    const r = checkProps('ClusterImage.fromCatalog', 'reference', reference, CATALOG_SPEC, { keysAlone: true });
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

  /**
   * The image of one major of an `ImageCatalog` construct of the app, which remembers the
   * catalog's construct path and namespace, for the Cluster to refuse a catalog of another
   * namespace.
   * @internal
   */
  public static _ofCatalogConstruct(
    reference: ImageCatalogReference,
    catalog: { readonly path: string; readonly namespace: string | undefined },
  ): ClusterImage {
    return new ClusterImage(ClusterImage.fromCatalog(reference)._spec, catalog);
  }

  /** @internal */
  public readonly _spec: { readonly imageName?: string; readonly imageCatalogRef?: CnpgImageCatalogRef };

  /** The `ImageCatalog` construct the image came from (see `_ofCatalogConstruct`). @internal */
  public readonly _catalog?: { readonly path: string; readonly namespace: string | undefined };

  private constructor(
    spec: { imageName?: string; imageCatalogRef?: CnpgImageCatalogRef },
    catalog?: { readonly path: string; readonly namespace: string | undefined },
  ) {
    this._spec = spec;
    if (catalog) this._catalog = catalog;
  }
}
