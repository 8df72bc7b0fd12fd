import { CnpgIValidationError, PLAN_RULES, formatPlanText, planChanges } from '../../src';
import { BARMAN, Obj, archiving, backup, cluster, deployment, edited, managed, objectStore, pluginService, scheduledBackup } from './fixtures';

/** `ruleId severity object` of each finding, the shape most tests compare. */
function plan(previous: Obj[], next: Obj[]): string[] {
  return planChanges(previous, next).findings.map((f) => `${f.ruleId} ${f.severity} ${f.object}`);
}

function only(previous: Obj[], next: Obj[]) {
  const { findings } = planChanges(previous, next);
  expect(findings).toHaveLength(1);
  return findings[0];
}

describe('rule metadata', () => {
  test('ids in the CNPGI2xx range, unique, kebab-case names, a citation in every why', () => {
    const ids = PLAN_RULES.map((r) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const r of PLAN_RULES) {
      expect(r.id).toMatch(/^CNPGI2\d\d$/);
      expect(r.name).toMatch(/^[a-z]+(-[a-z]+)*$/);
      expect(r.why).toMatch(/(cloudnative-pg v1\.30\.0|plugin-barman-cloud v0\.14\.0) [\w/.-]+\.go \w+/);
      expect(r.severities.length).toBeGreaterThan(0);
      for (const s of r.severities) expect(s.when.length).toBeGreaterThan(3);
      expect(r.kinds.length).toBeGreaterThan(0);
    }
  });
});

describe('data loss', () => {
  test('a Cluster that disappears', () => {
    const f = only([cluster('orders')], []);
    expect(f).toMatchObject({ ruleId: 'CNPGI201', severity: 'error', object: 'Cluster/apps/orders', before: 'orders', after: null });
    expect(f.message).toBe('disappears: with pruning the Cluster is deleted, and its PVCs with it');
  });

  test('a Cluster renamed (same spec) is named as such, with the name to pin', () => {
    const f = only([cluster('databases-pg-c8505f9f')], [cluster('pg')]);
    expect(f).toMatchObject({ ruleId: 'CNPGI201', object: 'Cluster/apps/databases-pg-c8505f9f', before: 'databases-pg-c8505f9f', after: 'pg' });
    expect(f.message).toMatch(/^is renamed to 'pg' \(same namespace and the same spec\)/);
    expect(f.fix).toBe("pin `metadata.name: databases-pg-c8505f9f` on the Cluster now named 'pg'");
  });

  test('a Cluster renamed with another spec but the same WAL archive', () => {
    const f = only([archiving('old', 'store', { serverName: 'orders' })], [archiving('new', 'store', { serverName: 'orders' }, { instances: 1 })]);
    expect(f.after).toBe('new');
    expect(f.message).toMatch(/the same WAL archive/);
  });

  test('a Cluster in another namespace is not a rename', () => {
    const f = only([cluster('old')], [cluster('new', {}, 'other')]);
    expect(f.after).toBeNull();
  });

  test('pass: the same Cluster, changed in place (more instances, a new parameter)', () => {
    expect(plan([cluster('orders')], [cluster('orders', { instances: 5, postgresql: { parameters: { max_connections: '200' } } })])).toEqual([]);
  });

  test('an ObjectStore that Clusters use disappears or is renamed (same destination)', () => {
    expect(plan([archiving('pg', 'store'), objectStore('store')], [archiving('pg', 'store')])).toEqual(['CNPGI202 error ObjectStore/apps/store']);
    const f = planChanges([archiving('pg', 'old'), objectStore('old')], [archiving('pg', 'new'), objectStore('new')]).findings.find(
      (x) => x.ruleId === 'CNPGI202',
    )!;
    expect(f).toMatchObject({ severity: 'error', before: 'old', after: 'new', fix: "pin `metadata.name: old` on the ObjectStore now named 'new'" });
  });

  test('an unused ObjectStore that disappears is a warning; an unchanged one nothing', () => {
    expect(plan([objectStore('store')], [])).toEqual(['CNPGI202 warning ObjectStore/apps/store']);
    expect(plan([archiving('pg'), objectStore('store')], [archiving('pg'), objectStore('store')])).toEqual([]);
  });

  test('a PersistentVolumeClaim that disappears; pass: one that stays', () => {
    const pvc: Obj = {
      apiVersion: 'v1',
      kind: 'PersistentVolumeClaim',
      metadata: { name: 'data', namespace: 'apps' },
      spec: { resources: { requests: { storage: '1Gi' } } },
    };
    expect(plan([pvc], [])).toEqual(['CNPGI203 error PersistentVolumeClaim/apps/data']);
    expect(
      plan(
        [pvc],
        [
          edited(pvc, (p) => {
            p.metadata.labels = { a: 'b' };
          }),
        ],
      ),
    ).toEqual([]);
  });
});

describe('refused on update', () => {
  test('storage decreased (size, PVC template, WAL, tablespace); pass: grown', () => {
    const f = only([cluster('pg')], [cluster('pg', { storage: { size: '5Gi' } })]);
    expect(f).toMatchObject({ ruleId: 'CNPGI210', severity: 'error', path: 'spec.storage.size', before: '10Gi', after: '5Gi' });
    expect(plan([cluster('pg')], [cluster('pg', { storage: { pvcTemplate: { resources: { requests: { storage: '9000M' } } } } })])).toEqual([
      'CNPGI210 error Cluster/apps/pg',
    ]);
    expect(plan([cluster('pg', { walStorage: { size: '2Gi' } })], [cluster('pg', { walStorage: { size: '1Gi' } })])).toEqual([
      'CNPGI210 error Cluster/apps/pg',
    ]);
    const ts = (size: string) => ({ tablespaces: [{ name: 'idx', storage: { size } }] });
    expect(plan([cluster('pg', ts('2Gi'))], [cluster('pg', ts('1Gi'))])).toEqual(['CNPGI210 error Cluster/apps/pg']);
    expect(plan([cluster('pg')], [cluster('pg', { storage: { size: '10240Mi' } })])).toEqual([]);
    expect(plan([cluster('pg')], [cluster('pg', { storage: { size: '20Gi' } })])).toEqual([]);
    // A size that does not parse is not compared, as GetSizeOrNil returns nil.
    expect(plan([cluster('pg')], [cluster('pg', { storage: { size: 'lots' } })])).toEqual([]);
  });

  test('WAL storage removed; pass: added', () => {
    expect(only([cluster('pg', { walStorage: { size: '1Gi' } })], [cluster('pg')])).toMatchObject({ ruleId: 'CNPGI211', before: '1Gi', after: null });
    expect(plan([cluster('pg')], [cluster('pg', { walStorage: { size: '1Gi' } })])).toEqual([]);
  });

  test('a tablespace removed; pass: one added', () => {
    const one = { tablespaces: [{ name: 'idx', storage: { size: '1Gi' } }] };
    const two = {
      tablespaces: [
        { name: 'idx', storage: { size: '1Gi' } },
        { name: 'more', storage: { size: '1Gi' } },
      ],
    };
    expect(plan([cluster('pg', two)], [cluster('pg', one)])).toEqual(['CNPGI212 error Cluster/apps/pg']);
    expect(plan([cluster('pg', one)], [cluster('pg')])).toEqual(['CNPGI212 error Cluster/apps/pg']);
    expect(plan([cluster('pg', one)], [cluster('pg', two)])).toEqual([]);
  });

  test('PostgreSQL major: downgrade and upgrade below 16 refused; upgrade to 17 and minor changes pass', () => {
    const img = (tag: string) => ({ imageName: `ghcr.io/cloudnative-pg/postgresql:${tag}` });
    expect(only([cluster('pg', img('17.5'))], [cluster('pg', img('16.9'))])).toMatchObject({
      ruleId: 'CNPGI213',
      before: 17,
      after: 16,
      path: 'spec.imageName',
    });
    expect(plan([cluster('pg', img('13.20'))], [cluster('pg', img('15.1-bookworm'))])).toEqual(['CNPGI213 error Cluster/apps/pg']);
    expect(
      plan(
        [cluster('pg', { imageCatalogRef: { apiGroup: 'postgresql.cnpg.io', kind: 'ImageCatalog', name: 'pg', major: 17 } })],
        [cluster('pg', { imageCatalogRef: { apiGroup: 'postgresql.cnpg.io', kind: 'ImageCatalog', name: 'pg', major: 16 } })],
      ),
    ).toEqual(['CNPGI213 error Cluster/apps/pg']);
    // No image is the operator's default image, PostgreSQL 18.
    expect(plan([cluster('pg')], [cluster('pg', img('17.5'))])).toEqual(['CNPGI213 error Cluster/apps/pg']);
    // The data directory's major, when the previous side is a live object, wins over its spec.
    const live = edited(cluster('pg', img('16.9')), (c) => {
      c.status = { pgDataImageInfo: { majorVersion: 17 } };
    });
    expect(plan([live], [cluster('pg', img('16.9'))])).toEqual(['CNPGI213 error Cluster/apps/pg']);
    expect(plan([cluster('pg', img('16.9'))], [cluster('pg', img('17.5'))])).toEqual([]);
    expect(plan([cluster('pg', img('17.4'))], [cluster('pg', img('17.5'))])).toEqual([]);
    expect(plan([cluster('pg', img('18.4'))], [cluster('pg')])).toEqual([]);
  });

  test('immutable fields: postgresUID/GID and serviceAccountName; pass: the default written out', () => {
    expect(only([cluster('pg')], [cluster('pg', { postgresUID: 1000 })])).toMatchObject({ ruleId: 'CNPGI214', before: 26, after: 1000 });
    expect(plan([cluster('pg', { postgresGID: 26 })], [cluster('pg', { postgresGID: 27 })])).toEqual(['CNPGI214 error Cluster/apps/pg']);
    expect(plan([cluster('pg', { serviceAccountName: 'a' })], [cluster('pg', { serviceAccountName: 'b' })])).toEqual(['CNPGI214 error Cluster/apps/pg']);
    expect(plan([cluster('pg')], [cluster('pg', { postgresUID: 26, postgresGID: 26 })])).toEqual([]);
    expect(plan([cluster('pg')], [cluster('pg', { serviceAccountName: 'b' })])).toEqual([]);
  });

  test('replication slot prefix changed while HA slots are enabled; pass: while disabled', () => {
    const slots = (enabled: boolean, slotPrefix: string) => ({ replicationSlots: { highAvailability: { enabled, slotPrefix } } });
    expect(plan([cluster('pg')], [cluster('pg', slots(true, 'x_'))])).toEqual(['CNPGI215 error Cluster/apps/pg']);
    expect(plan([cluster('pg', slots(true, 'x_'))], [cluster('pg')])).toEqual(['CNPGI215 error Cluster/apps/pg']);
    expect(plan([cluster('pg', slots(false, '_cnpg_'))], [cluster('pg', slots(false, 'x_'))])).toEqual([]);
  });

  test('wal_level to minimal; pass: replica to logical', () => {
    const wal = (level: string) => ({ postgresql: { parameters: { wal_level: level } } });
    expect(plan([cluster('pg', wal('replica'))], [cluster('pg', wal('minimal'))])).toEqual(['CNPGI216 error Cluster/apps/pg']);
    expect(plan([cluster('pg', wal('replica'))], [cluster('pg', wal('logical'))])).toEqual([]);
    // a Cluster written without wal_level has the operator's 'logical' once the defaulter ran on it
    // (api/v1/cluster_defaults.go), so going to minimal is refused as well (conformance
    // validateWALLevelChange/1); a Cluster that stays at minimal passes
    expect(plan([cluster('pg')], [cluster('pg', wal('minimal'))])).toEqual(['CNPGI216 error Cluster/apps/pg']);
    expect(plan([cluster('pg', wal('minimal'))], [cluster('pg', wal('minimal'))])).toEqual([]);
  });

  test('image and parameters together with switchover; pass: with restart, or one at a time', () => {
    const spec = (tag: string, conn: string, method: string) => ({
      imageName: `ghcr.io/cloudnative-pg/postgresql:${tag}`,
      primaryUpdateMethod: method,
      postgresql: { parameters: { max_connections: conn } },
    });
    expect(plan([cluster('pg', spec('17.4', '100', 'switchover'))], [cluster('pg', spec('17.5', '200', 'switchover'))])).toEqual([
      'CNPGI217 error Cluster/apps/pg',
    ]);
    expect(plan([cluster('pg', spec('17.4', '100', 'restart'))], [cluster('pg', spec('17.5', '200', 'restart'))])).toEqual([]);
    expect(plan([cluster('pg', spec('17.4', '100', 'switchover'))], [cluster('pg', spec('17.5', '100', 'switchover'))])).toEqual([]);
  });

  test('replica role changed while a switch to a replica is in progress (a live previous Cluster); pass: from git, or no switch', () => {
    const replica = (enabled: boolean) => cluster('pg', { replica: { enabled, source: 'origin' } });
    const switching = edited(replica(true), (c) => {
      c.status = { switchReplicaClusterStatus: { inProgress: true } };
    });
    const f = only([switching], [replica(false)]);
    expect(f).toMatchObject({ ruleId: 'CNPGI220', severity: 'error', path: 'spec.replica.enabled', before: true, after: false });
    expect(f.message).toMatch(/^makes the Cluster a primary cluster while the operator is still switching it to a replica/);
    expect(plan([replica(true)], [replica(false)])).toEqual([]);
    const done = edited(switching, (c) => {
      c.status.switchReplicaClusterStatus.inProgress = false;
    });
    expect(plan([done], [replica(false)])).toEqual([]);
    expect(plan([switching], [replica(true)])).toEqual([]);
  });

  test("the webhook judges no update of a Cluster whose next version has cnpg.io/validation: disabled; the CRD's rules still hold", () => {
    const disabled = (spec: Record<string, unknown>) =>
      edited(cluster('pg', spec), (c) => {
        c.metadata.annotations = { 'cnpg.io/validation': 'disabled' };
      });
    expect(plan([cluster('pg')], [disabled({ storage: { size: '5Gi' }, postgresUID: 1000 })])).toEqual([]);
    expect(plan([cluster('pg', { serviceAccountName: 'a' })], [disabled({ serviceAccountName: 'b' })])).toEqual(['CNPGI214 error Cluster/apps/pg']);
  });

  test('a Backup spec changed; pass: labels changed', () => {
    const b = backup('pg-before-upgrade', 'pg');
    expect(
      plan(
        [b],
        [
          edited(b, (x) => {
            x.spec.target = 'primary';
          }),
        ],
      ),
    ).toEqual(['CNPGI218 error Backup/apps/pg-before-upgrade']);
    expect(
      plan(
        [b],
        [
          edited(b, (x) => {
            x.metadata.labels = { a: 'b' };
          }),
        ],
      ),
    ).toEqual([]);
  });

  test('a ScheduledBackup moved to another Cluster; pass: a new schedule', () => {
    const s = scheduledBackup('pg-nightly', 'pg');
    expect(plan([s], [scheduledBackup('pg-nightly', 'other')])).toEqual(['CNPGI219 error ScheduledBackup/apps/pg-nightly']);
    expect(plan([s], [scheduledBackup('pg-nightly', 'pg', { schedule: '0 0 3 * * *' })])).toEqual([]);
  });
});

describe('ignored on update', () => {
  test('bootstrap changed on an existing Cluster; pass: a new Cluster with a bootstrap', () => {
    const boot = { bootstrap: { recovery: { source: 'origin' } } };
    expect(only([cluster('pg')], [cluster('pg', boot)])).toMatchObject({ ruleId: 'CNPGI230', severity: 'warning', path: 'spec.bootstrap', before: null });
    expect(plan([cluster('pg')], [cluster('pg'), cluster('restored', boot)])).toEqual([]);
  });

  test('the plan names the deepest changed field, not the subtree, with its two values', () => {
    const target = (targetTime: string) => ({ bootstrap: { recovery: { source: 'origin', recoveryTarget: { targetTime } } } });
    expect(only([cluster('pg', target('2026-01-01 00:00:00+00'))], [cluster('pg', target('2026-02-01 00:00:00+00'))])).toMatchObject({
      ruleId: 'CNPGI230',
      path: 'spec.bootstrap.recovery.recoveryTarget.targetTime',
      before: '2026-01-01 00:00:00+00',
      after: '2026-02-01 00:00:00+00',
    });
    // the text report shows the field and both values whole
    expect(formatPlanText(planChanges([cluster('pg', target('2026-01-01 00:00:00+00'))], [cluster('pg', target('2026-02-01 00:00:00+00'))]))).toContain(
      '          at spec.bootstrap.recovery.recoveryTarget.targetTime: 2026-01-01 00:00:00+00 -> 2026-02-01 00:00:00+00\n',
    );
    // a method replaced by another: the key that leaves and the key that comes, each with its subtree
    const { findings } = planChanges([cluster('pg', { bootstrap: { initdb: { database: 'app' } } })], [cluster('pg', target('2026-02-01 00:00:00+00'))]);
    expect(findings.map((f) => [f.path, f.before, f.after])).toEqual([
      ['spec.bootstrap.initdb', { database: 'app' }, null],
      ['spec.bootstrap.recovery', null, { source: 'origin', recoveryTarget: { targetTime: '2026-02-01 00:00:00+00' } }],
    ]);
    // a Backup's changed field, not its whole spec
    const b = backup('pg-before-upgrade', 'pg');
    const changed = edited(b, (x) => {
      x.spec.target = 'primary';
    });
    expect(only([b], [changed])).toMatchObject({ ruleId: 'CNPGI218', path: 'spec.target', before: null, after: 'primary' });
  });

  test('storage class changed; pass: unchanged', () => {
    const f = only(
      [cluster('pg', { storage: { size: '10Gi', storageClass: 'standard' } })],
      [cluster('pg', { storage: { size: '10Gi', storageClass: 'fast' } })],
    );
    expect(f).toMatchObject({ ruleId: 'CNPGI231', severity: 'warning', before: 'standard', after: 'fast' });
    expect(
      plan([cluster('pg', { storage: { size: '10Gi', storageClass: 'fast' } })], [cluster('pg', { storage: { size: '20Gi', storageClass: 'fast' } })]),
    ).toEqual([]);
  });
});

describe('backup chain broken', () => {
  test('the WAL archiver stops', () => {
    const f = only(
      [archiving('pg')],
      [cluster('pg', { plugins: [{ name: BARMAN, enabled: true, isWALArchiver: false, parameters: { barmanObjectName: 'store' } }] })],
    );
    expect(f).toMatchObject({ ruleId: 'CNPGI240', severity: 'error', path: 'spec.plugins[0].isWALArchiver', before: BARMAN, after: null });
    const off = only(
      [archiving('pg')],
      [cluster('pg', { plugins: [{ name: BARMAN, enabled: false, isWALArchiver: true, parameters: { barmanObjectName: 'store' } }] })],
    );
    expect(off).toMatchObject({ ruleId: 'CNPGI240', path: 'spec.plugins[0].enabled' });
    expect(only([archiving('pg')], [cluster('pg')])).toMatchObject({ ruleId: 'CNPGI240', path: 'spec.plugins' });
  });

  test('isWALArchiver moves to another plugin, or the ObjectStore or server name changes', () => {
    const moved = cluster('pg', {
      plugins: [
        { name: BARMAN, enabled: true, isWALArchiver: false, parameters: { barmanObjectName: 'store' } },
        { name: 'other.example.com', enabled: true, isWALArchiver: true },
      ],
    });
    expect(plan([archiving('pg')], [moved])).toEqual(['CNPGI240 warning Cluster/apps/pg']);
    expect(only([archiving('pg')], [moved]).path).toBe('spec.plugins[1].isWALArchiver');
    expect(only([archiving('pg', 'a')], [archiving('pg', 'b')])).toMatchObject({
      severity: 'warning',
      path: 'spec.plugins[0].parameters.barmanObjectName',
      before: 'a',
      after: 'b',
    });
    expect(only([archiving('pg')], [archiving('pg', 'store', { serverName: 'pg-v2' })]).path).toBe('spec.plugins[0].parameters.serverName');
    // The default server name is the Cluster's name: writing it out changes nothing.
    expect(plan([archiving('pg')], [archiving('pg', 'store', { serverName: 'pg' })])).toEqual([]);
    expect(plan([archiving('pg')], [archiving('pg', 'store', { serverName: 'pg-v2' })])).toEqual(['CNPGI240 warning Cluster/apps/pg']);
  });

  test('an ObjectStore destination or serverName changes under an archiving Cluster; pass: nobody archives into it, or other fields change', () => {
    expect(plan([archiving('pg'), objectStore('store', 's3://a')], [archiving('pg'), objectStore('store', 's3://b')])).toEqual([
      'CNPGI241 error ObjectStore/apps/store',
    ]);
    expect(plan([archiving('pg'), objectStore('store', 's3://a')], [archiving('pg'), objectStore('store', 's3://a', { serverName: 'x' })])).toEqual([
      'CNPGI241 error ObjectStore/apps/store',
    ]);
    expect(plan([objectStore('store', 's3://a')], [objectStore('store', 's3://b')])).toEqual([]);
    expect(
      plan([archiving('pg'), objectStore('store', 's3://a')], [archiving('pg'), objectStore('store', 's3://a', { wal: { compression: 'zstd' } })]),
    ).toEqual([]);
  });
});

describe('plugin outage', () => {
  const used = archiving('pg');

  test('the plugin Service disappears, or its pluginName changes, while a Cluster uses it', () => {
    expect(plan([used, pluginService('barman-cloud')], [used])).toEqual(['CNPGI250 error Service/cnpg-system/barman-cloud']);
    const f = only([used, pluginService('barman-cloud')], [used, pluginService('barman-cloud', 'barman.example.com')]);
    expect(f).toMatchObject({ ruleId: 'CNPGI250', before: BARMAN, after: 'barman.example.com', path: 'metadata.labels.cnpg.io/pluginName' });
  });

  test('pass: nothing uses the plugin', () => {
    expect(plan([cluster('pg'), pluginService('barman-cloud')], [cluster('pg')])).toEqual([]);
  });

  test('the plugin Service renamed: a warning (re-registration), not data loss', () => {
    const f = only(
      [used, pluginService('cnpg-system-barman-plugin-service-c8123456')],
      [
        used,
        pluginService('barman-cloud', BARMAN, {
          'cnpg.io/pluginClientSecret': 'cnpg-system-barman-plugin-service-c8123456-client-tls',
          'cnpg.io/pluginServerSecret': 'cnpg-system-barman-plugin-service-c8123456-server-tls',
        }),
      ],
    );
    expect(f).toMatchObject({ ruleId: 'CNPGI251', severity: 'warning', after: 'barman-cloud' });
  });

  test('its Secrets renamed; pass: the port annotation changes', () => {
    const s = pluginService('barman-cloud');
    expect(plan([used, s], [used, pluginService('barman-cloud', BARMAN, { 'cnpg.io/pluginServerSecret': 'new-server-tls' })])).toEqual([
      'CNPGI252 warning Service/cnpg-system/barman-cloud',
    ]);
    expect(
      plan(
        [used, s],
        [
          used,
          edited(s, (x) => {
            x.metadata.annotations['cnpg.io/pluginPort'] = '9091';
          }),
        ],
      ),
    ).toEqual([]);
  });

  test('a sidecar socket directory moved; pass: the sidecar image changes', () => {
    const manager = (dir?: string) => ({
      name: 'manager',
      image: 'cnpg:1.30.0',
      env: dir ? [{ name: 'PLUGIN_SOCKET_DIR', value: dir }] : [],
      volumeMounts: [{ name: 'plugins', mountPath: dir ?? '/plugins' }],
    });
    const sidecar = (dir: string, image = 'plugin:1') => ({ name: 'plugin', image, volumeMounts: [{ name: 'plugins', mountPath: dir }] });
    const before = deployment('cnpg-controller-manager', [manager(), sidecar('/plugins')]);
    expect(only([before], [deployment('cnpg-controller-manager', [manager('/sockets'), sidecar('/sockets')])])).toMatchObject({
      ruleId: 'CNPGI253',
      severity: 'warning',
      before: 'PLUGIN_SOCKET_DIR=/plugins; mounts manager:/plugins, plugin:/plugins',
    });
    expect(plan([before], [deployment('cnpg-controller-manager', [manager(), sidecar('/elsewhere')])])).toEqual([
      'CNPGI253 warning Deployment/cnpg-system/cnpg-controller-manager',
    ]);
    expect(plan([before], [deployment('cnpg-controller-manager', [manager(), sidecar('/plugins', 'plugin:2')])])).toEqual([]);
  });
});

describe('not destructive', () => {
  test('a pure rename of a Deployment and a probe change are not reported', () => {
    const container = { name: 'plugin', image: 'p:1', readinessProbe: { tcpSocket: { port: 9090 }, periodSeconds: 10 } };
    const before = [archiving('pg'), pluginService('barman-cloud'), deployment('barman-plugin-deployment-c8aaaaaa', [container])];
    const after = [
      archiving('pg'),
      pluginService('barman-cloud'),
      deployment('barman-cloud', [{ ...container, readinessProbe: { tcpSocket: { port: 9090 }, periodSeconds: 5 } }]),
    ];
    const report = planChanges(before, after);
    expect(report.findings).toEqual([]);
    expect(report).toMatchObject({ previousCount: 3, nextCount: 3, added: 1, removed: 1, changed: 0 });
  });

  test('an apiVersion bump is the same object; kind: List is expanded', () => {
    const v1 = objectStore('store');
    const v2 = edited(v1, (o) => {
      o.apiVersion = 'barmancloud.cnpg.io/v2';
    });
    expect(plan([archiving('pg'), v1], [{ apiVersion: 'v1', kind: 'List', items: [archiving('pg'), v2] }])).toEqual([]);
  });

  test('objects without a namespace take defaultNamespace on both sides', () => {
    const noNs = edited(cluster('pg'), (c) => {
      delete c.metadata.namespace;
    });
    expect(planChanges([cluster('pg', {}, 'default')], [noNs]).findings).toEqual([]);
    expect(planChanges([cluster('pg', {}, 'apps')], [noNs], { defaultNamespace: 'apps' }).findings).toEqual([]);
  });
});

describe('databases, roles, publications and subscriptions', () => {
  const db = (name: string, spec: Obj = {}) => managed('Database', name, { name: 'app', owner: 'app', ...spec });
  const role = (name: string, spec: Obj = {}) => managed('DatabaseRole', name, { name: 'app', login: true, ...spec });
  const pub = (name: string, spec: Obj = {}) => managed('Publication', name, { name: 'pub', dbname: 'app', target: { allTables: true }, ...spec });
  const sub = (name: string, spec: Obj = {}) =>
    managed('Subscription', name, { name: 'sub', dbname: 'app', publicationName: 'pub', externalClusterName: 'origin', ...spec });

  test('a Database with databaseReclaimPolicy: delete that disappears drops the database', () => {
    const f = only([db('pg-app', { databaseReclaimPolicy: 'delete' })], []);
    expect(f).toMatchObject({
      ruleId: 'CNPGI260',
      severity: 'error',
      object: 'Database/apps/pg-app',
      path: 'spec.databaseReclaimPolicy',
      before: 'delete',
      after: null,
    });
    expect(f.message).toBe(
      "disappears with databaseReclaimPolicy: delete: pruning deletes it, and for the database 'app' of Cluster 'pg' the operator runs DROP DATABASE, and its data is gone",
    );
    expect(f.fix).toBe('keep the Database; to let the database live on without it, first apply `spec.databaseReclaimPolicy: retain`, then remove it');
  });

  test('a renamed Database (same Cluster and database) is named, with the name to pin', () => {
    const f = only([db('pg-app', { databaseReclaimPolicy: 'delete' })], [db('app', { databaseReclaimPolicy: 'delete' })]);
    expect(f).toMatchObject({ ruleId: 'CNPGI260', severity: 'error', before: 'delete', after: 'delete' });
    expect(f.message).toMatch(/^is renamed to 'app' \(same Cluster and database\)/);
    expect(f.fix).toBe("pin `metadata.name: pg-app` on the Database now named 'app'");
  });

  test('a DatabaseRole is an error, a Publication and a Subscription are warnings', () => {
    expect(
      plan(
        [
          role('app', { databaseRoleReclaimPolicy: 'delete' }),
          pub('pub', { publicationReclaimPolicy: 'delete' }),
          sub('sub', { subscriptionReclaimPolicy: 'delete' }),
        ],
        [],
      ),
    ).toEqual(['CNPGI260 error DatabaseRole/apps/app', 'CNPGI260 warning Publication/apps/pub', 'CNPGI260 warning Subscription/apps/sub']);
  });

  test('pass: retain (written or the CRD default) removed, a delete one kept or moved to another name of another database', () => {
    expect(plan([db('a', { databaseReclaimPolicy: 'retain' }), db('b', { name: 'b' }), role('r'), pub('p'), sub('s')], [])).toEqual([]);
    expect(plan([db('a', { databaseReclaimPolicy: 'delete' })], [db('a', { databaseReclaimPolicy: 'delete', allowConnections: true })])).toEqual([]);
    // another database of the same Cluster under a new name is not a rename: the old one is still dropped
    expect(plan([db('a', { databaseReclaimPolicy: 'delete' })], [db('b', { name: 'other', databaseReclaimPolicy: 'delete' })])).toEqual([
      'CNPGI260 error Database/apps/a',
    ]);
  });

  test('a reclaim policy switched from retain (or unset) to delete is a warning; pass: delete to retain', () => {
    const f = only([db('a')], [db('a', { databaseReclaimPolicy: 'delete' })]);
    expect(f).toMatchObject({ ruleId: 'CNPGI261', severity: 'warning', path: 'spec.databaseReclaimPolicy', before: null, after: 'delete' });
    expect(f.message).toBe("switches from retain to delete: from now on, deleting or pruning this Database drops the database 'app' from PostgreSQL");
    expect(plan([sub('s', { subscriptionReclaimPolicy: 'retain' })], [sub('s', { subscriptionReclaimPolicy: 'delete' })])).toEqual([
      'CNPGI261 warning Subscription/apps/s',
    ]);
    expect(plan([role('r', { databaseRoleReclaimPolicy: 'delete' })], [role('r', { databaseRoleReclaimPolicy: 'retain' })])).toEqual([]);
  });

  test('a field the CRD fixes changes; pass: an optional one added, or a mutable one changed', () => {
    const f = only([db('a', { encoding: 'UTF8' })], [db('a', { encoding: 'LATIN1' })]);
    expect(f).toMatchObject({ ruleId: 'CNPGI262', severity: 'error', path: 'spec.encoding', before: 'UTF8', after: 'LATIN1' });
    expect(f.message).toBe('changes from "UTF8" to "LATIN1", which the Database CRD refuses: the field is immutable');
    expect(f.fix).toBe('keep `spec.encoding: UTF8`, or write a new Database with another name');
    expect(only([pub('p')], [pub('p', { cluster: { name: 'other' } })])).toMatchObject({ path: 'spec.cluster.name', before: 'pg', after: 'other' });
    expect(plan([role('r')], [role('r', { name: 'other' })])).toEqual(['CNPGI262 error DatabaseRole/apps/r']);
    expect(plan([sub('s')], [sub('s', { dbname: 'other' })])).toEqual(['CNPGI262 error Subscription/apps/s']);
    expect(plan([pub('p')], [pub('p', { target: { allTables: false } })])).toEqual(['CNPGI262 error Publication/apps/p']);
    expect(plan([managed('Pooler', 'pool', { serviceAccountName: 'a' })], [managed('Pooler', 'pool', { serviceAccountName: 'b' })])).toEqual([
      'CNPGI262 error Pooler/apps/pool',
    ]);
    expect(plan([db('a')], [db('a', { encoding: 'UTF8', owner: 'other', connectionLimit: 10 })])).toEqual([]);
    expect(plan([pub('p', { target: { objects: [{ tablesInSchema: 'a' }] } })], [pub('p', { target: { objects: [{ tablesInSchema: 'b' }] } })])).toEqual([]);
  });

  test('a Database switched to ensure: absent; pass: absent from the start, or back to present', () => {
    const f = only([db('a')], [db('a', { ensure: 'absent' })]);
    expect(f).toMatchObject({ ruleId: 'CNPGI263', severity: 'error', path: 'spec.ensure', before: 'present', after: 'absent' });
    expect(f.message).toBe("switches to ensure: absent: the operator drops the database 'app' and its data");
    expect(plan([db('a', { ensure: 'absent' })], [db('a', { ensure: 'absent' })])).toEqual([]);
    expect(plan([db('a', { ensure: 'absent' })], [db('a')])).toEqual([]);
  });
});

describe('report', () => {
  test('errors first, then by object; counts', () => {
    const report = planChanges(
      [cluster('b'), cluster('a', { bootstrap: { initdb: {} } }), cluster('c')],
      [cluster('a'), cluster('c', { storage: { size: '1Gi' } })],
    );
    expect(report.findings.map((f) => `${f.severity} ${f.object}`)).toEqual(['error Cluster/apps/b', 'error Cluster/apps/c', 'warning Cluster/apps/a']);
    expect(report).toMatchObject({ previousCount: 3, nextCount: 2, added: 0, removed: 1, changed: 2 });
  });

  test('bad input is a CnpgIValidationError naming the argument', () => {
    expect(() => planChanges({} as any, [])).toThrow(CnpgIValidationError);
    expect(() => planChanges([], 'x' as any)).toThrow(
      "planChanges: next 'x' must be an array of manifest objects, not a string; " +
        'pass the parsed documents, e.g. YAML.parseAllDocuments(text).map((d) => d.toJSON())',
    );
    // Junk documents are skipped, not a crash.
    expect(planChanges([null, 1, 'x', {}, { kind: 'Cluster' }], [[], { apiVersion: 'v1' }]).findings).toEqual([]);
  });
});
