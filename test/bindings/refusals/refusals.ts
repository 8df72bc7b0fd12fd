// One bad prop per construct family, in TypeScript: the reference the Python, Java and Go
// programs beside this file must match line for line (test/bindings/apps.test.ts). Each case
// prints `--- <case>` and the refusal's message, or `no refusal`; the last one reads the rule
// lists, which other languages reach as static members. It imports the library from src/ to be
// type-checked with the tests; scripts/bindings-apps.mjs runs it on the built package instead.
import { App, Chart, Size } from 'cdk8s';
import {
  BackupSchedule,
  BarmanCloudPlugin,
  Doctor,
  HelloWorldPlugin,
  ObjectStore,
  ObjectStoreCredentials,
  Plan,
  PostgresCluster,
  RecoveryTarget,
  StandalonePlugin,
} from '../../../src';

function attempt(name: string, body: (chart: Chart) => void): void {
  const app = new App({ outdir: 'refusals-out' });
  const chart = new Chart(app, 'refusals', { namespace: 'cnpg-system' });
  let message = 'no refusal';
  try {
    body(chart);
    app.synth();
  } catch (e) {
    message = e instanceof Error ? e.message : String(e);
  }
  process.stdout.write(`--- ${name}\n${message}\n`);
}

// plugins: a name that is not a DNS subdomain
attempt('plugin', (chart) => {
  new StandalonePlugin(chart, 'mine', { pluginName: 'Not_A_Name', image: 'example.com/plugin:v1' });
});
// clusters: no instance
attempt('cluster', (chart) => {
  new PostgresCluster(chart, 'pg', { instances: 0, storage: { size: Size.gibibytes(1) } });
});
// clusters, at synth: Barman Cloud enabled without an ObjectStore
attempt('cluster-synth', (chart) => {
  const barman = new BarmanCloudPlugin(chart, 'barman');
  new PostgresCluster(chart, 'pg', { instances: 1, storage: { size: Size.gibibytes(1) } }).addPlugin(barman, { isWalArchiver: true });
});
// backups: an hour past the day
attempt('backup', () => {
  BackupSchedule.daily(24);
});
// recoveries: an LSN that is not one
attempt('recovery', () => {
  RecoveryTarget.lsn('not-an-lsn');
});
// object stores: a destination without a scheme
attempt('object-store', (chart) => {
  new ObjectStore(chart, 'store', {
    destinationPath: 'example-backups/databases',
    credentials: ObjectStoreCredentials.s3AccessKeys({
      accessKeyId: { name: 'backup-credentials', key: 'ACCESS_KEY_ID' },
      secretAccessKey: { name: 'backup-credentials', key: 'ACCESS_SECRET_KEY' },
    }),
  });
});
// presets: a label key the hello-world plugin could not patch onto a pod
attempt('preset', () => {
  HelloWorldPlugin.parameters({ labels: { 'not a key!': 'x' } });
});
// the plan: an empty previousDir
attempt('plan', (chart) => {
  Plan.addPlanValidation(chart, { previousDir: '' });
});
// the rule lists, as static members
process.stdout.write(
  `--- rules\n${Doctor.DOCTOR_RULES.length} doctor rules, the first ${Doctor.DOCTOR_RULES[0].id}; ${Plan.PLAN_RULES.length} plan rules, the last ${Plan.PLAN_RULES[Plan.PLAN_RULES.length - 1].severities[0].severity}\n`,
);
