import { ApiObject, ApiObjectMetadata } from 'cdk8s';
import { Construct } from 'constructs';
import { writtenMetadata } from '../common/metadata';
import { Kind } from '../common/prop-kinds';
import { PropSpec, checkProps, refuseFirst } from '../common/props';
import { SUBDOMAIN_NAME_RULE, nameFromId } from '../common/stable-names';
import { IPostgresCluster } from './cluster-reference';
import { ClusterBinding, POSTGRES_CLUSTER_KIND, claimManaged, guardAndCheck, resolveBackupCluster } from './internal';

/** What becomes of the PostgreSQL publication when the `Publication` object is deleted (`spec.publicationReclaimPolicy`). */
export enum PublicationReclaimPolicy {
  /** The publication stays in PostgreSQL (the CRD default). */
  RETAIN = 'retain',
  /** The instance manager runs `DROP PUBLICATION` when the object is deleted or pruned. */
  DELETE = 'delete',
}

/** A table of a publication (`spec.target.objects[].table`, PostgreSQL's `FOR TABLE`). */
export interface PublicationTable {
  /** The table's name. */
  readonly name: string;
  /**
   * The table's schema.
   * @default - not written: the publisher's search path decides
   */
  readonly schema?: string;
  /**
   * Whether only this table is published, not its descendants (`ONLY`).
   * @default - not written; the CRD default is false
   */
  readonly only?: boolean;
  /**
   * The columns to publish; not in a publication that also publishes whole schemas.
   * @default - not written: every column
   */
  readonly columns?: string[];
}

/** The tables and schemas of `PublicationTarget.objects()`. */
export interface PublicationObjects {
  /**
   * Tables to publish (`FOR TABLE`).
   * @default - none
   */
  readonly tables?: PublicationTable[];
  /**
   * Schemas whose tables, present and future, are published (`FOR TABLES IN SCHEMA`).
   * @default - none
   */
  readonly tablesInSchemas?: string[];
}

const TABLE_SPEC: PropSpec<PublicationTable> = {
  name: Kind.evenMissing(Kind.string("use a table name such as 'orders'")),
  schema: Kind.string("use a schema name such as 'public'"),
  only: Kind.boolean,
  columns: Kind.strings,
};

const OBJECTS_SPEC: PropSpec<PublicationObjects> = {
  tables: (scope, prop, value) => {
    if (value === undefined) return undefined;
    if (!Array.isArray(value)) return { prop, value, problem: 'is not a list', fix: "pass [{ name: 'orders' }]" };
    value.forEach((t, i) => checkProps(scope, `${prop}[${i}]`, t, TABLE_SPEC, { required: ['name'] }));
    return undefined;
  },
  tablesInSchemas: Kind.strings,
};

/**
 * What a publication publishes (`spec.target`): every table of the database, or a list of
 * tables and schemas. The CRD takes exactly one of the two (its CEL rule "allTables and objects
 * are mutually exclusive"); this class makes anything else impossible to write.
 */
export class PublicationTarget {
  /** How a value of this class is made, for the message that refuses another value. @internal */
  public static readonly _factories = "PublicationTarget.allTables() or PublicationTarget.objects({ tables: [{ name: 'orders' }] })";

  /** Every table of the database, including tables created later (`FOR ALL TABLES`). */
  public static allTables(): PublicationTarget {
    return new PublicationTarget({ allTables: true });
  }

  /**
   * Some tables (`FOR TABLE`) and the tables of some schemas (`FOR TABLES IN SCHEMA`). At least
   * one is needed; a column list is refused beside schemas, as the CRD's CEL rule refuses it
   * ("specifying a column list when the publication also publishes tablesInSchema is not
   * supported", cloudnative-pg v1.30.0 api/v1/publication_types.go PublicationTarget).
   */
  public static objects(objects: PublicationObjects): PublicationTarget {
    const where = 'PublicationTarget.objects';
    const o = checkProps(where, 'objects', objects, OBJECTS_SPEC);
    const tables = o.tables ?? [];
    const schemas = o.tablesInSchemas ?? [];
    const withColumns = tables.find((t) => t.columns !== undefined);
    refuseFirst(where, [
      [
        tables.length + schemas.length === 0,
        'objects',
        objects,
        'names no table and no schema',
        "name at least one, e.g. { tables: [{ name: 'orders' }] }, or use PublicationTarget.allTables()",
      ],
      [
        withColumns !== undefined && schemas.length > 0,
        `objects.tables[${withColumns?.name}].columns`,
        withColumns?.columns,
        'is given while tablesInSchemas publishes whole schemas: the Publication CRD refuses a column list beside tablesInSchema',
        'publish the whole table (leave columns out), or publish its schema in another Publication',
      ],
    ]);
    return new PublicationTarget({
      objects: [
        ...schemas.map((s) => ({ tablesInSchema: s })),
        ...tables.map((t) => ({ table: { name: t.name, schema: t.schema, only: t.only, columns: t.columns === undefined ? undefined : [...t.columns] } })),
      ],
    });
  }

  /** @internal */
  public readonly _spec: Readonly<Record<string, unknown>>;

  private constructor(spec: Record<string, unknown>) {
    this._spec = spec;
  }
}

/**
 * Options of `PostgresCluster.addPublication()`: a `postgresql.cnpg.io/v1` Publication
 * (cloudnative-pg v1.30.0 api/v1/publication_types.go PublicationSpec).
 */
export interface PublicationOptions {
  /** The database of the publisher Cluster the publication is created in (`spec.dbname`; immutable). */
  readonly dbname: string;
  /** What is published (`spec.target`): `PublicationTarget.allTables()` or `PublicationTarget.objects({ ... })`. */
  readonly target: PublicationTarget;
  /**
   * The publication's name inside PostgreSQL (`spec.name`; immutable).
   * @default - the construct id
   */
  readonly publicationName?: string;
  /**
   * Parameters of the `WITH` clause of `CREATE PUBLICATION`, e.g. `{ publish: 'insert' }`.
   * @default - not written
   */
  readonly parameters?: Record<string, string>;
  /**
   * What the operator does to the publication when this object is deleted or pruned.
   * `PublicationReclaimPolicy.DELETE` drops it.
   * @default - not written; the CRD default is `retain`
   */
  readonly publicationReclaimPolicy?: PublicationReclaimPolicy;
  /**
   * Metadata of the Publication object (name, labels, annotations).
   * @default - `<cluster name>-<construct id>`; the Cluster's namespace
   */
  readonly metadata?: ApiObjectMetadata;
}

/** Props of `Publication`. */
export interface PublicationProps extends PublicationOptions {
  /**
   * The publisher Cluster: a `PostgresCluster` (the object goes in its namespace), or
   * `PostgresCluster.fromClusterName()` for one managed elsewhere.
   */
  readonly cluster: IPostgresCluster;
}

const PROPS_SPEC: PropSpec<PublicationProps> = {
  cluster: POSTGRES_CLUSTER_KIND,
  dbname: Kind.evenMissing(Kind.string("use a database name such as 'app'")),
  target: Kind.evenMissing(Kind.factory(PublicationTarget)),
  publicationName: Kind.string("use a name such as 'orders'"),
  parameters: Kind.stringMap,
  publicationReclaimPolicy: Kind.enumOf(PublicationReclaimPolicy, 'PublicationReclaimPolicy'),
  metadata: Kind.metadata,
};

/**
 * A CloudNativePG `Publication` (`postgresql.cnpg.io/v1`): a logical replication publication in
 * a database of the publisher Cluster, reconciled by its instance manager (cloudnative-pg v1.30.0
 * internal/management/controller/publication_controller.go).
 *
 * The Cluster, `publicationName`, `dbname` and `allTables` are fixed once applied (the CRD's CEL
 * rules). With `publicationReclaimPolicy: DELETE`, deleting the object, or pruning it from a
 * GitOps repository, drops the publication (the plan's CNPGI260). Subscribe to it from another
 * `PostgresCluster` of the app with `addSubscription(id, { publication })`.
 */
export class Publication extends Construct {
  /** The Publication object's `metadata.name`. */
  public readonly name: string;
  /** The publication's name inside PostgreSQL. */
  public readonly publicationName: string;
  /** The database the publication is in. */
  public readonly dbname: string;
  /** The name of the publisher Cluster. */
  public readonly clusterName: string;
  /** The Publication object. */
  public readonly apiObject: ApiObject;
  /** The publisher's namespace and, for a `PostgresCluster` of this program, its binding. @internal */
  public readonly _publisher: { readonly namespace: string | undefined; readonly binding?: ClusterBinding };

  public constructor(scope: Construct, id: string, props: PublicationProps) {
    super(scope, id);
    const p = checkProps(this, 'props', props, PROPS_SPEC, { required: ['cluster', 'dbname', 'target'] });
    const publicationName = p.publicationName ?? id;
    const metadata = writtenMetadata(p.metadata);
    const cluster = resolveBackupCluster(
      this,
      p.cluster,
      metadata.namespace,
      'a Publication names a Cluster of its own namespace: use cluster.addPublication(), or a chart with the same namespace',
    );
    this.clusterName = cluster.name;
    this.publicationName = publicationName;
    this.dbname = p.dbname;
    this._publisher = { namespace: cluster.namespace, binding: cluster.binding };
    this.apiObject = new ApiObject(this, 'Resource', {
      apiVersion: 'postgresql.cnpg.io/v1',
      kind: 'Publication',
      metadata: {
        ...metadata,
        name: metadata.name ?? nameFromId(this, SUBDOMAIN_NAME_RULE('Publication'), `${cluster.name}-${id}`),
        namespace: cluster.namespace,
      },
      spec: {
        cluster: { name: cluster.name },
        name: publicationName,
        dbname: p.dbname,
        parameters: p.parameters === undefined ? undefined : { ...p.parameters },
        target: p.target._spec,
        publicationReclaimPolicy: p.publicationReclaimPolicy,
      },
    });
    this.name = this.apiObject.name;
    if (cluster.binding) this.apiObject.node.addDependency(cluster.binding.apiObject);
    // One Publication object per cluster and spec.name (cloudnative-pg v1.30.0
    // api/v1/publication_funcs.go MustHaveManagedResourceExclusivity, GetManagedObjectName).
    const single = claimManaged(
      this,
      'Publication',
      cluster.namespace,
      cluster.name,
      publicationName,
      p.publicationName === undefined ? 'id' : 'publicationName',
    );
    guardAndCheck(this, 'Publication', this.apiObject, single);
  }
}
