import { Chart, Testing } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { HELLO_WORLD_PLUGIN_IMAGE, HelloWorldPlugin, HelloWorldPluginProps, PluginLogLevel } from '../../src';
import { expectValidationError } from '../util';

function systemChart(): Chart {
  return new Chart(Testing.app(), 'system', { namespace: 'cnpg-system' });
}

function synth(props?: HelloWorldPluginProps): { hello: HelloWorldPlugin; objects: any[] } {
  const chart = systemChart();
  const hello = new HelloWorldPlugin(chart, 'hello', props);
  return { hello, objects: Testing.synth(chart) };
}

function deployment(objects: any[]): any {
  return objects.find((o) => o.kind === 'Deployment');
}

describe('HelloWorldPlugin', () => {
  test('the whole install with defaults (snapshot)', () => {
    expect(synth().objects).toMatchSnapshot();
  });

  test('is an IPlugin named cnpg-i-hello-world.cloudnative-pg.io running `plugin`', () => {
    const { hello, objects } = synth({ logLevel: PluginLogLevel.TRACE });
    expect(hello.pluginName).toBe('cnpg-i-hello-world.cloudnative-pg.io');
    expect(HelloWorldPlugin.PLUGIN_NAME).toBe(hello.pluginName);
    expect(hello.plugin.pluginName).toBe(hello.pluginName);
    expect(objects.find((o) => o.kind === 'Service').metadata.labels['cnpg.io/pluginName']).toBe('cnpg-i-hello-world.cloudnative-pg.io');
    expect(deployment(objects).spec.template.spec.containers[0].args).toEqual([
      'plugin',
      '--log-level=trace',
      '--server-cert=/server/tls.crt',
      '--server-key=/server/tls.key',
      '--client-cert=/client/ca.crt',
      '--server-address=:9090',
    ]);
  });

  test('documented defaults appear in the output', () => {
    const { hello, objects } = synth();
    const c = deployment(objects).spec.template.spec.containers[0];
    expect(c.image).toBe('ghcr.io/cloudnative-pg/cnpg-i-hello-world:v0.1.0'); // image
    expect(HELLO_WORLD_PLUGIN_IMAGE).toBe(c.image);
    expect(hello.image).toBe(c.image);
    expect(c.args).toContain('--log-level=info'); // logLevel
    // The plugin needs no Kubernetes API access: StandalonePlugin's default (no token) stays.
    expect(deployment(objects).spec.template.spec.automountServiceAccountToken).toBe(false);
  });

  test('props shared with StandalonePlugin are passed on', () => {
    const { objects } = synth({
      image: 'registry.example.com/hello:v0.2.0-dev',
      replicas: 2,
      automountServiceAccountToken: true,
      envVariables: { DEBUG: kplus.EnvValue.fromValue('1') },
    });
    const d = deployment(objects);
    expect(d.spec.replicas).toBe(2);
    expect(d.spec.template.spec.automountServiceAccountToken).toBe(true);
    expect(d.spec.template.spec.containers[0].image).toBe('registry.example.com/hello:v0.2.0-dev');
    expect(d.spec.template.spec.containers[0].env).toEqual([{ name: 'DEBUG', value: '1' }]);
    expect(objects.filter((o) => o.kind === 'PodDisruptionBudget')).toHaveLength(1);
  });

  test('JavaScript callers cannot override the plugin name or args through props: the keys are refused', () => {
    expectValidationError(
      () => synth({ pluginName: 'other.example.com' } as any),
      "system/hello: props.pluginName 'other.example.com' is not a declared key of props; remove it; props takes automountServiceAccountToken, envVariables, image, imagePullPolicy, imagePullSecrets, labels, logLevel, networkPolicy, nodeSelector, operatorPodLabels, port, priorityClassName, ...",
    );
    expectValidationError(
      () => synth({ args: ['x'] } as any),
      'system/hello: props.args ["x"] is not a declared key of props; remove it; props takes automountServiceAccountToken, envVariables, image, imagePullPolicy, imagePullSecrets, labels, logLevel, networkPolicy, nodeSelector, operatorPodLabels, port, priorityClassName, ...',
    );
  });

  describe('parameters()', () => {
    test('encodes labels and annotations as JSON strings with sorted keys', () => {
      expect(
        HelloWorldPlugin.parameters({
          labels: { 'second-label': 'b', 'first-label': 'a' },
          annotations: { 'example.com/note': 'hello, world', a: '' },
        }),
      ).toEqual({
        labels: '{"first-label":"a","second-label":"b"}',
        annotations: '{"a":"","example.com/note":"hello, world"}',
      });
    });

    test('round-trips through JSON.parse, which is what the plugin does (json.Unmarshal)', () => {
      const labels = { 'app.kubernetes.io/part-of': 'payments', tier: 'db' };
      expect(JSON.parse(HelloWorldPlugin.parameters({ labels }).labels)).toEqual(labels);
    });

    test('documented defaults: unset keys are left out, so the plugin adds plugin-metadata: default', () => {
      expect(HelloWorldPlugin.parameters({})).toEqual({});
      expect(HelloWorldPlugin.parameters({ labels: { a: 'b' } })).toEqual({ labels: '{"a":"b"}' });
    });

    const cases: Array<[string, unknown, string]> = [
      ['not an object', 'labels', "HelloWorldPlugin.parameters: parameters 'labels' must be an object, not a string; pass e.g. { labels: { team: 'db' } }"],
      [
        'labels not an object',
        { labels: ['a'] },
        'HelloWorldPlugin.parameters: parameters.labels ["a"] must be an object of strings, not an array; pass { key: \'value\' }',
      ],
      [
        'label value not a string',
        { labels: { replicas: 3 } },
        "HelloWorldPlugin.parameters: parameters.labels.replicas 3 must be a string, not a number; write it as a string, e.g. '3'",
      ],
      [
        'label value invalid',
        { labels: { team: 'data base' } },
        "HelloWorldPlugin.parameters: parameters.labels.team 'data base' is not a valid label value; use at most 63 letters, digits, -, _ and ., starting and ending with a letter or digit, or an empty string",
      ],
      [
        'label value too long',
        { labels: { team: 'a'.repeat(64) } },
        `HelloWorldPlugin.parameters: parameters.labels.team '${'a'.repeat(64)}' is not a valid label value; use at most 63 letters, digits, -, _ and ., starting and ending with a letter or digit, or an empty string`,
      ],
      [
        'label key invalid',
        { labels: { 'team name': 'db' } },
        "HelloWorldPlugin.parameters: parameters.labels 'team name' is not a valid label key; use an optional DNS prefix and '/', then at most 63 letters, digits, -, _ and ., e.g. 'example.com/team'",
      ],
      // The API server compares annotation keys lower-cased, so 'Example.com/note' is fine; a space is not.
      [
        'annotation key with a bad prefix',
        { annotations: { 'example com/note': 'x' } },
        "HelloWorldPlugin.parameters: parameters.annotations 'example com/note' is not a valid annotation key; use an optional DNS prefix and '/', then at most 63 letters, digits, -, _ and ., e.g. 'example.com/owner'",
      ],
      [
        'annotation value not a string',
        { annotations: { note: true } },
        "HelloWorldPlugin.parameters: parameters.annotations.note true must be a string, not a boolean; write it as a string, e.g. 'true'",
      ],
    ];
    test.each(cases)('validation: %s', (_name, input, message) => {
      expectValidationError(() => HelloWorldPlugin.parameters(input as any), message);
    });
  });

  describe('validation (exact messages)', () => {
    test('props not an object', () => {
      expectValidationError(
        () => new HelloWorldPlugin(systemChart(), 'hello', 7 as any),
        'system/hello: props 7 must be an object, not a number; pass e.g. {} or nothing',
      );
    });
    test('image empty', () => {
      expectValidationError(
        () => new HelloWorldPlugin(systemChart(), 'hello', { image: ' ' }),
        "system/hello: image ' ' must not be empty; use an image reference such as ghcr.io/cloudnative-pg/cnpg-i-hello-world:v0.1.0",
      );
    });
    test('image with white space', () => {
      expectValidationError(
        () => new HelloWorldPlugin(systemChart(), 'hello', { image: 'a b' }),
        "system/hello: image 'a b' contains white space; use an image reference such as ghcr.io/cloudnative-pg/cnpg-i-hello-world:v0.1.0",
      );
    });
    test('logLevel unknown', () => {
      expectValidationError(
        () => new HelloWorldPlugin(systemChart(), 'hello', { logLevel: 'warn' as any }),
        "system/hello: logLevel 'warn' is not a PluginLogLevel; use one of PluginLogLevel.ERROR, PluginLogLevel.WARNING, PluginLogLevel.INFO, PluginLogLevel.DEBUG, PluginLogLevel.TRACE",
      );
    });
  });
});

describe('HelloWorldPlugin and issue #13', () => {
  test('the release defaults are static members too', () => {
    expect(HelloWorldPlugin.PLUGIN_IMAGE).toBe(HELLO_WORLD_PLUGIN_IMAGE);
    expect(HelloWorldPlugin.PLUGIN_VERSION).toBe('v0.1.0');
  });

  test('an unknown key of the parameters is refused with the nearest one', () => {
    expectValidationError(
      () => HelloWorldPlugin.parameters({ label: { team: 'db' } } as any),
      'HelloWorldPlugin.parameters: parameters.label {"team":"db"} is not a declared key of parameters; did you mean \'labels\'?',
    );
  });
});

test('HelloWorldPlugin.parameters accepts an annotation key with upper case, as the API server does', () => {
  expect(HelloWorldPlugin.parameters({ annotations: { 'Example.com/Note': 'x' } })).toEqual({ annotations: '{"Example.com/Note":"x"}' });
});

describe('HelloWorldPlugin: synth errors name the construct the user made (issue #13 point 5)', () => {
  test("a schema guard line of the inner StandalonePlugin is reported on 'system/hello'", () => {
    const chart = systemChart();
    const hello = new HelloWorldPlugin(chart, 'hello', { resources: { cpu: { request: kplus.Cpu.millis(500), limit: kplus.Cpu.millis(100) } } });
    let message = '';
    try {
      Testing.synth(chart);
    } catch (e) {
      message = (e as Error).message;
    }
    expect(
      message
        .split('\n')
        .slice(1)
        .map((l) => l.trim()),
    ).toEqual([
      `[system/hello] Deployment '${hello.plugin.deployment.name}' spec.template.spec.containers[0].resources.requests.cpu: is above the cpu limit '100m'; a request must be less than or equal to its limit; value '500m'; allowed at most '100m'`,
    ]);
  });
});
