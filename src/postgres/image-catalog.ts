import { ApiObject, ApiObjectMetadata } from 'cdk8s';
import { Construct } from 'constructs';
import { clusterScoped, writtenMetadata } from '../common/metadata';
import { Kind } from '../common/prop-kinds';
import { PropSpec, checkProps, refuseFirst } from '../common/props';
import { SUBDOMAIN_NAME_RULE, nameFromId } from '../common/stable-names';
import { invalid } from '../manifests/errors';
import { ClusterImage, ImageCatalogKind } from './cluster-image';
import { guardAndCheck } from './internal';

/** A PostgreSQL image of an image catalog, for one major version (`spec.images[]`). */
export interface CatalogImage {
  /** The PostgreSQL major version of the image, 10 or later; one image per major in a catalog. */
  readonly major: number;
  /** The image reference, pinned to a tag or a digest, e.g. `ghcr.io/cloudnative-pg/postgresql:17.5`. */
  readonly image: string;
}

/** Props of `ImageCatalog` and `ClusterImageCatalog`. */
export interface ImageCatalogProps {
  /** The images of the catalog, one per PostgreSQL major version (1 to 8 of them). */
  readonly images: CatalogImage[];
  /**
   * Metadata of the catalog object (name, labels, annotations).
   * @default - the construct id; an `ImageCatalog` in the chart's namespace
   */
  readonly metadata?: ApiObjectMetadata;
}

const IMAGE_SPEC: PropSpec<CatalogImage> = {
  major: Kind.evenMissing(Kind.integer(10)),
  image: Kind.evenMissing(Kind.image('ghcr.io/cloudnative-pg/postgresql:17.5')),
};

const PROPS_SPEC: PropSpec<ImageCatalogProps> = {
  images: Kind.evenMissing((scope, prop, value) => {
    if (!Array.isArray(value)) return { prop, value, problem: 'is not a list', fix: "pass [{ major: 17, image: 'ghcr.io/cloudnative-pg/postgresql:17.5' }]" };
    value.forEach((image, i) => checkProps(scope, `${prop}[${i}]`, image, IMAGE_SPEC, { required: ['major', 'image'] }));
    return undefined;
  }),
  metadata: Kind.metadata,
};

/**
 * What `ImageCatalog` and `ClusterImageCatalog` share: the checked images and the catalog object.
 * The CRD's rules (cloudnative-pg v1.30.0 api/v1/imagecatalog_types.go ImageCatalogSpec and
 * CatalogImage: 1 to 8 images, majors of 10 or more, unique majors) are refused at construction.
 */
export abstract class ImageCatalogBase extends Construct {
  /** The catalog's `metadata.name`. */
  public readonly name: string;
  /** The catalog object. */
  public readonly apiObject: ApiObject;
  private readonly images: ReadonlyArray<CatalogImage>;
  private readonly kind: ImageCatalogKind;

  protected constructor(scope: Construct, id: string, props: ImageCatalogProps, kind: ImageCatalogKind) {
    super(scope, id);
    const p = checkProps(this, 'props', props, PROPS_SPEC, { required: ['images'] });
    const majors = p.images.map((i) => i.major);
    const repeated = majors.find((m, i) => majors.indexOf(m) !== i);
    refuseFirst(this, [
      [
        p.images.length === 0,
        'images',
        p.images,
        `is empty: the ${kind} CRD needs at least one image`,
        "add one, e.g. { major: 17, image: 'ghcr.io/cloudnative-pg/postgresql:17.5' }",
      ],
      [
        p.images.length > 8,
        'images',
        `${p.images.length} images`,
        `are more than the ${kind} CRD takes (8)`,
        'keep at most 8 major versions, or split them into two catalogs',
      ],
      [
        repeated !== undefined,
        `images[major ${repeated}]`,
        repeated,
        `is given twice: the ${kind} CRD refuses it ("Images must have unique major versions")`,
        'give one image per major version',
      ],
    ]);
    this.kind = kind;
    this.images = p.images.map((i) => ({ major: i.major, image: i.image }));
    const metadata = writtenMetadata(p.metadata);
    this.apiObject = new ApiObject(this, 'Resource', {
      apiVersion: 'postgresql.cnpg.io/v1',
      kind,
      metadata: { ...metadata, name: metadata.name ?? nameFromId(this, SUBDOMAIN_NAME_RULE(kind)) },
      spec: { images: this.images.map((i) => ({ major: i.major, image: i.image })) },
    });
    if (kind === ImageCatalogKind.CLUSTER_IMAGE_CATALOG) clusterScoped(this.apiObject);
    this.name = this.apiObject.name;
    guardAndCheck(this, kind, this.apiObject);
  }

  /** The major versions of the catalog, in the order given. */
  public get majors(): number[] {
    return this.images.map((i) => i.major);
  }

  /**
   * The Cluster image of one major version of this catalog (`spec.imageCatalogRef`), for the
   * `image` prop of a `PostgresCluster`. A major the catalog lacks is refused: the operator
   * could not find the image, and the Cluster would not start.
   */
  public imageFor(major: number): ClusterImage {
    if (!this.majors.includes(major)) {
      invalid(
        this,
        'major',
        major,
        `is not in the ${this.kind} '${this.name}' (majors ${this.majors.join(', ')})`,
        `pick one of its majors, or add { major: ${typeof major === 'number' ? major : 17}, image } to its images`,
      );
    }
    return ClusterImage.fromCatalog({ name: this.name, major, kind: this.kind });
  }
}

/**
 * A CloudNativePG `ImageCatalog` (`postgresql.cnpg.io/v1`): the PostgreSQL images of a namespace,
 * one per major version, that its Clusters name with `spec.imageCatalogRef` (`catalog.imageFor(17)`).
 * Updating an image there rolls out every Cluster of that major.
 */
export class ImageCatalog extends ImageCatalogBase {
  public constructor(scope: Construct, id: string, props: ImageCatalogProps) {
    super(scope, id, props, ImageCatalogKind.IMAGE_CATALOG);
  }
}

/**
 * A CloudNativePG `ClusterImageCatalog` (`postgresql.cnpg.io/v1`, cluster-scoped, written
 * without a namespace): the PostgreSQL images, one per major version, that Clusters of every
 * namespace can name (`catalog.imageFor(17)`).
 */
export class ClusterImageCatalog extends ImageCatalogBase {
  public constructor(scope: Construct, id: string, props: ImageCatalogProps) {
    super(scope, id, props, ImageCatalogKind.CLUSTER_IMAGE_CATALOG);
  }
}
