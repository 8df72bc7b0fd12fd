import { archiveSourcesOf, destinationKeys, walArchivingOf } from '../../src/checks/wal-archive';

const BARMAN = 'barman-cloud.cloudnative-pg.io';
const cluster = (spec: object, annotations?: Record<string, string>) => ({ metadata: { name: 'pg', namespace: 'db', annotations }, spec });

describe('walArchivingOf: where a Cluster archives (plugin-barman-cloud v0.14.0 config.go NewFromCluster; cloudnative-pg v1.30.0 archiver.go internalRun)', () => {
  test("Barman Cloud: the last entry's barmanObjectName, the last enabled serverName, the Cluster name by default", () => {
    expect(walArchivingOf(cluster({ plugins: [{ name: BARMAN, parameters: { barmanObjectName: 'store' } }] }))).toEqual({
      name: 'pg',
      disabled: false,
      declaredArchiver: undefined,
      destinations: [{ via: 'plugin', objectStore: 'store', namespace: 'db', serverName: 'pg', path: 'spec.plugins[0].parameters.barmanObjectName' }],
      otherPlugins: [],
    });
    const two = walArchivingOf(
      cluster({
        plugins: [
          { name: BARMAN, parameters: { barmanObjectName: 'first', serverName: 'a' } },
          { name: 'x.example.com', isWALArchiver: true },
          { name: BARMAN, enabled: false, parameters: { barmanObjectName: 'last', serverName: 'b' } },
        ],
      }),
    );
    expect(two.destinations.map((d) => [d.objectStore, d.serverName, d.path])).toEqual([['last', 'a', 'spec.plugins[2].parameters.barmanObjectName']]);
    expect(two.declaredArchiver).toBe('x.example.com');
    expect(two.otherPlugins).toEqual(['x.example.com']);
  });

  test('in-tree: only without an archiver plugin; serverName defaults to the Cluster name; the annotation switches archiving off', () => {
    const section = { backup: { barmanObjectStore: { destinationPath: 's3://b/x', endpointURL: 'https://s3' } } };
    expect(walArchivingOf(cluster(section)).destinations).toEqual([
      {
        via: 'in-tree',
        destinationPath: 's3://b/x',
        endpointURL: 'https://s3',
        sectionServerName: '',
        serverName: 'pg',
        path: 'spec.backup.barmanObjectStore',
      },
    ]);
    expect(walArchivingOf(cluster({ ...section, plugins: [{ name: 'x.example.com', isWALArchiver: true }] })).destinations).toEqual([]);
    expect(walArchivingOf(cluster({}, { 'cnpg.io/skipWalArchiving': 'enabled' })).disabled).toBe(true);
    expect(walArchivingOf(cluster({}, { 'cnpg.io/skipWalArchiving': 'true' })).disabled).toBe(false);
  });

  test('sources: the plugin defaults to the recovering Cluster name, in-tree to the external cluster name', () => {
    const c = cluster({
      bootstrap: { recovery: { source: 'a' } },
      replica: { source: 'b' },
      externalClusters: [
        { name: 'a', plugin: { name: BARMAN, parameters: { barmanObjectName: 'store' } } },
        { name: 'b', barmanObjectStore: { destinationPath: 's3://b/x' } },
      ],
    });
    expect(archiveSourcesOf(c).map((s) => [s.role, s.externalCluster, s.destination.serverName, s.serverNameDefaulted])).toEqual([
      ['recovery', 'a', 'pg', true],
      ['replica', 'b', 'b', true],
    ]);
    // the plugin reads a recovery source's parameters whatever its `enabled` (config.go getRecoveryParameters)
    const off = cluster({
      bootstrap: { recovery: { source: 'a' } },
      externalClusters: [{ name: 'a', plugin: { name: BARMAN, enabled: false, parameters: { barmanObjectName: 'store', serverName: 'src' } } }],
    });
    expect(archiveSourcesOf(off).map((s) => s.destination.serverName)).toEqual(['src']);
  });

  test('destinationKeys: the WAL follows the ObjectStore configuration.serverName, the backups do not', () => {
    const d = walArchivingOf(cluster({ plugins: [{ name: BARMAN, parameters: { barmanObjectName: 'store' } }] })).destinations[0];
    const store = { spec: { configuration: { destinationPath: 's3://b/x/', serverName: 'shared' } } };
    const keys = destinationKeys(d, () => store);
    expect(keys.walServer).toBe('shared');
    expect(keys.backups).not.toBe(keys.wal);
    expect(destinationKeys(d).backups).toBe(destinationKeys(d).wal);
  });
});
