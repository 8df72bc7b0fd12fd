import { checkBarmanCloudCluster, checkBarmanCloudDeployment } from '../../src/checks/barman-cloud';

const B = 'barman-cloud.cloudnative-pg.io';
const store = (name: string, namespace = 'db') => ({ kind: 'ObjectStore', metadata: { name, namespace }, spec: {} });
const cluster = (spec: object, name = 'pg') => ({ kind: 'Cluster', metadata: { name, namespace: 'db' }, spec });

describe('checkBarmanCloudCluster', () => {
  test('barmanObjectName with an ObjectStore in the Cluster namespace passes', () => {
    expect(
      checkBarmanCloudCluster(cluster({ plugins: [{ name: B, isWALArchiver: true, parameters: { barmanObjectName: 'store', serverName: 'pg' } }] }), [
        store('store'),
      ]),
    ).toEqual([]);
  });

  test('a different key means no sidecar: an error, plus a warning on the ignored key', () => {
    expect(checkBarmanCloudCluster(cluster({ plugins: [{ name: B, parameters: { objectStoreName: 'store' } }] }))).toEqual([
      {
        severity: 'warning',
        path: 'spec.plugins[0].parameters.objectStoreName',
        message: "Barman Cloud reads only barmanObjectName and serverName; 'objectStoreName' is ignored",
        fix: 'rename it to barmanObjectName',
      },
      {
        severity: 'error',
        path: 'spec.plugins[0].parameters.barmanObjectName',
        message: "is missing; Barman Cloud's configuration check fails, its lifecycle hook injects no sidecar, and WAL archiving through the plugin fails",
        fix: "set parameters.barmanObjectName to the name of an ObjectStore in the Cluster's namespace",
      },
    ]);
  });

  test('a Cluster only recovering through Barman Cloud needs no barmanObjectName of its own', () => {
    expect(
      checkBarmanCloudCluster(
        cluster({
          plugins: [{ name: B }],
          bootstrap: { recovery: { source: 'origin' } },
          externalClusters: [{ name: 'origin', plugin: { name: B, parameters: { barmanObjectName: 'store', serverName: 'old' } } }],
        }),
      ),
    ).toEqual([]);
  });

  test('the ObjectStore is looked up in the Cluster namespace only', () => {
    const c = cluster({ plugins: [{ name: B, parameters: { barmanObjectName: 'store' } }] });
    expect(checkBarmanCloudCluster(c, [store('store', 'backups')])).toEqual([
      expect.objectContaining({
        severity: 'error',
        message: "ObjectStore 'store' is in namespace backups, but Barman Cloud looks it up only in the Cluster's namespace 'db'",
      }),
    ]);
    expect(checkBarmanCloudCluster(c, []).map((i) => i.severity)).toEqual(['warning']);
  });

  test('a recovered Cluster archiving into its source destination and serverName fails the empty-archive check', () => {
    const recover = (own: object, source: object) =>
      checkBarmanCloudCluster(
        cluster(
          {
            plugins: [{ name: B, isWALArchiver: true, parameters: { barmanObjectName: 'store', ...own } }],
            bootstrap: { recovery: { source: 'origin' } },
            externalClusters: [{ name: 'origin', plugin: { name: B, parameters: { barmanObjectName: 'store', ...source } } }],
          },
          'pg',
        ),
      );
    // Both server names default to the recovering Cluster's own name.
    expect(recover({}, {}).map((i) => i.message)).toEqual([
      "Cluster 'pg' recovers from ObjectStore 'store' server 'pg' and archives into the same ObjectStore and server name; Barman Cloud's empty-archive check fails before restoring and the recovery stops; cnpg.io/skipEmptyWalArchiveCheck: enabled skips the check and continues the source's archive on a new timeline",
    ]);
    expect(recover({ serverName: 'old' }, { serverName: 'old' }).length).toBe(1);
    expect(recover({ serverName: 'pg-v2' }, { serverName: 'pg' })).toEqual([]);
    expect(recover({}, { serverName: 'old' })).toEqual([]);
  });

  test('the last spec.plugins entry with the name gives the parameters, even a disabled one', () => {
    expect(
      checkBarmanCloudCluster(
        cluster({
          plugins: [
            { name: B, parameters: { barmanObjectName: 'a' } },
            { name: B, enabled: false, parameters: {} },
          ],
        }),
      ).map((i) => i.path),
    ).toEqual(['spec.plugins[1].parameters.barmanObjectName']);
    expect(
      checkBarmanCloudCluster(
        cluster({
          plugins: [
            { name: B, parameters: {} },
            { name: B, parameters: { barmanObjectName: 'a' } },
          ],
        }),
      ),
    ).toEqual([]);
  });
});

describe('checkBarmanCloudDeployment', () => {
  test('SIDECAR_IMAGE set, from a value or a reference, passes', () => {
    expect(
      checkBarmanCloudDeployment({ env: [{ name: 'SIDECAR_IMAGE', value: 'ghcr.io/cloudnative-pg/plugin-barman-cloud-sidecar:v0.14.0' }] }, false),
    ).toEqual([]);
    expect(checkBarmanCloudDeployment({ env: [{ name: 'SIDECAR_IMAGE', valueFrom: { secretKeyRef: { name: 's', key: 'SIDECAR_IMAGE' } } }] }, false)).toEqual(
      [],
    );
  });
  test('missing or empty is an error; possibly in an unknown envFrom a warning', () => {
    expect(checkBarmanCloudDeployment({}, false).map((i) => i.severity)).toEqual(['error']);
    expect(checkBarmanCloudDeployment({ env: [{ name: 'SIDECAR_IMAGE', value: '' }] }, false)[0].message).toBe(
      'SIDECAR_IMAGE is empty; the Barman Cloud operator command refuses to start',
    );
    expect(checkBarmanCloudDeployment({ envFrom: [{ configMapRef: { name: 'x' } }] }, true).map((i) => i.severity)).toEqual(['warning']);
  });
});
