import { analyzeManifests } from '../../../../src/doctor/check-manifests';
import { DoctorOptions } from '../../../../src/doctor/report';
import { Doc, doc, fixture, ofRule } from '../../helpers';

const BACKUP = 'Backup';
const SCHEDULED = 'ScheduledBackup';

/** The good fixture (Cluster app/pg, Backup pg-now, ScheduledBackup pg-daily), changed. */
function run(change: (docs: Doc[]) => void, options: DoctorOptions = {}) {
  const docs = fixture('good-plugin.yaml');
  change(docs);
  return ofRule(analyzeManifests(docs, options).findings, 'CNPGI118').map((f) => [f.severity, f.object, f.path, f.message, f.fix]);
}

const backup = (docs: Doc[]) => doc(docs, BACKUP, 'pg-now');
const scheduled = (docs: Doc[]) => doc(docs, SCHEDULED, 'pg-daily');
const cluster = (docs: Doc[]) => doc(docs, 'Cluster', 'pg');

function addCluster(docs: Doc[], name: string, namespace: string) {
  docs.push({ ...structuredClone(cluster(docs)), metadata: { name, namespace } });
}

describe('CNPGI118 backup-cluster', () => {
  test('a misspelt Cluster: a warning with the nearest name, an error with --complete', () => {
    const misspelt = (docs: Doc[]) => {
      cluster(docs).metadata.name = 'orders';
      backup(docs).spec.cluster.name = 'ordres';
      scheduled(docs).spec.cluster.name = 'orders';
    };
    expect(run(misspelt)).toEqual([
      [
        'warning',
        'Backup/app/pg-now',
        'spec.cluster.name',
        `Cluster 'ordres' is not in the input in namespace 'app' (did you mean 'orders'?); the operator keeps the Backup pending and retries every 30 seconds (event FindingCluster "Unknown cluster ordres"); no backup is taken until it exists`,
        'write spec.cluster.name: orders',
      ],
    ]);
    expect(run(misspelt, { complete: true })).toEqual([
      [
        'error',
        'Backup/app/pg-now',
        'spec.cluster.name',
        `Cluster 'ordres' is not in the input in namespace 'app' (did you mean 'orders'?); the operator keeps the Backup pending and retries every 30 seconds (event FindingCluster "Unknown cluster ordres"); no backup is taken until it exists; the input is said to be complete, so nothing else provides it`,
        'write spec.cluster.name: orders',
      ],
    ]);
  });

  test('a ScheduledBackup: Backups are created and stay pending; with backupOwnerReference: cluster none is created', () => {
    expect(run((d) => (scheduled(d).spec.cluster.name = 'reports'), { complete: true })).toEqual([
      [
        'error',
        'ScheduledBackup/app/pg-daily',
        'spec.cluster.name',
        "Cluster 'reports' is not in the input in namespace 'app'; the operator still creates a Backup at every scheduled time, and each stays pending (event FindingCluster) until it exists; the input is said to be complete, so nothing else provides it",
        "name a Cluster of namespace 'app' in spec.cluster.name, or add Cluster 'reports' to the input",
      ],
    ]);
    const owned = run((d) => {
      scheduled(d).spec.cluster.name = 'reports';
      scheduled(d).spec.backupOwnerReference = 'cluster';
    });
    expect(owned.map((f) => f[0])).toEqual(['warning']);
    expect(owned[0][3]).toContain(
      'with backupOwnerReference: cluster the operator reads the Cluster to own each Backup, fails and creates none until it exists',
    );
  });

  test('a Cluster of that name in another namespace does not count, and is named', () => {
    expect(
      run((d) => {
        cluster(d).metadata.namespace = 'db';
        // the fixture's other findings on the moved Cluster are not this rule's
      }),
    ).toEqual([
      [
        'warning',
        'Backup/app/pg-now',
        'spec.cluster.name',
        `Cluster 'pg' is not in the input in namespace 'app' (a Cluster 'pg' is in namespace 'db', where the operator does not look: a backup names a Cluster of its own namespace); the operator keeps the Backup pending and retries every 30 seconds (event FindingCluster "Unknown cluster pg"); no backup is taken until it exists`,
        "name a Cluster of namespace 'app' in spec.cluster.name, or add Cluster 'pg' to the input in 'app' (or move the Backup to the Cluster's namespace)",
      ],
      [
        'warning',
        'ScheduledBackup/app/pg-daily',
        'spec.cluster.name',
        "Cluster 'pg' is not in the input in namespace 'app' (a Cluster 'pg' is in namespace 'db', where the operator does not look: a backup names a Cluster of its own namespace); the operator still creates a Backup at every scheduled time, and each stays pending (event FindingCluster) until it exists",
        "name a Cluster of namespace 'app' in spec.cluster.name, or add Cluster 'pg' to the input in 'app' (or move the ScheduledBackup to the Cluster's namespace)",
      ],
    ]);
  });

  test('the nearest name comes from the namespace of the backup only', () => {
    const found = run((d) => {
      addCluster(d, 'orders', 'other');
      backup(d).spec.cluster.name = 'ordres';
    });
    expect(found).toHaveLength(1);
    expect(found[0][3]).not.toContain('did you mean');
    expect(found[0][4]).toBe("name a Cluster of namespace 'app' in spec.cluster.name, or add Cluster 'ordres' to the input");
  });

  test('near misses pass: the Cluster present, without a namespace in the default one, a name in another case is another name', () => {
    expect(run(() => undefined, { complete: true })).toEqual([]);
    // objects without a namespace are in the default namespace (-n), all of them
    expect(
      run(
        (d) => {
          for (const o of [cluster(d), backup(d), scheduled(d)]) delete o.metadata.namespace;
        },
        { complete: true, defaultNamespace: 'app' },
      ),
    ).toEqual([]);
    // Kubernetes names are lower case: 'PG' is not 'pg' (and the schema says so), but the hint offers it
    const upper = run((d) => (backup(d).spec.cluster.name = 'PG'));
    expect(upper.map((f) => f[4])).toEqual(['write spec.cluster.name: pg']);
  });

  test('what is not this rule: no name (the schema), an unrendered variable, a Backup of another API group', () => {
    expect(run((d) => delete backup(d).spec.cluster)).toEqual([]);
    expect(run((d) => (backup(d).spec.cluster.name = '${CLUSTER}'), { complete: true })).toEqual([]);
    // a Cluster whose name holds a variable may be the one the Backup names once rendered
    expect(run((d) => (cluster(d).metadata.name = '${APP}-db'), { complete: true })).toEqual([]);
    expect(
      run(
        (d) => {
          d.push({ apiVersion: 'velero.io/v1', kind: 'Backup', metadata: { name: 'nightly', namespace: 'velero' }, spec: { cluster: { name: 'x' } } });
        },
        { complete: true },
      ),
    ).toEqual([]);
  });
});
