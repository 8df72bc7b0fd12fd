import * as path from 'path';
import { Chart, Size, Testing } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import fc from 'fast-check';
import {
  BackupSchedule,
  BarmanCloudPlugin,
  ClusterBootstrap,
  CnpgIValidationError,
  CnpgOperator,
  ExternalClusterSource,
  HelloWorldPlugin,
  ObjectStore,
  OperatorDeployment,
  Plugin,
  PluginBackup,
  PluginPathFlag,
  PluginScheduledBackup,
  PostgresCluster,
  RecoveryTarget,
  SidecarPlugin,
  StandalonePlugin,
} from '../../src';
import {
  backupOptions,
  barmanCloudPluginProps,
  dnsLabel,
  dnsSubdomain,
  envName,
  helloWorldParameters,
  helloWorldPluginProps,
  image,
  imageCatalog,
  labelMap,
  objectStoreProps,
  optional,
  pluginName,
  postgresClusterProps,
  props,
  scheduledBackupOptions,
  secretRef,
  standalonePluginProps,
  stringMap,
  cpuRequestAndLimit,
  memoryRequestAndLimit,
} from './arbitraries';
import { asksForNeverRotation, expectMutualTls, expectStrongCertificates } from './checks';
import { Scenario } from './harness';
import { Call } from './mutation';
import { expectGoodOutput, expectPluginNamesAgree } from './oracle';

/** Synthesizes every chart of an app into one list, in chart order. */
function synthAll(...charts: Chart[]): any[] {
  return charts.flatMap((c) => Testing.synth(c));
}

/** A Cluster in `apps` that uses a plugin in every place a plugin name appears. */
function useEverywhere(apps: Chart, plugin: { pluginName: string }): PostgresCluster {
  const pg = new PostgresCluster(apps, 'pg', { storage: { size: Size.gibibytes(10) } });
  pg.addPlugin(plugin, { isWalArchiver: true, parameters: { barmanObjectName: 'store' } });
  pg.addBackup('backup', { plugin });
  pg.addScheduledBackup('nightly', { plugin, schedule: BackupSchedule.daily(2) });
  pg.addExternalCluster('origin', ExternalClusterSource.fromPlugin(plugin, { parameters: { serverName: 'origin' } }));
  return pg;
}

// --- StandalonePlugin ----------------------------------------------------------------------------

export const standalonePluginScenario: Scenario<unknown> = {
  arbitrary: fc.record({ namespace: dnsLabel, plugin: standalonePluginProps }),
  roots: ['system/plugin', 'apps/pg'],
  aliases: { plugin: ['props', 'pluginName', 'image'], namespace: ['chart'] },
  build: (p) => {
    const app = Testing.app();
    const system = new Chart(app, 'system', { namespace: p.namespace });
    const plugin = new StandalonePlugin(system, 'plugin', p.plugin);
    const apps = new Chart(app, 'apps', { namespace: 'databases' });
    useEverywhere(apps, plugin);
    return { objects: synthAll(system, apps) };
  },
  verify: ({ objects }, p) => {
    expectGoodOutput(objects, { operatorNamespace: p.namespace, label: 'StandalonePlugin' });
    expectPluginNamesAgree(objects);
    expectMutualTls(objects, p.plugin.pluginName, { appendTlsArgs: p.plugin.appendTlsArgs });
    expectStrongCertificates(objects, asksForNeverRotation(p.plugin.tls));
  },
};

// --- Presets ---------------------------------------------------------------------------------------

export const barmanCloudPluginScenario: Scenario<unknown> = {
  arbitrary: fc.record({ plugin: barmanCloudPluginProps }),
  roots: ['cnpg-system/barman', 'apps/pg'],
  aliases: { plugin: ['props'] },
  build: (p) => {
    const app = Testing.app();
    const system = new Chart(app, 'cnpg-system', { namespace: 'cnpg-system' });
    const barman = new BarmanCloudPlugin(system, 'barman', p.plugin);
    const apps = new Chart(app, 'apps', { namespace: 'databases' });
    useEverywhere(apps, barman);
    return { objects: synthAll(system, apps) };
  },
  verify: ({ objects }, p) => {
    expectGoodOutput(objects, { label: 'BarmanCloudPlugin' });
    expectPluginNamesAgree(objects);
    expectMutualTls(objects, BarmanCloudPlugin.PLUGIN_NAME);
    expectStrongCertificates(objects, asksForNeverRotation(p.plugin?.tls));
  },
};

export const helloWorldPluginScenario: Scenario<unknown> = {
  arbitrary: fc.record({
    plugin: helloWorldPluginProps,
    parameters: helloWorldParameters.map((x) => new Call('HelloWorldPlugin.parameters', HelloWorldPlugin.parameters, [x])),
  }),
  roots: ['cnpg-system/hello', 'apps/pg'],
  aliases: { plugin: ['props', 'strategy'], parameters: ['parameters'] },
  fixed: (p) => p.length === 1 && p[0] === 'parameters',
  build: (p) => {
    const app = Testing.app();
    const system = new Chart(app, 'cnpg-system', { namespace: 'cnpg-system' });
    const hello = new HelloWorldPlugin(system, 'hello', p.plugin);
    const apps = new Chart(app, 'apps', { namespace: 'databases' });
    const pg = new PostgresCluster(apps, 'pg', { storage: { size: Size.gibibytes(1) } });
    pg.addPlugin(hello, { parameters: p.parameters });
    return { objects: synthAll(system, apps) };
  },
  verify: ({ objects }, p) => {
    expectGoodOutput(objects, { label: 'HelloWorldPlugin' });
    expectPluginNamesAgree(objects);
    expectMutualTls(objects, HelloWorldPlugin.PLUGIN_NAME);
    expectStrongCertificates(objects, asksForNeverRotation(p.plugin?.tls));
    // The parameters are JSON objects of strings in strings, as the plugin reads them.
    const params = objects.find((o) => o.kind === 'Cluster').spec.plugins[0].parameters ?? {};
    for (const [k, v] of Object.entries(params)) {
      const parsed = JSON.parse(v as string);
      if (!['labels', 'annotations'].includes(k) || Object.values(parsed).some((x) => typeof x !== 'string')) {
        throw new Error(`hello-world parameter ${k} is not a JSON map of strings: ${String(v)}`);
      }
    }
  },
};

/**
 * Synthesizes charts whose constructs report problems at synth (the schema guard and the
 * synth-time checks, aggregated by cdk8s into one Error): the first reported line is turned back
 * into this library's error, with the construct path and the prop. A schema guard line names a
 * JSON path of the object; `spec.` (and an ObjectStore's `configuration.`) is dropped so the
 * prop reads as the user wrote it (`spec.configuration.wal.maxParallel` -> `wal.maxParallel`).
 */
function synthChecked(...charts: Chart[]): any[] {
  try {
    return synthAll(...charts);
  } catch (e) {
    const m = /^Validation failed with the following errors:\n\s*\[([^\]]+)\] (.*)$/m.exec((e as Error).message);
    if (!m) throw e;
    const [, path, line] = m;
    // A synth-time check's line about the construct cdk8s names has lost its own leading path
    // (src/schema/guard.ts ownMessage); the schema guard's lines end with `; allowed ...`.
    const rest = line.startsWith(`${path}: `) ? line.slice(path.length + 2) : /; allowed /.test(line) ? undefined : line;
    if (rest !== undefined) {
      const prop = rest.split(' ')[0];
      throw new CnpgIValidationError(path, prop, undefined, rest.slice(prop.length + 1), '(at synth)');
    }
    const guard = /^\w+ '[^']*' ([^:]+): (.*)$/.exec(line);
    if (!guard) throw e;
    const prop = guard[1].replace(/^spec\.(configuration\.)?/, '');
    const err = new CnpgIValidationError(path, prop, undefined, guard[2], '(schema guard)');
    throw err;
  }
}

export const objectStoreScenario: Scenario<unknown> = {
  arbitrary: fc.record({ store: objectStoreProps }),
  roots: ['apps/store'],
  aliases: {
    store: ['props', 'destinationPath', 'credentials'],
    credentials: ['s3Credentials', 'azureCredentials', 'googleCredentials', 'destinationPath'],
    destinationPath: ['destinationPath'],
    endpointUrl: ['endpointURL'],
    endpointCa: ['endpointCA'],
    retentionPolicyInterval: ['instanceSidecarConfiguration'],
  },
  build: (p) => {
    const apps = new Chart(Testing.app(), 'apps', { namespace: 'databases' });
    new ObjectStore(apps, 'store', p.store);
    return { objects: synthChecked(apps) };
  },
  verify: ({ objects }) => {
    expectGoodOutput(objects, { label: 'ObjectStore' });
  },
};

// --- PostgresCluster with everything added -------------------------------------------------------

const pluginOptions = props({
  enabled: optional(fc.boolean()),
  isWalArchiver: optional(fc.boolean()),
  parameters: optional(stringMap),
});

/** A recipe of a Cluster with plugins, external clusters, a bootstrap, backups and scheduled backups. */
const clusterRecipe = fc
  .record({
    cluster: postgresClusterProps,
    catalog: optional(imageCatalog),
    names: fc.uniqueArray(pluginName, { minLength: 1, maxLength: 3 }),
    externals: fc.uniqueArray(
      dnsLabel.filter((n) => n !== 'recovery-source'),
      { maxLength: 3 },
    ),
  })
  .chain((base) =>
    fc
      .record({
        cluster: fc.constant(base.catalog && base.cluster.image === undefined ? { ...base.cluster, image: base.catalog } : base.cluster),
        plugins: fc
          .tuple(
            ...base.names.map((n) =>
              fc.record({
                plugin: fc.oneof(fc.constant({ pluginName: n }), fc.constant(new Call('Plugin.fromPluginName', Plugin.fromPluginName, [n]))),
                options: pluginOptions,
              }),
            ),
          )
          .map((entries) => {
            // One enabled WAL archiver at most, as CloudNativePG requires (the invalid case is the junk property's).
            let archiver = false;
            return entries.map((e) => {
              const on = e.options.enabled !== false && e.options.isWalArchiver === true;
              if (on && archiver) return { ...e, options: { ...e.options, isWalArchiver: false } };
              archiver = archiver || on;
              return e;
            });
          }),
        externals: fc.tuple(
          ...base.externals.map((name) =>
            fc.record({
              name: fc.constant(name),
              options: fc.oneof(
                fc
                  .tuple(fc.constantFrom(...base.names), props({ parameters: optional(stringMap) }))
                  .map(
                    ([n, o]) =>
                      new Call('ExternalClusterSource.fromPlugin', ExternalClusterSource.fromPlugin, [
                        new Call('Plugin.fromPluginName', Plugin.fromPluginName, [n]),
                        o,
                      ]),
                  ),
                props(
                  {
                    connectionParameters: fc.record({ host: dnsSubdomain, user: fc.constant('streaming_replica'), dbname: fc.constant('postgres') }),
                    password: optional(secretRef),
                    sslCert: optional(secretRef),
                    sslKey: optional(secretRef),
                    sslRootCert: optional(secretRef),
                  },
                  ['connectionParameters'],
                ).map((c) => new Call('ExternalClusterSource.fromConnection', ExternalClusterSource.fromConnection, [c])),
              ),
            }),
          ),
        ),
        bootstrap: optional(
          fc.oneof(
            fc.constant(new Call('ClusterBootstrap.initdb', ClusterBootstrap.initdb, [{ database: 'app', owner: 'app' }])),
            fc
              .record({
                sourceName: fc.constant('recovery-source'),
                parameters: optional(stringMap),
                database: optional(fc.constant('app')),
                owner: optional(fc.constant('app')),
                recoveryTarget: optional(
                  fc.constantFrom(
                    new Call('RecoveryTarget.time', RecoveryTarget.time, [new Date(Date.UTC(2025, 0, 1, 8, 30)), { exclusive: true }]),
                    new Call('RecoveryTarget.timestamp', RecoveryTarget.timestamp, ['2025-01-01 08:30:00+00']),
                    new Call('RecoveryTarget.lsn', RecoveryTarget.lsn, ['0/3000060', { timeline: 2 }]),
                    new Call('RecoveryTarget.xid', RecoveryTarget.xid, [1234, { backupId: '20250101T000000' }]),
                    new Call('RecoveryTarget.restorePoint', RecoveryTarget.restorePoint, ['before-migration', { backupId: '20250101T000000' }]),
                  ),
                ),
              })
              .chain((o) =>
                fc
                  .constantFrom(...base.names)
                  .map((n) => new Call('ClusterBootstrap.recoveryFromPlugin', ClusterBootstrap.recoveryFromPlugin, [{ pluginName: n }, o])),
              ),
          ),
        ),
        backups: fc.array(fc.tuple(fc.nat(), backupOptions), { maxLength: 2 }),
        scheduled: fc.array(fc.tuple(fc.nat(), scheduledBackupOptions), { maxLength: 2 }),
      })
      .map((r) => {
        // Backups go through an enabled plugin of the Cluster (the other case is a documented error).
        const enabled = r.plugins.filter((e) => e.options.enabled !== false).map((e) => base.names[r.plugins.indexOf(e)]);
        const pick = ([i, o]: [number, any]) => (enabled.length ? [{ ...o, plugin: { pluginName: enabled[i % enabled.length] } }] : []);
        return { ...r, backups: r.backups.flatMap(pick), scheduled: r.scheduled.flatMap(pick), names: base.names };
      }),
  );

export const postgresClusterScenario: Scenario<unknown> = {
  arbitrary: clusterRecipe,
  roots: ['apps/pg'],
  aliases: {
    cluster: ['props', 'storage'],
    image: ['imageName', 'imageCatalogRef'],
    name: ['externalClusters'],
    externals: ['externalClusters'],
    options: ['externalClusters'],
    plugins: ['plugins', 'plugin'],
    backups: ['plugin', 'props'],
    scheduled: ['plugin', 'props', 'schedule'],
    bootstrap: [
      'bootstrap',
      'sourceName',
      'plugin',
      'options',
      'externalClusters',
      'recoveryTarget',
      'when',
      'text',
      'lsn',
      'xid',
      'name',
      'backupId',
      'timeline',
      'exclusive',
    ],
    enablePdb: ['enablePDB'],
  },
  // Passthroughs (spec, affinity, pvcTemplate, initdb) are mutated too: they are written exactly
  // as given or refused.
  fixed: (p) => {
    const [head] = p;
    if (head === 'names') return true;
    if ((head === 'plugins' || head === 'externals') && p.length <= 2) return true;
    return (head === 'backups' || head === 'scheduled') && p.length <= 1;
  },
  build: (p) => {
    const apps = new Chart(Testing.app(), 'apps', { namespace: 'databases' });
    const pg = new PostgresCluster(apps, 'pg', p.bootstrap === undefined ? p.cluster : { ...p.cluster, bootstrap: p.bootstrap });
    for (const e of p.externals) pg.addExternalCluster(e.name, e.options);
    // Backups are added before the plugins on purpose: the check runs at synth.
    p.backups.forEach((o: any, i: number) => pg.addBackup(`backup-${i}`, o));
    p.scheduled.forEach((o: any, i: number) => pg.addScheduledBackup(`scheduled-${i}`, o));
    for (const e of p.plugins) pg.addPlugin(e.plugin, e.options);
    return { objects: synthChecked(apps) };
  },
  verify: ({ objects }, p) => {
    // The plugins the Cluster names are installed elsewhere (knownPlugins), whatever the junk made of them.
    const nameOf = (x: any) => (typeof x === 'string' ? x : x?.pluginName);
    const known = [
      ...p.plugins.map((e: any) => nameOf(e.plugin)),
      ...p.externals.map((e: any) => e.options?._spec?.plugin?.name),
      p.bootstrap?._source?.source?._spec?.plugin?.name,
    ].filter((n: unknown): n is string => typeof n === 'string');
    expectGoodOutput(objects, { knownPlugins: known, label: 'PostgresCluster' });
    expectPluginNamesAgree(objects, { known });
    // Backups follow their Cluster (CloudNativePG fails a Backup of a Cluster that does not exist yet).
    const cluster = objects.findIndex((o) => o.kind === 'Cluster');
    objects.forEach((o, i) => {
      if ((o.kind === 'Backup' || o.kind === 'ScheduledBackup') && i < cluster) throw new Error(`${o.kind} ${o.metadata.name} comes before its Cluster`);
    });
  },
};

/** Backups of a Cluster managed elsewhere, by name. */
export const backupsByNameScenario: Scenario<unknown> = {
  arbitrary: fc.record({
    clusterName: fc
      .stringMatching(/^[a-z]([-a-z0-9]{0,20}[a-z0-9])?$/)
      .map((n) => new Call('PostgresCluster.fromClusterName', PostgresCluster.fromClusterName, [n])),
    plugin: pluginName.map((n) => new Call('Plugin.fromPluginName', Plugin.fromPluginName, [n])),
    backup: backupOptions,
    scheduled: scheduledBackupOptions,
  }),
  roots: ['apps/backup', 'apps/scheduled'],
  aliases: { clusterName: ['cluster'], plugin: ['plugin'], backup: ['props'], scheduled: ['props', 'schedule'] },
  build: (p) => {
    const apps = new Chart(Testing.app(), 'apps', { namespace: 'databases' });
    new PluginBackup(apps, 'backup', { ...p.backup, plugin: p.plugin, cluster: p.clusterName });
    new PluginScheduledBackup(apps, 'scheduled', { ...p.scheduled, plugin: p.plugin, cluster: p.clusterName });
    return { objects: synthChecked(apps) };
  },
  verify: ({ objects }, p) => {
    expectGoodOutput(objects, { knownPlugins: [p.plugin.pluginName], label: 'PluginBackup' });
    expectPluginNamesAgree(objects, { known: [p.plugin.pluginName] });
  },
};

// --- Sidecars --------------------------------------------------------------------------------------

export const OPERATOR_FIXTURE = path.join(__dirname, '..', 'fixtures', 'operator', 'operator.yaml');

const socketDir = fc.oneof(
  fc.constant('/plugins'),
  fc.array(fc.stringMatching(/^[a-z][a-z0-9_.-]{0,8}$/), { minLength: 1, maxLength: 3 }).map((s) => `/${s.join('/')}`),
);

const sidecarOptions = (dir: string) =>
  props(
    {
      pluginName,
      image,
      args: optional(fc.array(fc.constantFrom('plugin', '--log-level=info', 'serve'), { maxLength: 2 })),
      envVariables: optional(
        fc.dictionary(
          envName,
          fc.string({ maxLength: 10 }).map((v) => kplus.EnvValue.fromValue(v)),
          { maxKeys: 2 },
        ),
      ),
      resources: optional(props({ cpu: optional(cpuRequestAndLimit), memory: optional(memoryRequestAndLimit) })),
      imagePullPolicy: optional(fc.constantFrom(...Object.values(kplus.ImagePullPolicy))),
      socketDir: fc.constant(dir),
      securityContext: optional(props({ user: optional(fc.integer({ min: 1, max: 2147483647 })), group: optional(fc.integer({ min: 1, max: 2147483647 })) })),
      // Only the flag the doctor can follow: with PluginPathFlag.none() or another flag name and a
      // socketDir other than /plugins, the doctor reports CNPGI031 as an error (it cannot see where
      // the plugin puts its socket); see the report.
      pluginPathFlag: optional(fc.constant(new Call('PluginPathFlag.flag', PluginPathFlag.flag, ['--plugin-path']))),
    },
    ['pluginName', 'image', 'socketDir'],
  );

const sidecarRecipe = socketDir.chain((dir) =>
  fc.record({
    // CnpgOperator.fromManifest costs ~85 ms per call (cdk8s Include reads even a local file in a
    // child Node process), so it gets one case in twenty to keep the suite fast.
    host: fc.oneof({ arbitrary: fc.constant('fromDeployment'), weight: 19 }, { arbitrary: fc.constant('fromManifest'), weight: 1 }),
    sidecars: fc.uniqueArray(sidecarOptions(dir), { minLength: 1, maxLength: 2, selector: (s) => String(s.pluginName).split('.')[0] }),
    labels: optional(labelMap),
  }),
);

export const sidecarPluginScenario: Scenario<unknown> = {
  arbitrary: sidecarRecipe,
  roots: ['system/sidecar-0', 'system/sidecar-1', 'system/operator/sidecar-0', 'system/operator/sidecar-1', 'apps/pg'],
  aliases: { sidecars: ['props', 'pluginName', 'containerName', 'socketDir', 'image'], pluginName: ['containerName'] },
  fixed: (p) => p[0] === 'host' || p[0] === 'labels' || (p[0] === 'sidecars' && p.length <= 2),
  build: (p) => {
    const app = Testing.app();
    const plugins: SidecarPlugin[] = [];
    let system: Chart;
    if (p.host === 'fromManifest') {
      system = new Chart(app, 'system');
      const operator = CnpgOperator.fromManifest(system, 'operator', { path: OPERATOR_FIXTURE });
      p.sidecars.forEach((s: any, i: number) => plugins.push(operator.addSidecarPlugin(`sidecar-${i}`, s)));
    } else {
      system = new Chart(app, 'system', { namespace: 'cnpg-system' });
      const deployment = new kplus.Deployment(system, 'operator', {
        containers: [
          {
            name: 'manager',
            image: 'ghcr.io/cloudnative-pg/cloudnative-pg:1.30.0',
            command: ['/manager'],
            args: ['controller'],
            envVariables: { OPERATOR_NAMESPACE: kplus.EnvValue.fromFieldRef(kplus.EnvFieldPaths.POD_NAMESPACE) },
          },
        ],
      });
      const operator = OperatorDeployment.fromDeployment(deployment);
      p.sidecars.forEach((s: any, i: number) => plugins.push(new SidecarPlugin(system, `sidecar-${i}`, { ...s, operator })));
    }
    const apps = new Chart(app, 'apps', { namespace: 'databases' });
    useEverywhere(apps, plugins[0]);
    return { objects: synthAll(system, apps), plugins };
  },
  verify: (built, p) => {
    const { objects } = built;
    const names = new Set(p.sidecars.map((s: any) => s.containerName ?? s.pluginName.split('.')[0]));
    expectGoodOutput(objects, {
      operatorNamespace: p.host === 'fromManifest' ? 'pg-operator' : 'cnpg-system',
      label: 'SidecarPlugin',
      pssContainers: (n) => names.has(n),
    });
    const plugins = (built as any).plugins as SidecarPlugin[];
    expectPluginNamesAgree(objects, { sockets: plugins.map((s) => s.pluginName) });
    // The socket path is <socketDir>/<pluginName>, and the plugin is told that directory.
    for (const s of plugins) {
      if (s.socketPath !== `${s.socketDir}/${s.pluginName}`) throw new Error(`socket path ${s.socketPath}`);
    }
  },
};
