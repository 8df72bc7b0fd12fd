import { ApiObject, ApiObjectMetadata } from 'cdk8s';
import { Construct } from 'constructs';
import { writtenMetadata } from '../common/metadata';
import { Kind } from '../common/prop-kinds';
import { PropKind, PropSpec, checkProps, refuseFirst } from '../common/props';
import { SUBDOMAIN_NAME_RULE, nameFromId } from '../common/stable-names';
import { refuseProblem } from '../manifests/errors';
import type { Json } from '../manifests/json';
import { synthJson } from '../schema/guard';
import { admissionProblem } from './cluster-fidelity';
import { IPostgresCluster } from './cluster-reference';
import { POSTGRES_CLUSTER_KIND, claimManaged, guardAndCheck, resolveBackupCluster } from './internal';

/** What becomes of the PostgreSQL database when the `Database` object is deleted (`spec.databaseReclaimPolicy`). */
export enum DatabaseReclaimPolicy {
  /** The database stays in PostgreSQL (the CRD default). */
  RETAIN = 'retain',
  /** The instance manager runs `DROP DATABASE`: deleting or pruning the object deletes the data. */
  DELETE = 'delete',
}

/** Whether an object managed inside PostgreSQL should exist (`ensure`), with the CRD's wire values. */
export enum EnsureOption {
  /** Created when missing (the CRD default). */
  PRESENT = 'present',
  /** Dropped when it exists. */
  ABSENT = 'absent',
}

/** The locale provider of a database (`spec.localeProvider`, PostgreSQL's `LOCALE_PROVIDER`). */
export enum DatabaseLocaleProvider {
  /** The operating system's C library. */
  LIBC = 'libc',
  /** ICU (`icuLocale`, `icuRules`). */
  ICU = 'icu',
  /** PostgreSQL's builtin provider (`builtinLocale`; PostgreSQL 17 and later). */
  BUILTIN = 'builtin',
}

/** Whether `USAGE` on a foreign data wrapper or server is granted or revoked. */
export enum DatabaseUsageType {
  /** `GRANT USAGE` (the CRD default). */
  GRANT = 'grant',
  /** `REVOKE USAGE`. */
  REVOKE = 'revoke',
}

/** An extension of a database (`spec.extensions[]`). */
export interface DatabaseExtension {
  /** The extension's name, e.g. `pgvector`'s `vector`. */
  readonly name: string;
  /**
   * The version to install.
   * @default - not written: the default version of the extension's control file
   */
  readonly version?: string;
  /**
   * The schema of a relocatable extension's objects.
   * @default - not written: the control file's schema, else the current default schema
   */
  readonly schema?: string;
  /**
   * Whether the extension should exist.
   * @default - not written; the CRD default is `present`
   */
  readonly ensure?: EnsureOption;
}

/** A schema of a database (`spec.schemas[]`). */
export interface DatabaseSchema {
  /** The schema's name. */
  readonly name: string;
  /**
   * The role that owns it (`AUTHORIZATION`).
   * @default - not written: the role the operator connects as
   */
  readonly owner?: string;
  /**
   * Whether the schema should exist.
   * @default - not written; the CRD default is `present`
   */
  readonly ensure?: EnsureOption;
}

/** An option of a foreign data wrapper or server. */
export interface DatabaseOption {
  /** The option's name. */
  readonly name: string;
  /** Its value. */
  readonly value: string;
  /**
   * Whether the option should be set.
   * @default - not written; the CRD default is `present`
   */
  readonly ensure?: EnsureOption;
}

/** `USAGE` on a foreign data wrapper or server for one role. */
export interface DatabaseUsage {
  /** The role. */
  readonly name: string;
  /**
   * Grant or revoke.
   * @default - not written; the CRD default is `grant`
   */
  readonly type?: DatabaseUsageType;
}

/** A foreign data wrapper of a database (`spec.fdws[]`). */
export interface DatabaseForeignDataWrapper {
  /** The wrapper's name, e.g. `postgres_fdw`. */
  readonly name: string;
  /**
   * The handler function.
   * @default - not written: the one the wrapper's extension registers
   */
  readonly handler?: string;
  /**
   * The validator function.
   * @default - not written: the one the wrapper's extension registers
   */
  readonly validator?: string;
  /**
   * The role that owns the wrapper (a superuser).
   * @default - not written
   */
  readonly owner?: string;
  /**
   * Options of the wrapper.
   * @default - none
   */
  readonly options?: DatabaseOption[];
  /**
   * `USAGE` grants and revocations (`usage`).
   * @default - none
   */
  readonly usage?: DatabaseUsage[];
  /**
   * Whether the wrapper should exist.
   * @default - not written; the CRD default is `present`
   */
  readonly ensure?: EnsureOption;
}

/** A foreign server of a database (`spec.servers[]`). */
export interface DatabaseForeignServer {
  /** The server's name. */
  readonly name: string;
  /** The foreign data wrapper it uses (`fdw`). */
  readonly fdw: string;
  /**
   * Options of the server (`host`, `dbname`, ...).
   * @default - none
   */
  readonly options?: DatabaseOption[];
  /**
   * `USAGE` grants and revocations (`usage`).
   * @default - none
   */
  readonly usage?: DatabaseUsage[];
  /**
   * Whether the server should exist.
   * @default - not written; the CRD default is `present`
   */
  readonly ensure?: EnsureOption;
}

/**
 * Options of `PostgresCluster.addDatabase()`: a `postgresql.cnpg.io/v1` Database as CloudNativePG
 * v1.30.0 defines it (api/v1/database_types.go DatabaseSpec). Fields marked immutable cannot
 * change once applied (the CRD refuses it; the plan's CNPGI262 says so before the merge).
 */
export interface DatabaseOptions {
  /**
   * The name of the database inside PostgreSQL (`spec.name`; immutable). `postgres`,
   * `template0` and `template1` are reserved.
   * @default - the construct id
   */
  readonly databaseName?: string;

  /** The role that owns the database (`spec.owner`, PostgreSQL's `OWNER`). */
  readonly owner: string;

  /**
   * Whether the database should exist. `absent` makes the operator drop it, whatever the
   * reclaim policy.
   * @default - not written; the CRD default is `present`
   */
  readonly ensure?: EnsureOption;

  /**
   * What the operator does to the database when this object is deleted or pruned.
   * `DatabaseReclaimPolicy.DELETE` drops it.
   * @default - not written; the CRD default is `retain`
   */
  readonly databaseReclaimPolicy?: DatabaseReclaimPolicy;

  /**
   * The template database to copy (immutable).
   * @default - not written: PostgreSQL's `template1`
   */
  readonly template?: string;
  /**
   * The character set encoding (immutable), e.g. `UTF8`.
   * @default - not written: the template's
   */
  readonly encoding?: string;
  /**
   * The collation and character classification (immutable), e.g. `en_US.utf8`.
   * @default - not written: the template's
   */
  readonly locale?: string;
  /**
   * The locale provider (immutable).
   * @default - not written: the template's
   */
  readonly localeProvider?: DatabaseLocaleProvider;
  /**
   * `LC_COLLATE` (immutable; `spec.localeCollate`).
   * @default - not written
   */
  readonly localeCollate?: string;
  /**
   * `LC_CTYPE` (immutable; `spec.localeCType`).
   * @default - not written
   */
  readonly localeCType?: string;
  /**
   * The ICU locale (immutable); needs `localeProvider: ICU`.
   * @default - not written
   */
  readonly icuLocale?: string;
  /**
   * ICU collation rules (immutable); needs `localeProvider: ICU`.
   * @default - not written
   */
  readonly icuRules?: string;
  /**
   * The builtin provider's locale (immutable); needs `localeProvider: BUILTIN`.
   * @default - not written
   */
  readonly builtinLocale?: string;
  /**
   * The collation version (immutable).
   * @default - not written
   */
  readonly collationVersion?: string;
  /**
   * Whether the database is a template others can copy.
   * @default - not written: PostgreSQL's false
   */
  readonly isTemplate?: boolean;
  /**
   * Whether connections are allowed.
   * @default - not written: PostgreSQL's true
   */
  readonly allowConnections?: boolean;
  /**
   * The most concurrent connections; -1 is no limit.
   * @default - not written: PostgreSQL's -1
   */
  readonly connectionLimit?: number;
  /**
   * The default tablespace of the database.
   * @default - not written: the template's
   */
  readonly tablespace?: string;

  /**
   * Extensions to manage in the database.
   * @default - none
   */
  readonly extensions?: DatabaseExtension[];
  /**
   * Schemas to manage in the database.
   * @default - none
   */
  readonly schemas?: DatabaseSchema[];
  /**
   * Foreign data wrappers to manage in the database (`spec.fdws`).
   * @default - none
   */
  readonly foreignDataWrappers?: DatabaseForeignDataWrapper[];
  /**
   * Foreign servers to manage in the database (`spec.servers`).
   * @default - none
   */
  readonly servers?: DatabaseForeignServer[];

  /**
   * Metadata of the Database object (name, labels, annotations).
   * @default - `<cluster name>-<construct id>`; the Cluster's namespace
   */
  readonly metadata?: ApiObjectMetadata;
}

/** Props of `Database`. */
export interface DatabaseProps extends DatabaseOptions {
  /**
   * The Cluster that hosts the database: a `PostgresCluster` (the Database goes in its
   * namespace), or `PostgresCluster.fromClusterName()` for one managed elsewhere.
   */
  readonly cluster: IPostgresCluster;
}

/** The database names the CRD reserves (api/v1/database_types.go DatabaseSpec.Name, CEL rules). */
const RESERVED_DATABASE_NAMES = ['postgres', 'template0', 'template1'];

const NAME = Kind.evenMissing(Kind.string("use a name such as 'app'"));
const ENSURE = Kind.enumOf(EnsureOption, 'EnsureOption');
const OPTION_SPEC: PropSpec<DatabaseOption> = {
  name: NAME,
  value: Kind.evenMissing(Kind.instance((v) => typeof v === 'string', 'a string', "use a string such as '5432'")),
  ensure: ENSURE,
};
const USAGE_SPEC: PropSpec<DatabaseUsage> = { name: NAME, type: Kind.enumOf(DatabaseUsageType, 'DatabaseUsageType') };
const list = <T>(spec: PropSpec<T>, required: ReadonlyArray<keyof T & string>): PropKind => Kind.each(Kind.props(spec, { required }));

const EXTENSION_SPEC: PropSpec<DatabaseExtension> = {
  name: NAME,
  version: Kind.string("use a version such as '0.8.0'"),
  schema: Kind.string("use a schema such as 'public'"),
  ensure: ENSURE,
};
const SCHEMA_SPEC: PropSpec<DatabaseSchema> = { name: NAME, owner: Kind.string("use a role such as 'app'"), ensure: ENSURE };
const FDW_SPEC: PropSpec<DatabaseForeignDataWrapper> = {
  name: NAME,
  handler: Kind.string("use a function such as 'postgres_fdw_handler'"),
  validator: Kind.string("use a function such as 'postgres_fdw_validator'"),
  owner: Kind.string("use a role such as 'postgres'"),
  options: list(OPTION_SPEC, ['name', 'value']),
  usage: list(USAGE_SPEC, ['name']),
  ensure: ENSURE,
};
const SERVER_SPEC: PropSpec<DatabaseForeignServer> = {
  name: NAME,
  // The CRD refuses an empty wrapper name (ServerSpec.FdwName, rule `self != ''`).
  fdw: Kind.evenMissing(Kind.string("name the foreign data wrapper, e.g. 'postgres_fdw'")),
  options: list(OPTION_SPEC, ['name', 'value']),
  usage: list(USAGE_SPEC, ['name']),
  ensure: ENSURE,
};

const PROPS_SPEC: PropSpec<DatabaseProps> = {
  cluster: POSTGRES_CLUSTER_KIND,
  databaseName: Kind.string("use a name such as 'app'"),
  owner: Kind.evenMissing(Kind.string("name the owning role, e.g. owner: 'app'")),
  ensure: ENSURE,
  databaseReclaimPolicy: Kind.enumOf(DatabaseReclaimPolicy, 'DatabaseReclaimPolicy'),
  template: Kind.string("use a template such as 'template0'"),
  encoding: Kind.string("use an encoding such as 'UTF8'"),
  locale: Kind.string("use a locale such as 'en_US.utf8'"),
  localeProvider: Kind.enumOf(DatabaseLocaleProvider, 'DatabaseLocaleProvider'),
  localeCollate: Kind.string("use a locale such as 'C'"),
  localeCType: Kind.string("use a locale such as 'C'"),
  icuLocale: Kind.string("use an ICU locale such as 'en-US'"),
  icuRules: Kind.string("use ICU rules such as '&a < g'"),
  builtinLocale: Kind.string("use a builtin locale such as 'C.UTF-8'"),
  collationVersion: Kind.string('use the collation version PostgreSQL reports'),
  isTemplate: Kind.boolean,
  allowConnections: Kind.boolean,
  connectionLimit: Kind.integer(-1),
  tablespace: Kind.string("use a tablespace such as 'fast'"),
  extensions: list(EXTENSION_SPEC, ['name']),
  schemas: list(SCHEMA_SPEC, ['name']),
  foreignDataWrappers: list(FDW_SPEC, ['name']),
  servers: list(SERVER_SPEC, ['name', 'fdw']),
  metadata: Kind.metadata,
};

/**
 * A CloudNativePG `Database` (`postgresql.cnpg.io/v1`): a database inside a Cluster, with its
 * owner, locale, extensions, schemas, foreign data wrappers and servers, managed by the
 * instance manager of the primary.
 *
 * The name, the Cluster and the locale fields are fixed once applied. With
 * `databaseReclaimPolicy: DELETE`, deleting the object, or pruning it from a GitOps repository,
 * drops the database: the plan (CNPGI260) reports it before the merge. The rendered object is
 * checked at synth against the CRD and its CEL rules and as the Database webhook judges it (no
 * two extensions, schemas, wrappers, servers, options or usages of one name); two `Database`
 * constructs of one app that manage the same database of the same Cluster are refused (the
 * operator would reconcile only the first and fail the other).
 */
export class Database extends Construct {
  /** The Database object's `metadata.name`. */
  public readonly name: string;
  /** The name of the database inside PostgreSQL (`spec.name`). */
  public readonly databaseName: string;
  /** The name of the Cluster that hosts it. */
  public readonly clusterName: string;
  /** The Database object. */
  public readonly apiObject: ApiObject;

  public constructor(scope: Construct, id: string, props: DatabaseProps) {
    super(scope, id);
    const p = checkProps(this, 'props', props, PROPS_SPEC, { required: ['cluster', 'owner'] });
    const databaseName = p.databaseName ?? id;
    const provider = p.localeProvider as string | undefined;
    // The CRD's CEL rules (cloudnative-pg v1.30.0 api/v1/database_types.go DatabaseSpec).
    refuseFirst(this, [
      [
        RESERVED_DATABASE_NAMES.includes(databaseName),
        p.databaseName === undefined ? 'id' : 'databaseName',
        databaseName,
        `is reserved: the Database CRD refuses it ("the name ${databaseName} is reserved")`,
        p.databaseName === undefined ? "give the construct another id, or set databaseName: 'app'" : "use another name, such as 'app'",
      ],
      [
        p.builtinLocale !== undefined && provider !== 'builtin',
        'builtinLocale',
        p.builtinLocale,
        'is only available when localeProvider is set to `builtin`',
        'set localeProvider: DatabaseLocaleProvider.BUILTIN, or leave builtinLocale out',
      ],
      [
        p.icuLocale !== undefined && provider !== 'icu',
        'icuLocale',
        p.icuLocale,
        'is only available when localeProvider is set to `icu`',
        'set localeProvider: DatabaseLocaleProvider.ICU, or leave icuLocale out',
      ],
      [
        p.icuRules !== undefined && provider !== 'icu',
        'icuRules',
        p.icuRules,
        'is only available when localeProvider is set to `icu`',
        'set localeProvider: DatabaseLocaleProvider.ICU, or leave icuRules out',
      ],
    ]);
    const metadata = writtenMetadata(p.metadata);
    const cluster = resolveBackupCluster(
      this,
      p.cluster,
      metadata.namespace,
      'a Database names a Cluster of its own namespace: use cluster.addDatabase(), or a chart with the same namespace',
    );
    this.clusterName = cluster.name;
    this.databaseName = databaseName;

    this.apiObject = new ApiObject(this, 'Resource', {
      apiVersion: 'postgresql.cnpg.io/v1',
      kind: 'Database',
      metadata: {
        ...metadata,
        name: metadata.name ?? nameFromId(this, SUBDOMAIN_NAME_RULE('Database'), `${cluster.name}-${id}`),
        namespace: cluster.namespace,
      },
      spec: {
        cluster: { name: cluster.name },
        name: databaseName,
        owner: p.owner,
        ensure: p.ensure,
        databaseReclaimPolicy: p.databaseReclaimPolicy,
        template: p.template,
        encoding: p.encoding,
        locale: p.locale,
        localeProvider: p.localeProvider,
        localeCollate: p.localeCollate,
        localeCType: p.localeCType,
        icuLocale: p.icuLocale,
        icuRules: p.icuRules,
        builtinLocale: p.builtinLocale,
        collationVersion: p.collationVersion,
        isTemplate: p.isTemplate,
        allowConnections: p.allowConnections,
        connectionLimit: p.connectionLimit,
        tablespace: p.tablespace,
        schemas: p.schemas?.map((s) => ({ ...s })),
        extensions: p.extensions?.map((e) => ({ ...e })),
        fdws: p.foreignDataWrappers?.map((f) => ({ ...f, options: f.options?.map((o) => ({ ...o })), usage: f.usage?.map((u) => ({ ...u })) })),
        servers: p.servers?.map((s) => ({ ...s, options: s.options?.map((o) => ({ ...o })), usage: s.usage?.map((u) => ({ ...u })) })),
      },
    });
    this.name = this.apiObject.name;
    if (cluster.binding) this.apiObject.node.addDependency(cluster.binding.apiObject);

    const single = claimManaged(this, 'Database', cluster.namespace, cluster.name, databaseName, p.databaseName === undefined ? 'id' : 'databaseName');
    guardAndCheck(this, 'Database', this.apiObject, () => {
      single();
      refuseProblem(
        this,
        admissionProblem('Database', () => synthJson(this.apiObject) as Json),
      );
    });
  }
}
