/**
 * A seeded generator of apps through the public API: plugins (Barman Cloud, a standalone plugin
 * with each TLS mode), object stores, Clusters with random sizes, parameters, WAL storage,
 * backups, schedules and recoveries, and the kinds beside them (Databases, DatabaseRoles,
 * managed roles, Poolers, Publications and Subscriptions between the app's Clusters, image
 * catalogs). Every synthesized object is dry-run created on the real API
 * server and must be allowed, and the library's model (`./model.ts`) must allow it too. Invalid
 * props (values the CRD or the webhook refuses) must be refused by the library, at construction
 * or at synth.
 *
 * The seed is fixed (CNPG_I_GENERATOR_SEED overrides it), so a failure names an app that can be
 * rebuilt: the message gives the seed and the app number.
 */
import { App, Chart, Size, Testing } from 'cdk8s';
import {
  BackupSchedule,
  BackupTarget,
  DatabaseReclaimPolicy,
  BarmanCloudPlugin,
  ClusterBootstrap,
  ClusterImageCatalog,
  HelloWorldPlugin,
  ImageCatalog,
  ObjectStore,
  ObjectStoreCredentials,
  PgBouncerPoolMode,
  PluginTls,
  PoolerType,
  PostgresCluster,
  PublicationTarget,
  StandalonePlugin,
  WalCompression,
} from '../../src/index';
import { describeWithControlPlane, KubeObject } from './control-plane';
import { bothMessages, modelVerdict } from './model';

const SEED = Number(process.env.CNPG_I_GENERATOR_SEED ?? 20261205);
const APPS = 60;

/** mulberry32: a small deterministic PRNG. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Rand = () => number;
const int = (r: Rand, lo: number, hi: number) => lo + Math.floor(r() * (hi - lo + 1));
const pick = <T>(r: Rand, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)];
const chance = (r: Rand, p: number) => r() < p;

const PARAMETERS: readonly [string, readonly string[]][] = [
  ['max_connections', ['50', '100', '200', '500']],
  ['work_mem', ['4MB', '16MB', '64MB']],
  ['maintenance_work_mem', ['64MB', '256MB']],
  ['log_min_duration_statement', ['250', '1000', '-1']],
  ['random_page_cost', ['1.1', '4']],
  ['effective_io_concurrency', ['1', '200']],
];

/** One generated app: its synthesized objects (valid props only). */
function generate(n: number): KubeObject[] {
  const r = prng(SEED + n * 7919);
  const app = new App();
  const systemNs = `gen-system-${n}`;
  const dbNs = `gen-db-${n}`;
  const system = new Chart(app, 'system', { namespace: systemNs });
  const apps = new Chart(app, 'databases', { namespace: dbNs });
  const barman = chance(r, 0.8) ? new BarmanCloudPlugin(system, 'barman') : undefined;
  const tls = pick(r, [() => PluginTls.selfSigned(), () => PluginTls.privateCa()])();
  const hello = chance(r, 0.6)
    ? new StandalonePlugin(system, 'hello', {
        pluginName: HelloWorldPlugin.PLUGIN_NAME,
        image: `ghcr.io/cloudnative-pg/cnpg-i-hello-world:v0.1.${int(r, 0, 3)}`,
        args: ['plugin'],
        tls,
      })
    : undefined;
  const store = barman
    ? new ObjectStore(apps, 'store', {
        destinationPath: `s3://bucket-${n}/pg`,
        credentials: ObjectStoreCredentials.s3AccessKeys({
          accessKeyId: { name: 'creds', key: 'ACCESS_KEY_ID' },
          secretAccessKey: { name: 'creds', key: 'ACCESS_SECRET_KEY' },
        }),
        wal: { compression: pick(r, [WalCompression.ZSTD, WalCompression.GZIP, WalCompression.SNAPPY]), maxParallel: int(r, 1, 8) },
        retentionPolicy: `${int(r, 1, 60)}d`,
      })
    : undefined;
  const clusters = int(r, 1, 3);
  // an image catalog of the namespace or of the cluster, that some Clusters take their image from
  const catalog = chance(r, 0.5)
    ? pick(r, [
        () =>
          new ImageCatalog(apps, 'catalog', {
            images: [16, 17].map((major) => ({ major, image: `ghcr.io/cloudnative-pg/postgresql:${major}.${int(r, 1, 9)}` })),
          }),
        () =>
          new ClusterImageCatalog(apps, 'catalog', {
            images: [15, 16, 17].map((major) => ({ major, image: `ghcr.io/cloudnative-pg/postgresql:${major}.${int(r, 1, 9)}` })),
            metadata: { name: `gen-catalog-${n}` },
          }),
      ])()
    : undefined;
  const made: PostgresCluster[] = [];
  for (let c = 0; c < clusters; c++) {
    const parameters: Record<string, string> = {};
    for (const [k, vs] of PARAMETERS) if (chance(r, 0.4)) parameters[k] = pick(r, vs);
    const pg = new PostgresCluster(apps, `pg${c}`, {
      instances: int(r, 1, 5),
      storage: { size: Size.gibibytes(int(r, 1, 100)) },
      walStorage: chance(r, 0.3) ? { size: Size.gibibytes(int(r, 1, 20)) } : undefined,
      postgresql: Object.keys(parameters).length > 0 ? { parameters } : undefined,
      image: catalog && chance(r, 0.6) ? catalog.imageFor(pick(r, [16, 17])) : undefined,
      spec: c === 0 ? { enableSuperuserAccess: true } : undefined,
    });
    made.push(pg);
    if (chance(r, 0.4)) pg.addManagedRole(pick(r, ['analyst', 'etl']), { login: true, connectionLimit: int(r, -1, 20), inRoles: ['pg_monitor'] });
    if (barman && store) {
      pg.addPlugin(barman, { isWalArchiver: true, objectStore: store });
      if (chance(r, 0.6)) pg.addScheduledBackup(`daily${c}`, { plugin: barman, schedule: BackupSchedule.daily(int(r, 0, 23), int(r, 0, 59)) });
      if (chance(r, 0.4)) pg.addBackup(`once${c}`, { plugin: barman, target: pick(r, [BackupTarget.PRIMARY, BackupTarget.PREFER_STANDBY]) });
      if (chance(r, 0.3))
        new PostgresCluster(apps, `restored${c}`, {
          instances: int(r, 1, 3),
          storage: { size: Size.gibibytes(int(r, 1, 100)) },
          bootstrap: ClusterBootstrap.recoveryFromCluster(pg, { sourceName: 'origin' }),
        });
    }
    if (hello) pg.addPlugin(hello, { parameters: HelloWorldPlugin.parameters({ annotations: { 'example.com/app': `a${n}` } }) });
    if (chance(r, 0.5)) {
      const owner = pick(r, ['app', 'reporting', 'orders_owner']);
      if (chance(r, 0.6))
        pg.addDatabaseRole(`role-${owner.replace(/_/g, '-')}`, {
          roleName: owner,
          login: true,
          connectionLimit: int(r, -1, 200),
          inRoles: chance(r, 0.5) ? ['pg_read_all_data'] : undefined,
        });
      pg.addDatabase(pick(r, ['app', 'orders', 'metrics']), {
        owner,
        encoding: chance(r, 0.5) ? 'UTF8' : undefined,
        databaseReclaimPolicy: pick(r, [DatabaseReclaimPolicy.RETAIN, DatabaseReclaimPolicy.DELETE]),
        extensions: chance(r, 0.4) ? [{ name: pick(r, ['pg_stat_statements', 'pgcrypto', 'hstore']) }] : undefined,
        schemas: chance(r, 0.3) ? [{ name: 'reporting', owner }] : undefined,
      });
    }
    if (chance(r, 0.4)) {
      const parameters: Record<string, string> = {};
      if (chance(r, 0.5)) parameters.default_pool_size = String(int(r, 5, 50));
      if (chance(r, 0.5)) parameters.max_client_conn = String(int(r, 100, 2000));
      pg.addPooler(pick(r, ['rw', 'ro']), {
        type: pick(r, [PoolerType.RW, PoolerType.RO]),
        instances: int(r, 1, 3),
        poolMode: pick(r, [PgBouncerPoolMode.SESSION, PgBouncerPoolMode.TRANSACTION]),
        parameters: Object.keys(parameters).length > 0 ? parameters : undefined,
      });
    }
  }
  // logical replication from the first Cluster to the others, as its superuser or as a role of its own
  if (made.length > 1 && chance(r, 0.7)) {
    const publication = made[0].addPublication('orders-pub', {
      dbname: 'app',
      target: chance(r, 0.5)
        ? PublicationTarget.allTables()
        : PublicationTarget.objects({ tables: [{ name: 'orders' }], tablesInSchemas: chance(r, 0.5) ? ['reporting'] : undefined }),
    });
    for (const subscriber of made.slice(1)) {
      subscriber.addSubscription(
        'orders-sub',
        chance(r, 0.5) ? { publication } : { publication, publisherUser: 'replicator', publisherPassword: { name: 'replicator-password', key: 'password' } },
      );
    }
  }
  return [...Testing.synth(system), ...Testing.synth(apps)] as KubeObject[];
}

/** Props the CRD or the webhook refuses: the library must refuse each too. */
/**
 * Props the library refuses: `spec` is the same value in a Cluster written by hand, which the real
 * API server refuses too, unless `libraryRule` says which rule of the library refuses what the
 * API server accepts, and why.
 */
const INVALID: readonly {
  readonly what: string;
  /** The Cluster's spec written by hand (over instances: 1 and 1Gi of storage) ... */
  readonly spec?: Record<string, unknown>;
  /** ... or the object written by hand, for the other kinds. */
  readonly object?: KubeObject;
  readonly libraryRule?: string;
  readonly build: (scope: Chart) => void;
  /** What the library's refusal names (the construct path, or the factory). @default /pg/ */
  readonly names?: RegExp;
}[] = [
  {
    what: 'instances: 0 (CRD minimum 1)',
    spec: { instances: 0 },
    build: (s) => new PostgresCluster(s, 'pg', { instances: 0, storage: { size: Size.gibibytes(1) } }),
  },
  { what: 'instances: -2', spec: { instances: -2 }, build: (s) => new PostgresCluster(s, 'pg', { instances: -2, storage: { size: Size.gibibytes(1) } }) },
  {
    what: 'a zero storage size',
    spec: { storage: { size: '0' } },
    libraryRule:
      "the props toolkit's requireSize (src/common/render.ts): the Cluster is accepted, but the operator's PVC of 0 bytes is not (kubernetes v1.36.3 pkg/apis/core/validation/validation.go ValidatePersistentVolumeClaimSpec: storage must be greater than zero)",
    build: (s) => new PostgresCluster(s, 'pg', { storage: { size: Size.gibibytes(0) } }),
  },
  {
    what: 'a parameter the operator fixes (webhook validateConfiguration)',
    spec: { postgresql: { parameters: { port: '5433' } } },
    build: (s) => new PostgresCluster(s, 'pg', { storage: { size: Size.gibibytes(1) }, postgresql: { parameters: { port: '5433' } } }),
  },
  {
    what: 'a parameter name that is no GUC name',
    spec: { postgresql: { parameters: { 'not a name': '1' } } },
    build: (s) => new PostgresCluster(s, 'pg', { storage: { size: Size.gibibytes(1) }, postgresql: { parameters: { 'not a name': '1' } } }),
  },
  {
    what: "a Database named 'postgres' (CRD rule: the name is reserved)",
    object: {
      apiVersion: 'postgresql.cnpg.io/v1',
      kind: 'Database',
      metadata: { name: 'pg-postgres' },
      spec: { cluster: { name: 'pg' }, name: 'postgres', owner: 'app' },
    },
    build: (s) => new PostgresCluster(s, 'pg', { storage: { size: Size.gibibytes(1) } }).addDatabase('postgres', { owner: 'app' }),
  },
  {
    what: 'a DatabaseRole named after a reserved role (CRD rule)',
    object: {
      apiVersion: 'postgresql.cnpg.io/v1',
      kind: 'DatabaseRole',
      metadata: { name: 'pg-streaming-replica' },
      spec: { cluster: { name: 'pg' }, name: 'streaming_replica' },
    },
    build: (s) =>
      new PostgresCluster(s, 'pg', { storage: { size: Size.gibibytes(1) } }).addDatabaseRole('streaming-replica', { roleName: 'streaming_replica' }),
  },
  {
    what: 'a PgBouncer parameter the Pooler webhook does not let a Pooler set',
    object: {
      apiVersion: 'postgresql.cnpg.io/v1',
      kind: 'Pooler',
      metadata: { name: 'pg-pooler-rw' },
      spec: { cluster: { name: 'pg' }, pgbouncer: { parameters: { listen_port: '6433' } } },
    },
    build: (s) => new PostgresCluster(s, 'pg', { storage: { size: Size.gibibytes(1) } }).addPooler('rw', { parameters: { listen_port: '6433' } }),
  },
  {
    what: 'an ImageCatalog with a major twice (CRD rule: unique majors)',
    names: /^test\/catalog: images/,
    object: {
      apiVersion: 'postgresql.cnpg.io/v1',
      kind: 'ImageCatalog',
      metadata: { name: 'catalog' },
      spec: {
        images: [
          { major: 17, image: 'ghcr.io/cloudnative-pg/postgresql:17.1' },
          { major: 17, image: 'ghcr.io/cloudnative-pg/postgresql:17.2' },
        ],
      },
    },
    build: (s) =>
      new ImageCatalog(s, 'catalog', {
        images: [
          { major: 17, image: 'ghcr.io/cloudnative-pg/postgresql:17.1' },
          { major: 17, image: 'ghcr.io/cloudnative-pg/postgresql:17.2' },
        ],
      }),
  },
  {
    what: 'a Publication of columns next to tablesInSchemas (CRD rule)',
    names: /^PublicationTarget\.objects: objects\.tables\[orders\]\.columns/,
    object: {
      apiVersion: 'postgresql.cnpg.io/v1',
      kind: 'Publication',
      metadata: { name: 'pg-orders' },
      spec: {
        cluster: { name: 'pg' },
        name: 'orders',
        dbname: 'app',
        target: { objects: [{ tablesInSchema: 'reporting' }, { table: { name: 'orders', columns: ['id'] } }] },
      },
    },
    build: (s) =>
      new PostgresCluster(s, 'pg', { storage: { size: Size.gibibytes(1) } }).addPublication('orders', {
        dbname: 'app',
        target: PublicationTarget.objects({ tables: [{ name: 'orders', columns: ['id'] }], tablesInSchemas: ['reporting'] }),
      }),
  },
];

describeWithControlPlane('generated apps against the real API server', (cp) => {
  test(`${APPS} apps of seed ${SEED}: every object allowed, by the real API server and by the library`, async () => {
    const objects: { app: number; object: KubeObject }[] = [];
    for (let n = 0; n < APPS; n++) for (const object of generate(n)) objects.push({ app: n, object });
    expect(objects.length).toBeGreaterThanOrEqual(1000);
    const results = await cp().dryRunAll(objects.map((o) => o.object));
    const problems: string[] = [];
    results.forEach((r, i) => {
      const model = modelVerdict(objects[i].object);
      if (!r.allowed || model.refused || r.warnings.length > 0)
        problems.push(
          `seed ${SEED} app ${objects[i].app}: ${r.kind} ${r.namespace ?? ''}/${r.name} warnings ${JSON.stringify(r.warnings)}\n${bothMessages(r, model)}`,
        );
    });
    const count = (kind: string) => objects.filter((o) => o.object.kind === kind).length;
    const kinds = ['Cluster', 'Database', 'DatabaseRole', 'Pooler', 'Publication', 'Subscription', 'ImageCatalog', 'ClusterImageCatalog']
      .map((k) => `${count(k)} ${k}s`)
      .join(', ');
    const managedRoles = objects.filter((o) => o.object.kind === 'Cluster' && (o.object.spec as any)?.managed?.roles !== undefined).length;
    process.stderr.write(
      `generated apps: ${APPS} apps, ${objects.length} objects dry-run (${kinds}; ${managedRoles} Clusters with managed roles), ${results.filter((r) => !r.allowed).length} refused\n`,
    );
    // every kind the generator writes is there to be judged
    for (const kind of ['Database', 'DatabaseRole', 'Pooler', 'Publication', 'Subscription', 'ImageCatalog', 'ClusterImageCatalog'])
      expect(count(kind)).toBeGreaterThan(5);
    expect(managedRoles).toBeGreaterThan(5);
    expect(problems).toEqual([]);
  }, 900_000);

  test.each(INVALID.map((c) => [c.what, c] as const))('the library refuses %s; the real API server too, or a documented library rule', async (_what, c) => {
    const chart = Testing.chart();
    expect(() => {
      c.build(chart);
      Testing.synth(chart);
    }).toThrow(c.names ?? /pg/);
    const [real] = await cp().dryRunAll([
      c.object ?? {
        apiVersion: 'postgresql.cnpg.io/v1',
        kind: 'Cluster',
        metadata: { name: 'pg' },
        spec: { instances: 1, storage: { size: '1Gi' }, ...c.spec },
      },
    ]);
    // refused for real, unless a documented library rule refuses what the API server accepts
    expect({ allowed: real.allowed, message: real.message }).toMatchObject({ allowed: c.libraryRule !== undefined });
  });
});
