// Fleet scale: one Barman Cloud plugin and N Clusters, each archiving WAL through it, with a
// scheduled backup and an ObjectStore of its own. Built twice: with the library's constructs,
// and with the generated L1 classes directly (what a user would write by hand), which must give
// byte-identical YAML. Run as a fresh process per measurement:
//
//   node <built>/bench/fleet.js library|baseline <N> <plugin-objects.json>
//
// prints one JSON line: { mode, n, ms, maxRssMb, sha256, bytes }.
import { createHash } from 'crypto';
import { readFileSync } from 'fs';
import { ApiObject, App, Chart, JsonPatch, Size } from 'cdk8s';
import { Construct } from 'constructs';
import { ObjectStore as CnpgObjectStore } from '../imports/barmancloud.cnpg.io';
import { Cluster, ScheduledBackup, ScheduledBackupSpecBackupOwnerReference, ScheduledBackupSpecMethod } from '../imports/postgresql.cnpg.io';
import { BackupSchedule, BarmanCloudPlugin, ObjectStore, ObjectStoreCredentials, PostgresCluster } from '../src';

const PLUGIN_NAME = 'barman-cloud.cloudnative-pg.io';
const SECRET = 'backup-credentials';

/** The fleet through the library's constructs. */
export function fleetWithLibrary(n: number): string {
  const app = new App();
  const system = new Chart(app, 'cnpg-system', { namespace: 'cnpg-system' });
  const barman = new BarmanCloudPlugin(system, 'barman');
  const apps = new Chart(app, 'apps', { namespace: 'databases' });
  for (let i = 0; i < n; i++) {
    const store = new ObjectStore(apps, `store-${i}`, {
      destinationPath: `s3://backups/pg-${i}`,
      credentials: ObjectStoreCredentials.s3AccessKeys({
        accessKeyId: { name: SECRET, key: 'ACCESS_KEY_ID' },
        secretAccessKey: { name: SECRET, key: 'ACCESS_SECRET_KEY' },
      }),
    });
    const pg = new PostgresCluster(apps, `pg-${i}`, { instances: 3, storage: { size: Size.gibibytes(10) } });
    pg.addPlugin(barman, { isWalArchiver: true, objectStore: store });
    pg.addScheduledBackup('nightly', { plugin: barman, schedule: BackupSchedule.daily(2) });
  }
  return app.synthYaml();
}

/**
 * The same YAML from the generated L1 classes. The plugin install is the same list of objects
 * for every N, so it is taken as given (JSON synthesized once, outside the timing); the N
 * Clusters, ObjectStores and ScheduledBackups are built object by object, with the names the
 * library gives them (the construct id; `<cluster>-<id>` for the ScheduledBackup).
 */
export function fleetBaseline(n: number, pluginObjects: any[]): string {
  const app = new App();
  const system = new Chart(app, 'cnpg-system', { namespace: 'cnpg-system' });
  pluginObjects.forEach((o, i) => {
    const obj = new ApiObject(system, `o${i}`, o);
    // Cluster-scoped objects (ClusterRole, ClusterRoleBinding) carry no namespace.
    if (!o.metadata?.namespace) obj.addJsonPatch(JsonPatch.remove('/metadata/namespace'));
  });
  const apps = new Chart(app, 'apps', { namespace: 'databases' });
  for (let i = 0; i < n; i++) {
    const storeScope = new Construct(apps, `store-${i}`);
    const store = new CnpgObjectStore(storeScope, 'Resource', {
      // The library names stateful objects after their construct id.
      metadata: { name: `store-${i}` },
      spec: {
        configuration: {
          destinationPath: `s3://backups/pg-${i}`,
          s3Credentials: {
            accessKeyId: { name: SECRET, key: 'ACCESS_KEY_ID' },
            secretAccessKey: { name: SECRET, key: 'ACCESS_SECRET_KEY' },
          },
        },
      },
    });
    const pgScope = new Construct(apps, `pg-${i}`);
    const name = `pg-${i}`;
    const cluster = new Cluster(pgScope, 'Resource', {
      metadata: { name },
      spec: {
        instances: 3,
        storage: { size: '10Gi' },
        plugins: [{ name: PLUGIN_NAME, enabled: true, isWalArchiver: true, parameters: { barmanObjectName: store.name } }],
      },
    });
    const backup = new ScheduledBackup(new Construct(pgScope, 'nightly'), 'Resource', {
      metadata: { name: `${name}-nightly` },
      spec: {
        cluster: { name },
        schedule: '0 0 2 * * *',
        method: ScheduledBackupSpecMethod.PLUGIN,
        pluginConfiguration: { name: PLUGIN_NAME },
        backupOwnerReference: ScheduledBackupSpecBackupOwnerReference.NONE,
      },
    });
    backup.node.addDependency(cluster);
  }
  return app.synthYaml();
}

/** The plugin install's objects, as the library synthesizes them. */
export function pluginObjects(): any[] {
  const app = new App();
  const system = new Chart(app, 'cnpg-system', { namespace: 'cnpg-system' });
  new BarmanCloudPlugin(system, 'barman');
  return system.toJson();
}

if (require.main === module) {
  const [mode, nText, pluginsPath] = process.argv.slice(2);
  const n = Number(nText);
  const plugins = mode === 'baseline' ? JSON.parse(readFileSync(pluginsPath, 'utf8')) : [];
  const t0 = process.hrtime.bigint();
  const yaml = mode === 'baseline' ? fleetBaseline(n, plugins) : fleetWithLibrary(n);
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  console.log(
    JSON.stringify({
      mode,
      n,
      ms,
      maxRssMb: Math.round(process.resourceUsage().maxRSS / 1024),
      sha256: createHash('sha256').update(yaml).digest('hex'),
      bytes: yaml.length,
    }),
  );
}
