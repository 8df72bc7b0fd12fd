/*
 * Every construct derives valid object names from any id it accepts: an id with `_`, a space, an
 * upper-case letter or a dot (on the construct itself or on a parent) either gives names the API
 * server accepts, or is refused with the library's error naming the id and the fix; never a name
 * cdk8s or the API server refuses with a generic message (PluginMonitoring's PrometheusRule once
 * kept the `_`). A construct added to src/index.ts fails this test until it has a builder here.
 */
import * as path from 'path';
import { Chart, Size, Testing } from 'cdk8s';
import { Construct } from 'constructs';
import * as lib from '../../src';
import {
  BackupSchedule,
  BarmanCloudPlugin,
  ClusterImageCatalog,
  CnpgIValidationError,
  CnpgOperator,
  Database,
  DatabaseRole,
  DoctorReaderRole,
  HelloWorldPlugin,
  ImageCatalog,
  ObjectStore,
  ObjectStoreCredentials,
  Plugin,
  PluginBackup,
  PluginCertificates,
  PluginManifest,
  PluginMonitoring,
  PluginScheduledBackup,
  PluginTls,
  Pooler,
  PostgresCluster,
  Publication,
  PublicationTarget,
  ScaleToZeroPlugin,
  SidecarPlugin,
  StandalonePlugin,
  Subscription,
} from '../../src';
import { analyzeManifests } from '../../src/doctor/check-manifests';

const FIXTURES = path.join(__dirname, '..', 'fixtures');
const BARMAN = Plugin.fromPluginName('barman-cloud.cloudnative-pg.io');
const storage = { size: Size.gibibytes(1) };
const cluster = (scope: Construct) => new PostgresCluster(scope, 'pg', { storage });

/** Builds the construct under test as `new X(scope, id, ...)`, with what it needs beside it in `deps`. */
const BUILDERS: Record<string, (scope: Construct, id: string, deps: Construct) => void> = {
  PluginCertificates: (s, id) => new PluginCertificates(s, id, { tls: PluginTls.selfSigned(), serviceName: 'plugin', namespace: 'apps' }),
  StandalonePlugin: (s, id) => new StandalonePlugin(s, id, { pluginName: 'a.example.com', image: 'example.com/plugin:1.0.0' }),
  SidecarPlugin: (s, id, deps) => {
    const operator = CnpgOperator.fromManifest(deps, 'cnpg', { path: path.join(FIXTURES, 'operator', 'operator.yaml') });
    new SidecarPlugin(s, id, { operator, pluginName: 'a.example.com', image: 'example.com/plugin:1.0.0' });
  },
  CnpgOperator: (s, id) => CnpgOperator.fromManifest(s, id, { path: path.join(FIXTURES, 'operator', 'operator.yaml') }),
  PluginManifest: (s, id) => new PluginManifest(s, id, { path: path.join(FIXTURES, 'plugins', 'backup-plugin-release.yaml') }),
  DatabaseRole: (s, id, deps) => new DatabaseRole(s, id, { cluster: cluster(deps) }),
  Database: (s, id, deps) => new Database(s, id, { cluster: cluster(deps), owner: 'app' }),
  PostgresCluster: (s, id) => new PostgresCluster(s, id, { storage }),
  PluginBackup: (s, id) => new PluginBackup(s, id, { cluster: PostgresCluster.fromClusterName('pg'), plugin: BARMAN }),
  PluginScheduledBackup: (s, id) =>
    new PluginScheduledBackup(s, id, { cluster: PostgresCluster.fromClusterName('pg'), plugin: BARMAN, schedule: BackupSchedule.daily(2) }),
  Pooler: (s, id, deps) => new Pooler(s, id, { cluster: cluster(deps) }),
  ObjectStore: (s, id) => new ObjectStore(s, id, { destinationPath: 's3://bucket/path', credentials: ObjectStoreCredentials.s3IamRole() }),
  BarmanCloudPlugin: (s, id) => new BarmanCloudPlugin(s, id),
  HelloWorldPlugin: (s, id) => new HelloWorldPlugin(s, id),
  ScaleToZeroPlugin: (s, id) => new ScaleToZeroPlugin(s, id),
  ImageCatalog: (s, id) => new ImageCatalog(s, id, { images: [{ major: 17, image: 'ghcr.io/cloudnative-pg/postgresql:17.2' }] }),
  ClusterImageCatalog: (s, id) => new ClusterImageCatalog(s, id, { images: [{ major: 17, image: 'ghcr.io/cloudnative-pg/postgresql:17.2' }] }),
  DoctorReaderRole: (s, id) => new DoctorReaderRole(s, id),
  Publication: (s, id, deps) => new Publication(s, id, { cluster: cluster(deps), dbname: 'app', target: PublicationTarget.allTables() }),
  Subscription: (s, id, deps) => {
    const publisher = new PostgresCluster(deps, 'publisher', { storage, spec: { enableSuperuserAccess: true } });
    const publication = new Publication(deps, 'orders', { cluster: publisher, dbname: 'app', target: PublicationTarget.allTables() });
    new Subscription(s, id, { cluster: cluster(deps), publication });
  },
  PluginMonitoring: (s, id, deps) => {
    cluster(deps);
    new StandalonePlugin(deps, 'plugin', { pluginName: 'a.example.com', image: 'example.com/plugin:1.0.0' });
    new PluginMonitoring(s, id);
  },
};

const AWKWARD_IDS = ['under_score', 'with space', 'Upper', 'dot.ted', '_lead'];

/** The exported classes that are constructs. */
function exportedConstructs(): string[] {
  return Object.entries(lib)
    .filter(([, v]) => typeof v === 'function' && (v as any).prototype instanceof Construct)
    .map(([k]) => k)
    .sort();
}

/** Synthesizes `build` with the construct at `id` (under a parent of id `parent` when given). */
function outcome(name: string, id: string, parent?: string): { objects?: any[]; error?: unknown } {
  const chart = new Chart(Testing.app(), 'apps', { namespace: 'apps' });
  const deps = new Construct(chart, 'deps');
  const scope = parent === undefined ? chart : new Construct(chart, parent);
  try {
    BUILDERS[name](scope, id, deps);
    return { objects: Testing.synth(chart) };
  } catch (error) {
    return { error };
  }
}

/** The doctor's findings on object names (CNPGI063 checks metadata as the API server does). */
function nameFindings(objects: any[]): string[] {
  return analyzeManifests(objects)
    .findings.filter((f) => f.ruleId === 'CNPGI063')
    .map((f) => `${f.object}: ${f.message}`);
}

test('the name check finds a name the API server refuses', () => {
  expect(nameFindings([{ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a_b', namespace: 'apps' } }])).toHaveLength(1);
});

test('every exported construct has a builder here', () => {
  expect(exportedConstructs()).toEqual(Object.keys(BUILDERS).sort());
});

describe.each(Object.keys(BUILDERS))('%s', (name) => {
  test.each(AWKWARD_IDS)('with the id %j: valid names, or the id refused with the fix', (id) => {
    const { objects, error } = outcome(name, id);
    if (error !== undefined) {
      expect(error).toBeInstanceOf(CnpgIValidationError);
      // the library's refusal: the construct path, the prop `id`, and the fix
      expect((error as Error).message).toMatch(
        new RegExp(`^apps/${id.replace('.', '\\.')}: id '[^']*${id.replace('.', '\\.')}' .*; give the construct an id such as `),
      );
      return;
    }
    expect(objects!.length).toBeGreaterThan(0);
    expect(nameFindings(objects!)).toEqual([]);
  });

  test('under parents with awkward ids: valid names, nothing refused', () => {
    for (const parent of AWKWARD_IDS) {
      const { objects, error } = outcome(name, 'ok', parent);
      expect(error).toBeUndefined();
      expect(nameFindings(objects!)).toEqual([]);
    }
  });
});
