import { Chart, Duration, Size, Testing } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import {
  BackupSchedule,
  ClusterBootstrap,
  ObjectStore,
  ObjectStoreCredentials,
  OperatorDeployment,
  Plugin,
  PluginBackup,
  PluginScheduledBackup,
  PostgresCluster,
  PostgresClusterProps,
  SidecarPlugin,
  StandalonePlugin,
  StandalonePluginProps,
} from '../../src';
import { synthErrors } from '../postgres/synth-errors';
import { expectValidationError } from '../util';

/*
 * Exact-message tests for the bugs the hardening properties found: each of these inputs used
 * to synthesize wrong YAML or throw an error from inside cdk8s instead of this library's own.
 */

const HELLO = { pluginName: 'hello.example.com', image: 'ghcr.io/example/hello:v1' };

function standalone(props: Record<string, unknown>, namespace: string = 'cnpg-system'): () => unknown {
  return () => {
    const chart = new Chart(Testing.app(), 'sys', { namespace });
    new StandalonePlugin(chart, 'p', { ...HELLO, ...props } as unknown as StandalonePluginProps);
    return Testing.synth(chart);
  };
}

describe('StandalonePlugin checks what it used to pass through', () => {
  test.each<[string, Record<string, unknown>, string]>([
    [
      'a string for a boolean',
      { automountServiceAccountToken: 'false' },
      "sys/p: automountServiceAccountToken 'false' must be a boolean, not a string; pass true or false",
    ],
    [
      'a key of an earlier release',
      { serviceAccountToken: true },
      "sys/p: props.serviceAccountToken true is not a key of props: it was renamed; use 'automountServiceAccountToken' (the cdk8s-plus name)",
    ],
    ['a misspelled key', { replica: 2 }, "sys/p: props.replica 2 is not a declared key of props; did you mean 'replicas'?"],
    ['0 for appendTlsArgs (which dropped the TLS flags)', { appendTlsArgs: 0 }, 'sys/p: appendTlsArgs 0 must be a boolean, not a number; pass true or false'],
    ['a string for networkPolicy', { networkPolicy: 'no' }, "sys/p: networkPolicy 'no' must be a boolean, not a string; pass true or false"],
    [
      'an unknown image pull policy',
      { imagePullPolicy: 'Sometimes' },
      "sys/p: imagePullPolicy 'Sometimes' is not a kplus.ImagePullPolicy; use one of kplus.ImagePullPolicy.ALWAYS, kplus.ImagePullPolicy.IF_NOT_PRESENT, kplus.ImagePullPolicy.NEVER",
    ],
    [
      'a plain object for strategy',
      { strategy: { type: 'Recreate' } },
      'sys/p: strategy {"type":"Recreate"} must be a kplus.DeploymentStrategy, not an object; use DeploymentStrategy.recreate() or DeploymentStrategy.rollingUpdate()',
    ],
    [
      'a string for an env value',
      { envVariables: { LOG_LEVEL: 'debug' } },
      "sys/p: envVariables.LOG_LEVEL 'debug' must be a kplus.EnvValue, not a string; use { LOG_LEVEL: EnvValue.fromValue('info') }",
    ],
    [
      'an env name with a line break',
      { envVariables: { 'LOG\nLEVEL': kplus.EnvValue.fromValue('x') } },
      `sys/p: envVariables "LOG\\nLEVEL" is not an environment variable name that Kubernetes 1.30 accepts (letters, digits, '_', '-' and '.', not a digit first); use { LOG_LEVEL: EnvValue.fromValue('info') }`,
    ],
    [
      'a number for a Cpu',
      { resources: { cpu: { request: 100 } } },
      'sys/p: resources.cpu.request 100 must be a cdk8s-plus Cpu, not a number; use Cpu.millis(500) or Cpu.units(1)',
    ],
    [
      'a Duration for a Cpu',
      { resources: { cpu: { limit: Duration.millis(1500) } } },
      'sys/p: resources.cpu.limit {"amount":1500,"unit":{"label":"millis","inMillis":1}} must be a cdk8s-plus Cpu, not an object; use Cpu.millis(500) or Cpu.units(1)',
    ],
    [
      'null for serviceName (a Service without a name)',
      { serviceName: null },
      "sys/p: serviceName null is not a valid Service name (an RFC 1035 label: a letter first, at most 63 characters); set serviceName to a name such as 'my-plugin'",
    ],
    [
      'a label value with a space',
      { labels: { team: 'a b' } },
      "sys/p: labels.team 'a b' is not a valid label value; use at most 63 letters, digits, -, _ and ., starting and ending with a letter or digit, or an empty string",
    ],
    [
      'an empty label key',
      { labels: { '': 'x' } },
      "sys/p: labels '' is not a valid label key; use an optional DNS prefix and '/', then at most 63 letters, digits, -, _ and ., e.g. 'example.com/team'",
    ],
    [
      'an operator pod label value with a space',
      { operatorPodLabels: { 'app.kubernetes.io/name': ' ' } },
      "sys/p: operatorPodLabels.app.kubernetes.io/name ' ' is not a valid label value; use at most 63 letters, digits, -, _ and ., starting and ending with a letter or digit, or an empty string",
    ],
    [
      'a node selector value with a space',
      { nodeSelector: { zone: 'eu west' } },
      "sys/p: nodeSelector.zone 'eu west' is not a valid label value; use at most 63 letters, digits, -, _ and ., starting and ending with a letter or digit, or an empty string",
    ],
    [
      'null in tolerations (a TypeError inside)',
      { tolerations: [null] },
      "sys/p: tolerations[0] null must be a kplus.NodeTaintQuery, not null; use NodeTaintQuery.exists('dedicated'), NodeTaintQuery.is('dedicated', 'plugins') or NodeTaintQuery.any()",
    ],
    [
      'an unknown toleration operator',
      { tolerations: [{ key: 'dedicated', operator: 'In' }] },
      'sys/p: tolerations[0] {"key":"dedicated","operator":"In"} must be a kplus.NodeTaintQuery, not an object; use NodeTaintQuery.exists(\'dedicated\'), NodeTaintQuery.is(\'dedicated\', \'plugins\') or NodeTaintQuery.any()',
    ],
    [
      'a toleration key that is no label key',
      { tolerations: [kplus.NodeTaintQuery.exists('dedicated node')] },
      'sys/p: tolerations[0] {"key":"dedicated node","operator":"Exists"} has a key or value that is not a label key or value; use NodeTaintQuery.exists(\'dedicated\'), NodeTaintQuery.is(\'dedicated\', \'plugins\') or NodeTaintQuery.any()',
    ],
    ['more replicas than an int32', { replicas: 2 ** 31 }, 'sys/p: replicas 2147483648 is out of range; use a whole number from 0 to 2147483647'],
  ])('%s', (_what, props, message) => {
    expectValidationError(standalone(props), message);
  });

  test('a memory request above its limit (the API server refused the pod) is refused by the schema guard at synth', () => {
    const chart = new Chart(Testing.app(), 'sys', { namespace: 'cnpg-system' });
    new StandalonePlugin(chart, 'p', {
      pluginName: 'p.example.com',
      image: 'ghcr.io/org/p:v1',
      resources: { memory: { request: Size.mebibytes(512), limit: Size.mebibytes(256) } },
    });
    expect(synthErrors(chart).join('\n')).toContain("resources.requests.memory: is above the memory limit '256Mi'");
  });

  test('a chart namespace that is not a namespace name', () => {
    expectValidationError(
      standalone({}, 'Cnpg System'),
      "sys/p: namespace 'Cnpg System' of the chart is not a namespace name (an RFC 1123 label); create the chart with the operator's namespace, e.g. new Chart(app, 'cnpg-system', { namespace: 'cnpg-system' })",
    );
  });
});

describe('name checks refuse non-strings that RegExp.test would read as strings', () => {
  test('a chart namespace given as an array', () => {
    expectValidationError(
      standalone({}, ['cnpg-system'] as unknown as string),
      "sys/p: namespace [\"cnpg-system\"] of the chart is not a namespace name (an RFC 1123 label); create the chart with the operator's namespace, e.g. new Chart(app, 'cnpg-system', { namespace: 'cnpg-system' })",
    );
  });
});

describe('metadata props are checked like the API server checks them', () => {
  const apps = () => new Chart(Testing.app(), 'apps', { namespace: 'databases' });
  const BARMAN = Plugin.fromPluginName('barman-cloud.cloudnative-pg.io');
  const pg = PostgresCluster.fromClusterName('pg');

  test('a Backup name that is a number', () => {
    expectValidationError(
      () => new PluginBackup(apps(), 'b', { cluster: pg, plugin: BARMAN, metadata: { name: 1 as unknown as string } }),
      "apps/b: metadata.name 1 must be an object name (a lower-case DNS subdomain), not a number; use lower-case letters, digits, '-' and '.', e.g. 'orders', or leave it out",
    );
  });
  test('a ScheduledBackup label value with a space', () => {
    // The schema guard judges label values at synth (src/schema/object-meta.ts labelIssues).
    const chart = apps();
    new PluginScheduledBackup(chart, 's', { cluster: pg, plugin: BARMAN, schedule: BackupSchedule.daily(0), metadata: { labels: { team: ' ' } } });
    expect(synthErrors(chart).join('\n')).toContain("[apps/s] ScheduledBackup 'pg-s' metadata.labels.team: is not a valid label value; value ' '");
  });
  test('a Duration given as metadata (failed inside cdk8s at synth)', () => {
    expectValidationError(
      () => new PluginBackup(apps(), 'b', { cluster: pg, plugin: BARMAN, metadata: Duration.seconds(0) as any }),
      'apps/b: metadata.amount 0 is not a declared key of metadata (and 1 more unknown key); remove it; metadata takes annotations, finalizers, labels, name, namespace, ownerReferences',
    );
  });
  test('an ObjectStore with name: undefined keeps the default name, its construct id (it had no name)', () => {
    const chart = apps();
    const store = new ObjectStore(chart, 'store', {
      destinationPath: 's3://b/p',
      credentials: ObjectStoreCredentials.s3IamRole(),
      metadata: { name: undefined },
    });
    expect(store.name).toBe('store');
    expect((Testing.synth(chart)[0] as any).metadata.name).toBe(store.name);
  });
  test('a Cluster annotation key with a space', () => {
    const chart = apps();
    new PostgresCluster(chart, 'pg', { storage: { size: Size.gibibytes(1) }, metadata: { annotations: { 'a b': 'c' } } });
    expect(synthErrors(chart).join('\n')).toContain('[apps/pg] Cluster \'pg\' metadata.annotations["a b"]: is not a valid annotation key');
  });
});

describe('passthrough sections must be plain JSON (refused at synth, by name)', () => {
  const fix = 'write strings, numbers, booleans, arrays and plain objects, as the CRD takes them';
  const errorsOf = (props: Partial<PostgresClusterProps>) => {
    const chart = new Chart(Testing.app(), 'apps', { namespace: 'databases' });
    new PostgresCluster(chart, 'pg', { storage: { size: Size.gibibytes(1) }, ...props });
    return synthErrors(chart);
  };
  test('a Date inside spec (failed inside cdk8s at synth)', () => {
    expect(errorsOf({ spec: { description: new Date(0) as any } })).toEqual([
      `[apps/pg] spec.description "1970-01-01T00:00:00.000Z" is not plain JSON (Date); ${fix}`,
    ]);
  });
  test('a Duration as the pvcTemplate', () => {
    expect(errorsOf({ storage: { size: Size.gibibytes(1), pvcTemplate: Duration.seconds(1) as any } })).toEqual([
      `[apps/pg] storage.pvcTemplate {"amount":1,"unit":{"label":"seconds","inMillis":1000}} is not plain JSON (Duration); ${fix}`,
    ]);
  });
  test('NaN in the affinity', () => {
    expect(errorsOf({ affinity: { podAntiAffinityType: NaN as any } })).toEqual([
      `[apps/pg] affinity.podAntiAffinityType NaN is not plain JSON (number); ${fix}`,
    ]);
  });
  test('a function in initdb options', () => {
    expect(errorsOf({ bootstrap: ClusterBootstrap.initdb({ database: (() => 'app') as any }) })).toEqual([
      `[apps/pg] bootstrap.initdb.database [function database] is not plain JSON (function); ${fix}`,
    ]);
  });
});

describe('environment variable names are what Kubernetes 1.30 accepts, everywhere', () => {
  test('a name that only Kubernetes 1.32 and later accept by default (a space, a colon, a digit first) is refused', () => {
    const store = (env: Record<string, kplus.EnvValue>) => () =>
      new ObjectStore(new Chart(Testing.app(), 'apps', { namespace: 'databases' }), 'store', {
        destinationPath: 's3://b/p',
        credentials: ObjectStoreCredentials.s3IamRole(),
        instanceSidecarConfiguration: { env },
      });
    for (const name of ['HTTP PROXY', 'a:b', '1ST']) {
      expectValidationError(
        store({ [name]: kplus.EnvValue.fromValue('x') }),
        `apps/store: instanceSidecarConfiguration.env '${name}' is not an environment variable name that Kubernetes 1.30 accepts (letters, digits, '_', '-' and '.', not a digit first); use { LOG_LEVEL: EnvValue.fromValue('info') }`,
      );
    }
    expect(store({ 'aws.ca-bundle': kplus.EnvValue.fromValue('x'), _X: kplus.EnvValue.fromValue('y') })).not.toThrow();
  });

  test('a sidecar env name with a non-ASCII letter', () => {
    const chart = new Chart(Testing.app(), 'sys', { namespace: 'cnpg-system' });
    const deployment = new kplus.Deployment(chart, 'operator', {
      containers: [{ name: 'manager', image: 'cnpg:1', args: ['controller'], envVariables: { OPERATOR_NAMESPACE: kplus.EnvValue.fromValue('cnpg-system') } }],
    });
    expectValidationError(
      () =>
        new SidecarPlugin(chart, 'hello', {
          ...HELLO,
          operator: OperatorDeployment.fromDeployment(deployment),
          envVariables: { NIVEAU_DÉTAIL: kplus.EnvValue.fromValue('x') },
        }),
      "sys/hello: envVariables 'NIVEAU_DÉTAIL' is not an environment variable name that Kubernetes 1.30 accepts (letters, digits, '_', '-' and '.', not a digit first); use { LOG_LEVEL: EnvValue.fromValue('info') }",
    );
  });
});

describe('ObjectStore instance sidecar resources', () => {
  const store = (resources: unknown) => () =>
    new ObjectStore(new Chart(Testing.app(), 'apps', { namespace: 'databases' }), 'store', {
      destinationPath: 's3://b/p',
      credentials: ObjectStoreCredentials.s3IamRole(),
      instanceSidecarConfiguration: { resources: resources as any },
    });
  test('a string for a memory Size (a TypeError inside)', () => {
    expectValidationError(
      store({ memory: { request: '64Mi' } }),
      "apps/store: instanceSidecarConfiguration.resources.memory.request '64Mi' must be a cdk8s Size, not a string; use Size.mebibytes(128)",
    );
  });
  test('a number for a Cpu (silently dropped)', () => {
    expectValidationError(
      store({ cpu: { request: 100 }, memory: { request: Size.mebibytes(64) } }),
      'apps/store: instanceSidecarConfiguration.resources.cpu.request 100 must be a cdk8s-plus Cpu, not a number; use Cpu.millis(500) or Cpu.units(1)',
    );
  });
});
