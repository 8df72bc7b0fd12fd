import { App, Chart, Duration, Size, Testing } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { BackupSchedule, Plugin, PluginLogLevel, PostgresCluster, SCALE_TO_ZERO_PLUGIN_IMAGE, SCALE_TO_ZERO_SIDECAR_IMAGE, ScaleToZeroPlugin } from '../../src';
import { checkManifests } from '../../src/doctor';
import { synthErrors } from '../postgres/synth-errors';
import { expectValidationError } from '../util';

const storage = { size: Size.gibibytes(1) };
const BARMAN = Plugin.fromPluginName('barman-cloud.cloudnative-pg.io');

function install(namespace = 'databases-system', props?: ConstructorParameters<typeof ScaleToZeroPlugin>[2]) {
  const app = Testing.app();
  const system = new Chart(app, 'system', { namespace });
  const s2z = new ScaleToZeroPlugin(system, 'scale-to-zero', props);
  return { app, system, s2z };
}

function find(objects: any[], kind: string): any {
  const found = objects.filter((o) => o.kind === kind);
  expect(found).toHaveLength(1);
  return found[0];
}

function env(objects: any[]): Record<string, string> {
  const c = find(objects, 'Deployment').spec.template.spec.containers[0];
  return Object.fromEntries(c.env.map((e: any) => [e.name, e.value]));
}

describe('ScaleToZeroPlugin', () => {
  test("installs in a namespace of the user's choice, and the doctor finds nothing wrong", () => {
    const { system, s2z } = install('databases-system');
    const objects = Testing.synth(system);
    expect(s2z.pluginName).toBe('cnpg-i-scale-to-zero.xata.io');
    const svc = find(objects, 'Service');
    expect(svc.metadata.namespace).toBe('databases-system');
    expect(svc.metadata.labels['cnpg.io/pluginName']).toBe('cnpg-i-scale-to-zero.xata.io');
    expect(checkManifests(objects, { operatorNamespace: 'databases-system' })).toEqual([]);
  });

  test('runs `plugin` with the images pinned to v0.1.9 and every setting written (the defaults)', () => {
    const objects = Testing.synth(install().system);
    const c = find(objects, 'Deployment').spec.template.spec.containers[0];
    expect(c.image).toBe('ghcr.io/xataio/cnpg-i-scale-to-zero:v0.1.9');
    expect(SCALE_TO_ZERO_PLUGIN_IMAGE).toBe(c.image);
    expect(c.args[0]).toBe('plugin');
    expect(env(objects)).toEqual({
      LOG_LEVEL: 'info',
      SIDECAR_IMAGE: SCALE_TO_ZERO_SIDECAR_IMAGE,
      SIDECAR_CPU_REQUEST: '50m',
      SIDECAR_CPU_LIMIT: '200m',
      SIDECAR_MEMORY_REQUEST: '64Mi',
      SIDECAR_MEMORY_LIMIT: '64Mi',
    });
    expect(SCALE_TO_ZERO_SIDECAR_IMAGE).toBe('ghcr.io/xataio/cnpg-i-scale-to-zero-sidecar:v0.1.9');
  });

  test('the plugin calls no Kubernetes API: no token, no RBAC in its namespace', () => {
    const objects = Testing.synth(install().system);
    expect(find(objects, 'Deployment').spec.template.spec.automountServiceAccountToken).toBe(false);
    expect(objects.filter((o) => /Role/.test(o.kind))).toEqual([]);
  });

  test('typed settings: log level, sidecar image and resources', () => {
    const objects = Testing.synth(
      install('cnpg-system', {
        logLevel: PluginLogLevel.DEBUG,
        sidecarImage: 'registry.example.com/s2z-sidecar:v0.1.9',
        sidecarResources: { cpu: { limit: kplus.Cpu.millis(500) }, memory: { request: Size.mebibytes(128), limit: Size.mebibytes(128) } },
      }).system,
    );
    expect(env(objects)).toEqual({
      LOG_LEVEL: 'debug',
      SIDECAR_IMAGE: 'registry.example.com/s2z-sidecar:v0.1.9',
      SIDECAR_CPU_REQUEST: '50m',
      SIDECAR_CPU_LIMIT: '500m',
      SIDECAR_MEMORY_REQUEST: '128Mi',
      SIDECAR_MEMORY_LIMIT: '128Mi',
    });
  });

  test('a sidecar request above the limit it would get is refused; equal passes', () => {
    expectValidationError(
      () => install('cnpg-system', { sidecarResources: { memory: { request: Size.mebibytes(128) } } }),
      "system/scale-to-zero: sidecarResources.memory.request '128Mi' is above the sidecar's memory limit 64Mi (the plugin default): the API server would refuse every instance pod the sidecar is injected into; set sidecarResources.memory.limit too, at least 128Mi",
    );
    expect(() => install('cnpg-system', { sidecarResources: { memory: { request: Size.mebibytes(64) } } })).not.toThrow();
  });

  test('environment variables the construct owns are refused', () => {
    expectValidationError(
      () => install('cnpg-system', { envVariables: { SIDECAR_IMAGE: kplus.EnvValue.fromValue('x:v1') } }),
      'system/scale-to-zero: envVariables.SIDECAR_IMAGE {"value":"x:v1"} is set by the construct from its typed props; set sidecarImage, logLevel or sidecarResources instead',
    );
  });
});

function app() {
  const a = new App();
  const system = new Chart(a, 'system', { namespace: 'cnpg-system' });
  const s2z = new ScaleToZeroPlugin(system, 'scale-to-zero');
  const db = new Chart(a, 'db', { namespace: 'databases' });
  return { a, system, s2z, db };
}

describe('ScaleToZeroPlugin.enable', () => {
  test('writes the plugin entry and the annotations as the sidecar reads them', () => {
    const { s2z, db } = app();
    const pg = new PostgresCluster(db, 'pg', { instances: 2, storage });
    s2z.enable(pg, { inactivity: Duration.minutes(10) });
    const cluster = Testing.synth(db).find((o) => o.kind === 'Cluster');
    expect(cluster.metadata.annotations).toEqual({ 'xata.io/scale-to-zero-enabled': 'true', 'xata.io/scale-to-zero-inactivity-minutes': '10' });
    expect(cluster.spec.plugins).toEqual([{ name: 'cnpg-i-scale-to-zero.xata.io', enabled: true, isWALArchiver: false }]);
  });

  test("the default inactivity is the plugin's, 30 minutes, written explicitly", () => {
    const { s2z, db } = app();
    s2z.enable(new PostgresCluster(db, 'pg', { storage }));
    expect(Testing.synth(db).find((o) => o.kind === 'Cluster').metadata.annotations['xata.io/scale-to-zero-inactivity-minutes']).toBe('30');
    expect(ScaleToZeroPlugin.DEFAULT_INACTIVITY.toMinutes()).toBe(30);
  });

  test("the sidecar gets get and update on its own Cluster and ScheduledBackup, bound to the Cluster's ServiceAccount", () => {
    const { s2z, db } = app();
    s2z.enable(new PostgresCluster(db, 'pg', { storage }));
    s2z.enable(new PostgresCluster(db, 'shared', { storage, spec: { serviceAccountName: 'db-shared' } }));
    const out = Testing.synth(db);
    const roles = out.filter((o) => o.kind === 'Role');
    expect(roles.map((r) => [r.metadata.namespace, r.rules])).toEqual(
      ['pg', 'shared'].map((n) => [
        'databases',
        [
          { apiGroups: ['postgresql.cnpg.io'], resources: ['clusters'], resourceNames: [n], verbs: ['get', 'update'] },
          { apiGroups: ['postgresql.cnpg.io'], resources: ['scheduledbackups'], resourceNames: [n], verbs: ['get', 'update'] },
        ],
      ]),
    );
    const bindings = out.filter((o) => o.kind === 'RoleBinding');
    expect(bindings.map((b) => [b.roleRef.name, b.subjects])).toEqual([
      [roles[0].metadata.name, [{ kind: 'ServiceAccount', name: 'pg', namespace: 'databases' }]],
      [roles[1].metadata.name, [{ kind: 'ServiceAccount', name: 'db-shared', namespace: 'databases' }]],
    ]);
  });

  test('the whole app passes the doctor', () => {
    const { a, s2z, db } = app();
    s2z.enable(new PostgresCluster(db, 'pg', { storage }));
    const objects = a.charts.flatMap((c) => Testing.synth(c));
    expect(checkManifests(objects, { operatorNamespace: 'cnpg-system' })).toEqual([]);
  });

  test('inactivity must be whole minutes, at least one', () => {
    const { s2z, db } = app();
    const pg = new PostgresCluster(db, 'pg', { storage });
    expectValidationError(
      () => s2z.enable(pg, { inactivity: Duration.seconds(90) }),
      "system/scale-to-zero: enable(pg).inactivity '1 minute 30 seconds' is not a whole number of minutes of at least one: the plugin reads whole minutes (xata.io/scale-to-zero-inactivity-minutes) and counts connections once a minute; use Duration.minutes(2)",
    );
    expectValidationError(
      () => s2z.enable(pg, { inactivity: Duration.seconds(30) }),
      "system/scale-to-zero: enable(pg).inactivity '30 seconds' is not a whole number of minutes of at least one: the plugin reads whole minutes (xata.io/scale-to-zero-inactivity-minutes) and counts connections once a minute; use Duration.minutes(1)",
    );
    // zero, given in minutes, is refused in minutes (not as a count of milliseconds)
    expectValidationError(
      () => s2z.enable(pg, { inactivity: Duration.minutes(0) }),
      "system/scale-to-zero: enable(pg).inactivity '0 minutes' is not a whole number of minutes of at least one: the plugin reads whole minutes (xata.io/scale-to-zero-inactivity-minutes) and counts connections once a minute; use Duration.minutes(1)",
    );
    expect(() => s2z.enable(pg, { inactivity: Duration.minutes(1) })).not.toThrow();
    expect(Testing.synth(db).find((o) => o.kind === 'Cluster').metadata.annotations['xata.io/scale-to-zero-inactivity-minutes']).toBe('1');
  });

  describe('backup schedules: the sidecar suspends only the one named like the Cluster', () => {
    function withSchedule(name?: string, suspend?: boolean) {
      const { s2z, db } = app();
      const pg = new PostgresCluster(db, 'pg', { storage });
      pg.addPlugin(BARMAN, { isWalArchiver: true, parameters: { barmanObjectName: 'store' } });
      s2z.enable(pg, { inactivity: Duration.minutes(10) });
      pg.addScheduledBackup('nightly', {
        plugin: BARMAN,
        schedule: BackupSchedule.daily(2),
        ...(name ? { metadata: { name } } : {}),
        ...(suspend ? { suspend } : {}),
      });
      return synthErrors(db);
    }

    test('another name keeps running against the hibernated Cluster: refused', () => {
      expect(withSchedule()).toEqual([
        `[db/pg] db/pg/nightly: metadata.name 'pg-nightly' backs up Cluster 'pg', which the Scale-to-Zero sidecar hibernates after 10 minutes without connections; the sidecar suspends only the ScheduledBackup named 'pg', so this one keeps creating Backups, and CloudNativePG fails each with "cannot backup a hibernated cluster" while the Cluster sleeps; name the ScheduledBackup 'pg' (the one schedule the sidecar suspends), or set spec.suspend: true and back the Cluster up some other way`,
      ]);
    });

    test('near misses pass: the schedule named like the Cluster, a suspended one', () => {
      expect(withSchedule('pg')).toEqual([]);
      expect(withSchedule(undefined, true)).toEqual([]);
    });
  });
});
