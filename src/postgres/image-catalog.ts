import { ApiObject, ApiObjectMetadata, Chart } from 'cdk8s';
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

/** A catalog's checked images and its object. */
interface CatalogParts {
  readonly name: string;
  readonly apiObject: ApiObject;
  readonly images: ReadonlyArray<CatalogImage>;
}

/**
 * What `ImageCatalog` and `ClusterImageCatalog` share: the checked images and the catalog object.
 * The CRD's rules (cloudnative-pg v1.30.0 api/v1/imagecatalog_types.go ImageCatalogSpec and
 * CatalogImage: 1 to 8 images, majors of 10 or more, unique majors) are refused at construction.
 */
function buildCatalog(scope: Construct, props: ImageCatalogProps, kind: ImageCatalogKind): CatalogParts {
  const p = checkProps(scope, 'props', props, PROPS_SPEC, { required: ['images'] });
  const majors = p.images.map((i) => i.major);
  const repeated = majors.find((m, i) => majors.indexOf(m) !== i);
  refuseFirst(scope, [
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
  const images = p.images.map((i) => ({ major: i.major, image: i.image }));
  const metadata = writtenMetadata(p.metadata);
  const apiObject = new ApiObject(scope, 'Resource', {
    apiVersion: 'postgresql.cnpg.io/v1',
    kind,
    metadata: { ...metadata, name: metadata.name ?? nameFromId(scope, SUBDOMAIN_NAME_RULE(kind)) },
    spec: { images: images.map((i) => ({ ...i })) },
  });
  if (kind === ImageCatalogKind.CLUSTER_IMAGE_CATALOG) clusterScoped(apiObject);
  guardAndCheck(scope, kind, apiObject);
  return { name: apiObject.name, apiObject, images };
}

/**
 * The Cluster image of one major of a catalog, refusing a major the catalog lacks: the operator
 * could not find the image, and the Cluster would not start.
 */
function imageOf(scope: Construct, parts: CatalogParts, kind: ImageCatalogKind, major: number): ClusterImage {
  const majors = parts.images.map((i) => i.major);
  if (!majors.includes(major)) {
    invalid(
      scope,
      'major',
      major,
      `is not in the ${kind} '${parts.name}' (majors ${majors.join(', ')})`,
      `pick one of its majors, or add { major: ${typeof major === 'number' ? major : 17}, image } to its images`,
    );
  }
  const reference = { name: parts.name, major, kind };
  if (kind === ImageCatalogKind.CLUSTER_IMAGE_CATALOG) return ClusterImage.fromCatalog(reference);
  return ClusterImage._ofCatalogConstruct(reference, { path: scope.node.path, namespace: parts.apiObject.metadata.namespace ?? Chart.of(scope).namespace });
}

/**
 * A CloudNativePG `ImageCatalog` (`postgresql.cnpg.io/v1`): the PostgreSQL images of a namespace,
 * one per major version, that its Clusters name with `spec.imageCatalogRef` (`catalog.imageFor(17)`).
 * Updating an image there rolls out every Cluster of that major. The CRD's rules (1 to 8 images,
 * majors of 10 or more, unique majors) are refused at construction.
 */
export class ImageCatalog extends Construct {
  /** The catalog's `metadata.name`. */
  public readonly name: string;
  /** The catalog object. */
  public readonly apiObject: ApiObject;
  private readonly parts: CatalogParts;

  public constructor(scope: Construct, id: string, props: ImageCatalogProps) {
    super(scope, id);
    this.parts = buildCatalog(this, props, ImageCatalogKind.IMAGE_CATALOG);
    this.name = this.parts.name;
    this.apiObject = this.parts.apiObject;
  }

  /** The major versions of the catalog, in the order given. */
  public get majors(): number[] {
    return this.parts.images.map((i) => i.major);
  }

  /** The Cluster image of one major version of this catalog, for a `PostgresCluster`'s `image`; a major the catalog lacks is refused. */
  public imageFor(major: number): ClusterImage {
    return imageOf(this, this.parts, ImageCatalogKind.IMAGE_CATALOG, major);
  }
}

/**
 * A CloudNativePG `ClusterImageCatalog` (`postgresql.cnpg.io/v1`, cluster-scoped, written
 * without a namespace): the PostgreSQL images, one per major version, that Clusters of every
 * namespace can name (`catalog.imageFor(17)`). The CRD's rules are refused as for `ImageCatalog`.
 */
export class ClusterImageCatalog extends Construct {
  /** The catalog's `metadata.name`. */
  public readonly name: string;
  /** The catalog object. */
  public readonly apiObject: ApiObject;
  private readonly parts: CatalogParts;

  public constructor(scope: Construct, id: string, props: ImageCatalogProps) {
    super(scope, id);
    this.parts = buildCatalog(this, props, ImageCatalogKind.CLUSTER_IMAGE_CATALOG);
    this.name = this.parts.name;
    this.apiObject = this.parts.apiObject;
  }

  /** The major versions of the catalog, in the order given. */
  public get majors(): number[] {
    return this.parts.images.map((i) => i.major);
  }

  /** The Cluster image of one major version of this catalog, for a `PostgresCluster`'s `image`; a major the catalog lacks is refused. */
  public imageFor(major: number): ClusterImage {
    return imageOf(this, this.parts, ImageCatalogKind.CLUSTER_IMAGE_CATALOG, major);
  }
}
