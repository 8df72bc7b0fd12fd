/*
 * A corpus of bad inputs, one per construct and factory, that once gave unreadable messages
 * (issue #13 point 5): `props undefined must be an object, not undefined`, `requireSize(undefined)`
 * as `must be a cdk8s Size, not undefined`, synth lines that repeat the construct path, a
 * suggestion that only looks alike. Every refusal is scanned with the junk runs' check.
 */
import { Chart, Size, Testing } from 'cdk8s';
import {
  BackupSchedule,
  BarmanCloudPlugin,
  ClusterBootstrap,
  ClusterImage,
  ExternalClusterSource,
  HelloWorldPlugin,
  IssuerRef,
  ObjectStore,
  ObjectStoreCredentials,
  Plugin,
  PluginBackup,
  PluginScheduledBackup,
  PluginTls,
  PostgresCluster,
  StandalonePlugin,
} from '../../src';
import { refuseUnknownKeys } from '../../src/common/props';
import { requireDuration, requireSize } from '../../src/common/render';
import { validatePluginName } from '../../src/common/validate';
import { expectReadableMessage, validationLines } from './harness';

const js = (v: unknown): any => v;
const system = () => new Chart(Testing.app(), 'system', { namespace: 'cnpg-system' });
const BARMAN = Plugin.fromPluginName('barman-cloud.cloudnative-pg.io');

function refusal(build: () => unknown): string {
  try {
    build();
  } catch (e) {
    expectReadableMessage(e);
    return (e as Error).message;
  }
  throw new Error('expected a refusal');
}

/** Builds in a chart and synthesizes it, so that synth-time lines are scanned too. */
function refusalAtSynth(build: (chart: Chart) => void): string {
  const chart = system();
  return refusal(() => {
    build(chart);
    Testing.synth(chart);
  });
}

describe('refusals read well', () => {
  const missing: Array<[string, () => unknown]> = [
    ['StandalonePlugin props', () => new StandalonePlugin(system(), 'p', js(undefined))],
    ['BarmanCloudPlugin props', () => new BarmanCloudPlugin(system(), 'b', js(null))],
    ['HelloWorldPlugin props', () => new HelloWorldPlugin(system(), 'h', js('x'))],
    ['HelloWorldPlugin.parameters', () => HelloWorldPlugin.parameters(js(undefined))],
    ['PostgresCluster props', () => new PostgresCluster(Testing.chart(), 'pg', js(undefined))],
    ['PostgresCluster storage', () => new PostgresCluster(Testing.chart(), 'pg', js({}))],
    ['PostgresCluster storage.size', () => new PostgresCluster(Testing.chart(), 'pg', js({ storage: {} }))],
    ['ObjectStore props', () => new ObjectStore(Testing.chart(), 's', js(undefined))],
    ['ObjectStore credentials', () => new ObjectStore(Testing.chart(), 's', js({ destinationPath: 's3://b' }))],
    ['ObjectStoreCredentials.s3AccessKeys', () => ObjectStoreCredentials.s3AccessKeys(js(undefined))],
    ['PluginBackup props', () => new PluginBackup(Testing.chart(), 'b', js(undefined))],
    ['PluginBackup plugin', () => new PluginBackup(Testing.chart(), 'b', js({ cluster: PostgresCluster.fromClusterName('pg') }))],
    [
      'PluginScheduledBackup schedule',
      () => new PluginScheduledBackup(Testing.chart(), 's', js({ cluster: PostgresCluster.fromClusterName('pg'), plugin: BARMAN })),
    ],
    ['BackupSchedule.expression', () => BackupSchedule.expression(js(undefined))],
    ['BackupSchedule.cron', () => BackupSchedule.cron(js({ hour: undefined, minute: 7.5 }))],
    [
      'ClusterImage.fromName at synth',
      () => refusalAtSynth((chart) => new PostgresCluster(chart, 'pg', { storage: { size: Size.gibibytes(1) }, image: ClusterImage.fromName(js(undefined)) })),
    ],
    ['ClusterBootstrap.recoveryFromPlugin', () => ClusterBootstrap.recoveryFromPlugin(BARMAN, js(undefined))],
    ['ExternalClusterSource.fromConnection', () => ExternalClusterSource.fromConnection(js(undefined))],
    ['ExternalClusterSource password key', () => ExternalClusterSource.fromConnection(js({ connectionParameters: { host: 'h' }, password: { name: 's' } }))],
    ['IssuerRef.external', () => IssuerRef.external(js(undefined))],
    ['IssuerRef.issuer', () => IssuerRef.issuer(js(undefined))],
    ['PluginTls.fromSecrets', () => PluginTls.fromSecrets(js(undefined))],
    ['PluginTls.selfSigned duration', () => PluginTls.selfSigned(js({ duration: null }))],
    ['Plugin.fromPluginName', () => Plugin.fromPluginName(js(undefined))],
    ['requireSize', () => requireSize('pg', 'storage.size', undefined)],
    ['requireDuration', () => requireDuration('pg', 'tls.duration', undefined)],
    ['a map value left undefined', () => HelloWorldPlugin.parameters(js({ labels: { team: undefined } }))],
  ];
  test.each(missing)('%s: a missing or wrong value', (_what, build) => {
    expect(refusal(build)).not.toMatch(/ undefined /);
  });

  test('a missing required object names what is required', () => {
    expect(refusal(() => new PostgresCluster(Testing.chart(), 'pg', js(undefined)))).toBe(
      'test/pg: props is missing: it must be an object; pass { storage: ... } (this key is required)',
    );
    expect(refusal(() => requireSize('pg', 'storage.size', undefined))).toBe('pg: storage.size is missing: it must be a cdk8s Size; use Size.gibibytes(10)');
  });

  test('a synth line does not repeat the construct path cdk8s prints', () => {
    const err = (() => {
      try {
        const chart = system();
        const pg = new PostgresCluster(chart, 'pg', { storage: { size: Size.gibibytes(1) } });
        pg.addBackup('b', { plugin: BARMAN });
        Testing.synth(chart);
      } catch (e) {
        return e;
      }
      throw new Error('expected a refusal');
    })();
    expectReadableMessage(err);
    for (const line of validationLines(err) ?? []) expect(line.message.startsWith(`${line.path}:`)).toBe(false);
    expect(validationLines(err)).toHaveLength(1);
  });

  test('a schema guard line at synth is readable too', () => {
    refusalAtSynth((chart) => new PostgresCluster(chart, 'pg', { storage: { size: Size.gibibytes(1) }, metadata: js({ labels: { team: 'a b' } }) }));
  });

  test('a suggested fix is itself valid', () => {
    expect(refusal(() => validatePluginName('p', 'pluginName', 'Backup.Example.com'))).toContain("use 'backup.example.com'");
    const msg = refusal(() => validatePluginName('p', 'pluginName', 'Bad_Name'));
    expect(msg).not.toContain("'bad_name'");
    expect(msg).toContain("such as 'backup.example.com'");
  });

  test('an unknown key is matched only to a likely misspelling', () => {
    expect(refusal(() => refuseUnknownKeys('p', 'options', { serverName: 'x' }, ['secretName', 'sourceName']))).not.toContain('did you mean');
    expect(refusal(() => refuseUnknownKeys('p', 'options', { secretNmae: 'x' }, ['secretName', 'sourceName']))).toContain("did you mean 'secretName'?");
  });
});
