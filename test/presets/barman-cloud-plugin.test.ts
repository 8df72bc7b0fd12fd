import * as fs from 'fs';
import * as path from 'path';
import { ApiObject, Chart, JsonPatch, Size, Testing } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import * as YAML from 'yaml';
import { BARMAN_CLOUD_PLUGIN_IMAGE, BARMAN_CLOUD_SIDECAR_IMAGE, BarmanCloudPlugin, BarmanCloudPluginProps, PluginLogLevel, PluginTls } from '../../src';
import { describeWithShared, sharedPath } from '../shared';
import { expectValidationError } from '../util';

const FIXTURES = path.join(__dirname, '..', 'fixtures', 'presets');

function systemChart(namespace = 'cnpg-system'): Chart {
  return new Chart(Testing.app(), 'system', { namespace });
}

function synth(props?: BarmanCloudPluginProps, namespace?: string): { barman: BarmanCloudPlugin; objects: any[] } {
  const chart = systemChart(namespace);
  const barman = new BarmanCloudPlugin(chart, 'barman', props);
  return { barman, objects: Testing.synth(chart) };
}

function find(objects: any[], kind: string, name?: string): any {
  const found = objects.filter((o) => o.kind === kind && (name === undefined || o.metadata.name === name));
  expect(found).toHaveLength(1);
  return found[0];
}

function container(objects: any[]): any {
  return find(objects, 'Deployment').spec.template.spec.containers[0];
}

describe('BarmanCloudPlugin', () => {
  test('the whole install with defaults (snapshot)', () => {
    const { objects } = synth();
    expect(objects).toMatchSnapshot();
  });

  test('is an IPlugin named barman-cloud.cloudnative-pg.io, exposing the StandalonePlugin', () => {
    const { barman, objects } = synth();
    expect(barman.pluginName).toBe('barman-cloud.cloudnative-pg.io');
    expect(BarmanCloudPlugin.PLUGIN_NAME).toBe('barman-cloud.cloudnative-pg.io');
    expect(barman.plugin.pluginName).toBe(barman.pluginName);
    expect(find(objects, 'Service').metadata.labels['cnpg.io/pluginName']).toBe('barman-cloud.cloudnative-pg.io');
    expect(barman.plugin.deployment.name).toBe(find(objects, 'Deployment').metadata.name);
  });

  test('runs `operator --leader-elect --log-level=<level>` before the TLS flags', () => {
    const { objects } = synth({ logLevel: PluginLogLevel.DEBUG });
    expect(container(objects).args).toEqual([
      'operator',
      '--leader-elect',
      '--log-level=debug',
      '--server-cert=/server/tls.crt',
      '--server-key=/server/tls.key',
      '--client-cert=/client/ca.crt',
      '--server-address=:9090',
    ]);
  });

  test('SIDECAR_IMAGE comes from an immutable ConfigMap the construct owns, named after the image', () => {
    const { barman, objects } = synth({ sidecarImage: 'registry.example.com/barman-sidecar:v0.14.0' });
    const cm = find(objects, 'ConfigMap');
    expect(cm.data).toEqual({ SIDECAR_IMAGE: 'registry.example.com/barman-sidecar:v0.14.0' });
    expect(cm.immutable).toBe(true);
    expect(cm.metadata.namespace).toBe('cnpg-system');
    expect(container(objects).env).toEqual([{ name: 'SIDECAR_IMAGE', valueFrom: { configMapKeyRef: { name: cm.metadata.name, key: 'SIDECAR_IMAGE' } } }]);
    expect(barman.sidecarImage).toBe('registry.example.com/barman-sidecar:v0.14.0');
    expect(barman.sidecarImageConfigMap.name).toBe(cm.metadata.name);
    // A different image gives a different ConfigMap name, so the pod template changes and the Deployment rolls.
    const other = find(synth().objects, 'ConfigMap');
    expect(other.metadata.name).not.toBe(cm.metadata.name);
    expect(objects.filter((o) => o.kind === 'Secret')).toHaveLength(0);
  });

  test('user env is kept beside SIDECAR_IMAGE', () => {
    const { objects } = synth({ envVariables: { HTTPS_PROXY: kplus.EnvValue.fromValue('http://proxy:3128') } });
    expect(container(objects).env.map((e: any) => e.name)).toEqual(['HTTPS_PROXY', 'SIDECAR_IMAGE']);
  });

  test('Recreate strategy, one replica, ServiceAccount token mounted', () => {
    const { objects } = synth();
    const deployment = find(objects, 'Deployment');
    expect(deployment.spec.strategy).toEqual({ type: 'Recreate' });
    expect(deployment.spec.replicas).toBe(1);
    expect(deployment.spec.template.spec.automountServiceAccountToken).toBe(true);
    expect(find(objects, 'ServiceAccount').automountServiceAccountToken).toBe(true);
    expect(objects.filter((o) => o.kind === 'PodDisruptionBudget')).toHaveLength(0);
  });

  test('RBAC is bound to the plugin ServiceAccount in the chart namespace; cluster-scoped objects have no namespace', () => {
    const { barman, objects } = synth(undefined, 'backup-system');
    const sa = find(objects, 'ServiceAccount');
    expect(sa.metadata.namespace).toBe('backup-system');
    const subject = [{ kind: 'ServiceAccount', name: sa.metadata.name, namespace: 'backup-system' }];
    const bindings = [...objects.filter((o) => o.kind === 'ClusterRoleBinding'), ...objects.filter((o) => o.kind === 'RoleBinding')];
    expect(bindings).toHaveLength(3);
    for (const b of bindings) expect(b.subjects).toEqual(subject);
    for (const o of objects.filter((x) => x.kind === 'ClusterRole' || x.kind === 'ClusterRoleBinding')) {
      expect(o.metadata.namespace).toBeUndefined();
    }
    expect(find(objects, 'Role').metadata.namespace).toBe('backup-system');
    expect(find(objects, 'RoleBinding').metadata.namespace).toBe('backup-system');
    expect(find(objects, 'ClusterRoleBinding', barman.clusterRoleBinding.name).roleRef).toEqual({
      apiGroup: 'rbac.authorization.k8s.io',
      kind: 'ClusterRole',
      name: barman.clusterRole.name,
    });
    expect(find(objects, 'ClusterRoleBinding', barman.metricsAuthClusterRoleBinding.name).roleRef).toEqual({
      apiGroup: 'rbac.authorization.k8s.io',
      kind: 'ClusterRole',
      name: barman.metricsAuthClusterRole.name,
    });
    expect(find(objects, 'RoleBinding').roleRef).toEqual({ apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: barman.leaderElectionRole.name });
    expect(JSON.stringify(objects)).not.toContain('cnpg-system');
  });

  test('props shared with StandalonePlugin are passed on', () => {
    const { barman, objects } = synth({
      tls: PluginTls.privateCa(),
      serviceName: 'barman-cloud',
      serverName: 'barman-cloud.cnpg-system.svc',
      networkPolicy: false,
      labels: { team: 'dba' },
      imagePullSecrets: [kplus.Secret.fromSecretName(Testing.chart(), 'Pull', 'regcred')],
    });
    expect(barman.plugin.serverName).toBe('barman-cloud.cnpg-system.svc');
    expect(find(objects, 'Service').metadata.name).toBe('barman-cloud');
    expect(objects.filter((o) => o.kind === 'NetworkPolicy')).toHaveLength(0);
    expect(find(objects, 'ClusterRole', barman.clusterRole.name).metadata.labels).toEqual({ team: 'dba' });
    expect(find(objects, 'ConfigMap').metadata.labels).toEqual({ team: 'dba' });
    expect(find(objects, 'Deployment').spec.template.spec.imagePullSecrets).toEqual([{ name: 'regcred' }]);
  });

  test('documented defaults appear in the output', () => {
    const { objects } = synth();
    const c = container(objects);
    expect(c.image).toBe('ghcr.io/cloudnative-pg/plugin-barman-cloud:v0.14.0'); // image
    expect(BARMAN_CLOUD_PLUGIN_IMAGE).toBe('ghcr.io/cloudnative-pg/plugin-barman-cloud:v0.14.0');
    expect(find(objects, 'ConfigMap').data.SIDECAR_IMAGE).toBe('ghcr.io/cloudnative-pg/plugin-barman-cloud-sidecar:v0.14.0'); // sidecarImage
    expect(BARMAN_CLOUD_SIDECAR_IMAGE).toBe('ghcr.io/cloudnative-pg/plugin-barman-cloud-sidecar:v0.14.0');
    expect(c.args).toContain('--log-level=info'); // logLevel
    expect(objects.filter((o) => o.kind === 'CustomResourceDefinition')).toHaveLength(0); // objectStoreCrd
  });

  test('objectStoreCrd includes only the CRDs of the file, without a namespace', () => {
    const { barman, objects } = synth({ objectStoreCrd: path.join(FIXTURES, 'objectstore-crd-and-extras.yaml') });
    const crd = find(objects, 'CustomResourceDefinition');
    expect(crd.metadata).toEqual({ name: 'objectstores.barmancloud.cnpg.io' });
    expect(objects.filter((o) => o.metadata?.name === 'plugin-barman-cloud')).toHaveLength(0);
    expect(barman.objectStoreCrd?.apiObjects).toHaveLength(1);
  });

  test('escape hatch: a JSON patch on the Deployment survives synthesis', () => {
    const chart = systemChart();
    const barman = new BarmanCloudPlugin(chart, 'barman');
    ApiObject.of(barman.plugin.deployment).addJsonPatch(JsonPatch.add('/spec/template/spec/containers/0/args/-', '--metrics-bind-address=:8443'));
    expect(container(Testing.synth(chart)).args.slice(-1)).toEqual(['--metrics-bind-address=:8443']);
  });

  test('deterministic output', () => {
    expect(JSON.stringify(synth().objects)).toBe(JSON.stringify(synth().objects));
  });

  describe('validation (exact messages)', () => {
    test('props not an object', () => {
      expectValidationError(
        () => new BarmanCloudPlugin(systemChart(), 'barman', 'x' as any),
        "system/barman: props 'x' must be an object, not a string; pass e.g. {} or nothing",
      );
    });
    test('image empty', () => {
      expectValidationError(
        () => new BarmanCloudPlugin(systemChart(), 'barman', { image: '' }),
        "system/barman: image '' must not be empty; use an image reference such as ghcr.io/cloudnative-pg/plugin-barman-cloud:v0.14.0",
      );
    });
    test('image with white space', () => {
      expectValidationError(
        () => new BarmanCloudPlugin(systemChart(), 'barman', { image: 'ghcr.io/x y' }),
        "system/barman: image 'ghcr.io/x y' contains white space; use an image reference such as ghcr.io/cloudnative-pg/plugin-barman-cloud:v0.14.0",
      );
    });
    test('sidecarImage not a string', () => {
      expectValidationError(
        () => new BarmanCloudPlugin(systemChart(), 'barman', { sidecarImage: 14 as any }),
        'system/barman: sidecarImage 14 must be a string, not a number; use an image reference such as ghcr.io/cloudnative-pg/plugin-barman-cloud-sidecar:v0.14.0',
      );
    });
    test('logLevel unknown', () => {
      expectValidationError(
        () => new BarmanCloudPlugin(systemChart(), 'barman', { logLevel: 'verbose' as any }),
        "system/barman: logLevel 'verbose' is not a PluginLogLevel; use one of PluginLogLevel.ERROR, PluginLogLevel.WARNING, PluginLogLevel.INFO, PluginLogLevel.DEBUG, PluginLogLevel.TRACE",
      );
    });
    test('envVariables.SIDECAR_IMAGE', () => {
      expectValidationError(
        () => new BarmanCloudPlugin(systemChart(), 'barman', { envVariables: { SIDECAR_IMAGE: kplus.EnvValue.fromValue('x') } }),
        'system/barman: envVariables.SIDECAR_IMAGE {"value":"x"} is set by the construct from sidecarImage; set sidecarImage instead',
      );
    });
    test('objectStoreCrd not a string', () => {
      expectValidationError(
        () => new BarmanCloudPlugin(systemChart(), 'barman', { objectStoreCrd: true as any }),
        'system/barman: objectStoreCrd true must be a string, not a boolean; use a path or URL of a YAML file with the ObjectStore CRD, e.g. BarmanCloudPlugin.OBJECT_STORE_CRD_URL',
      );
    });
    test('objectStoreCrd without a CRD', () => {
      const file = path.join(FIXTURES, 'no-crd.yaml');
      expectValidationError(
        () => new BarmanCloudPlugin(systemChart(), 'barman', { objectStoreCrd: file }),
        `system/barman: objectStoreCrd '${file}' holds no CustomResourceDefinition; use the CRD file of the plugin release, e.g. BARMAN_CLOUD_OBJECT_STORE_CRD_URL`,
      );
    });
    test('a chart without a namespace (from StandalonePlugin)', () => {
      expect(() => new BarmanCloudPlugin(Testing.chart(), 'barman')).toThrow(
        "test/barman: chart 'test' has no namespace; a plugin must be in the operator's namespace; create the chart with the operator's namespace, e.g. new Chart(app, 'cnpg-system', { namespace: 'cnpg-system' })",
      );
    });
  });
});

// ---------------------------------------------------------------------------------------------
// Rule-by-rule comparison with the upstream v0.14.0 release manifest (../shared/reference).
// ---------------------------------------------------------------------------------------------
const MANIFEST = sharedPath('reference', 'plugin-barman-cloud-v0.14.0-manifest.yaml');

describeWithShared(
  'BarmanCloudPlugin compared with the upstream v0.14.0 manifest',
  () => {
    // Read and synthesized once, inside beforeAll: jest runs describe bodies while collecting tests.
    let upstream: any[];
    let barman: BarmanCloudPlugin;
    let ours: any[];
    let upstreamDeployment: any;
    let upstreamContainer: any;
    let ourDeployment: any;
    let ourContainer: any;
    beforeAll(() => {
      upstream = YAML.parseAllDocuments(fs.readFileSync(MANIFEST, 'utf8'))
        .map((d) => d.toJSON())
        .filter((o) => o);
      ({ barman, objects: ours } = synth(undefined, 'backup-system'));
      upstreamDeployment = find(upstream, 'Deployment');
      upstreamContainer = upstreamDeployment.spec.template.spec.containers[0];
      ourDeployment = find(ours, 'Deployment');
      ourContainer = ourDeployment.spec.template.spec.containers[0];
    });

    test('the main ClusterRole has exactly the upstream rules, in the same order', () => {
      expect(find(ours, 'ClusterRole', barman.clusterRole.name).rules).toEqual(find(upstream, 'ClusterRole', 'plugin-barman-cloud').rules);
    });

    test('the metrics-auth ClusterRole has exactly the upstream rules', () => {
      expect(find(ours, 'ClusterRole', barman.metricsAuthClusterRole.name).rules).toEqual(
        find(upstream, 'ClusterRole', 'barman-plugin-metrics-auth-role').rules,
      );
    });

    test('the leader-election Role has exactly the upstream rules', () => {
      expect(find(ours, 'Role').rules).toEqual(find(upstream, 'Role', 'barman-plugin-leader-election-role').rules);
    });

    test('every upstream binding has an equivalent binding; deliberate difference: subjects in the chart namespace', () => {
      const upstreamBindings = upstream.filter((o) => o.kind === 'ClusterRoleBinding' || o.kind === 'RoleBinding');
      const roleRules = (objects: any[], kind: string, name: string) => find(objects, kind, name).rules;
      for (const ub of upstreamBindings) {
        const rules = roleRules(upstream, ub.roleRef.kind, ub.roleRef.name);
        const match = ours.filter((o) => o.kind === ub.kind && JSON.stringify(roleRules(ours, o.roleRef.kind, o.roleRef.name)) === JSON.stringify(rules));
        expect(match).toHaveLength(1);
        expect(ub.subjects).toEqual([{ kind: 'ServiceAccount', name: 'plugin-barman-cloud', namespace: 'cnpg-system' }]);
        expect(match[0].subjects).toEqual([{ kind: 'ServiceAccount', name: barman.plugin.serviceAccount.name, namespace: 'backup-system' }]);
      }
    });

    test('deliberate difference: the unbound upstream ClusterRoles (metrics reader, ObjectStore editor/viewer) are not rendered', () => {
      const bound = new Set(upstream.filter((o) => o.kind.endsWith('Binding')).map((o) => o.roleRef.name));
      const unbound = upstream
        .filter((o) => o.kind === 'ClusterRole' && !bound.has(o.metadata.name))
        .map((o) => o.metadata.name)
        .sort();
      expect(unbound).toEqual(['barman-plugin-metrics-reader', 'barman-plugin-objectstore-editor-role', 'barman-plugin-objectstore-viewer-role']);
      expect(ours.filter((o) => o.kind === 'ClusterRole')).toHaveLength(2);
    });

    test('args: the same flags; deliberate differences: --client-cert path, log level, order', () => {
      const flags = (args: string[]) => Object.fromEntries(args.map((a) => [a.split('=')[0], a.split('=')[1] ?? true]));
      const theirs = flags(upstreamContainer.args);
      const mine = flags(ourContainer.args);
      expect(Object.keys(mine).sort()).toEqual(Object.keys(theirs).sort());
      expect(upstreamContainer.args[0]).toBe('operator');
      expect(ourContainer.args[0]).toBe('operator');
      for (const f of ['--server-cert', '--server-key', '--server-address', '--leader-elect']) expect(mine[f]).toEqual(theirs[f]);
      // The client Secret's ca.crt is the CA in every TLS mode (equal to tls.crt for self-signed leaves).
      expect(theirs['--client-cert']).toBe('/client/tls.crt');
      expect(mine['--client-cert']).toBe('/client/ca.crt');
      // info is the plugin's own default; upstream ships debug.
      expect(theirs['--log-level']).toBe('debug');
      expect(mine['--log-level']).toBe('info');
    });

    test('probes: the same TCP readiness probe on 9090; deliberate differences: no initial delay, a startup probe', () => {
      expect(upstreamContainer.readinessProbe).toEqual({ initialDelaySeconds: 10, periodSeconds: 10, tcpSocket: { port: 9090 } });
      expect(ourContainer.readinessProbe).toEqual({ failureThreshold: 3, periodSeconds: 10, tcpSocket: { port: 9090 } });
      expect(upstreamContainer.startupProbe).toBeUndefined();
      expect(ourContainer.startupProbe).toEqual({ failureThreshold: 30, periodSeconds: 2, tcpSocket: { port: 9090 } });
      expect(upstreamContainer.livenessProbe).toBeUndefined();
      expect(ourContainer.livenessProbe).toBeUndefined();
    });

    test('security context: every upstream setting is kept; deliberate differences: stricter container context, seccomp on the pod and every container', () => {
      expect(ourContainer.securityContext).toMatchObject(upstreamContainer.securityContext);
      expect(ourContainer.securityContext).toEqual({
        ...upstreamContainer.securityContext,
        runAsNonRoot: true,
        privileged: false,
      });
      const upstreamPod = upstreamDeployment.spec.template.spec.securityContext;
      const ourPod = ourDeployment.spec.template.spec.securityContext;
      expect(upstreamPod).toEqual({ runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } });
      expect(ourPod.runAsNonRoot).toBe(true);
      expect(ourPod.seccompProfile).toEqual(upstreamPod.seccompProfile);
      expect(ourContainer.securityContext.seccompProfile).toEqual(upstreamPod.seccompProfile);
    });

    test('deployment: same strategy, replicas, port and mounts; deliberate differences: images, SIDECAR_IMAGE source, resources, token', () => {
      expect(ourDeployment.spec.strategy).toEqual(upstreamDeployment.spec.strategy);
      expect(ourDeployment.spec.replicas).toEqual(upstreamDeployment.spec.replicas);
      expect(ourContainer.ports.map((p: any) => p.containerPort)).toEqual(upstreamContainer.ports.map((p: any) => p.containerPort));
      expect(ourContainer.volumeMounts.map((m: any) => [m.name, m.mountPath])).toEqual(upstreamContainer.volumeMounts.map((m: any) => [m.name, m.mountPath]));
      // The committed manifest points at development images; the release rewrites them to the tag (SOURCES.md).
      expect(upstreamContainer.image).toBe('ghcr.io/cloudnative-pg/plugin-barman-cloud-testing:main');
      expect(ourContainer.image).toBe('ghcr.io/cloudnative-pg/plugin-barman-cloud:v0.14.0');
      const upstreamSecret = find(upstream, 'Secret');
      expect(Buffer.from(upstreamSecret.data.SIDECAR_IMAGE.replace(/\s/g, ''), 'base64').toString()).toBe(
        'ghcr.io/cloudnative-pg/plugin-barman-cloud-sidecar-testing:main',
      );
      expect(find(ours, 'ConfigMap').data.SIDECAR_IMAGE).toBe('ghcr.io/cloudnative-pg/plugin-barman-cloud-sidecar:v0.14.0');
      expect(upstreamContainer.env).toEqual([
        { name: 'SIDECAR_IMAGE', valueFrom: { secretKeyRef: { key: 'SIDECAR_IMAGE', name: upstreamSecret.metadata.name } } },
      ]);
      expect(ourContainer.env).toEqual([
        { name: 'SIDECAR_IMAGE', valueFrom: { configMapKeyRef: { key: 'SIDECAR_IMAGE', name: find(ours, 'ConfigMap').metadata.name } } },
      ]);
      expect(upstreamContainer.resources).toEqual({});
      expect(ourContainer.resources).toEqual({ requests: { cpu: '100m', memory: '128Mi' }, limits: { memory: '256Mi' } });
      // Upstream relies on the Kubernetes default (mounted); the library writes it out.
      expect(upstreamDeployment.spec.template.spec.automountServiceAccountToken).toBeUndefined();
      expect(ourDeployment.spec.template.spec.automountServiceAccountToken).toBe(true);
    });

    test("service: same discovery label and port annotation; the secret annotations name the construct's Secrets", () => {
      const theirs = find(upstream, 'Service');
      const mine = find(ours, 'Service');
      expect(mine.metadata.labels['cnpg.io/pluginName']).toBe(theirs.metadata.labels['cnpg.io/pluginName']);
      expect(mine.metadata.annotations['cnpg.io/pluginPort']).toBe(theirs.metadata.annotations['cnpg.io/pluginPort']);
      expect(mine.metadata.annotations['cnpg.io/pluginClientSecret']).toBe(barman.plugin.clientSecretName);
      expect(mine.metadata.annotations['cnpg.io/pluginServerSecret']).toBe(barman.plugin.serverSecretName);
    });

    test('kinds: deliberate differences are the CRD (opt-in), Secret -> ConfigMap, an added NetworkPolicy, no unbound ClusterRoles', () => {
      const count = (objects: any[]) => objects.reduce((m: Record<string, number>, o) => ({ ...m, [o.kind]: (m[o.kind] ?? 0) + 1 }), {});
      expect(count(upstream)).toEqual({
        CustomResourceDefinition: 1,
        ServiceAccount: 1,
        Role: 1,
        ClusterRole: 5,
        RoleBinding: 1,
        ClusterRoleBinding: 2,
        Secret: 1,
        Service: 1,
        Deployment: 1,
        Certificate: 2,
        Issuer: 1,
      });
      expect(count(ours)).toEqual({
        ServiceAccount: 1,
        Role: 1,
        ClusterRole: 2,
        RoleBinding: 1,
        ClusterRoleBinding: 2,
        ConfigMap: 1,
        Service: 1,
        Deployment: 1,
        Certificate: 2,
        Issuer: 1,
        NetworkPolicy: 1,
      });
    });

    test('objectStoreCrd with the upstream release manifest keeps only its CRD', () => {
      const { objects } = synth({ objectStoreCrd: MANIFEST }, 'backup-system');
      const crds = objects.filter((o) => o.kind === 'CustomResourceDefinition');
      expect(crds).toHaveLength(1);
      expect(crds[0].metadata.name).toBe('objectstores.barmancloud.cnpg.io');
      expect(crds[0].metadata.namespace).toBeUndefined();
      expect(objects.filter((o) => JSON.stringify(o).includes('cnpg-system')).map((o) => o.kind)).toEqual([]);
    });
  },
  'reference',
  'plugin-barman-cloud-v0.14.0-manifest.yaml',
);

describe('BarmanCloudPlugin and issue #13', () => {
  test('an id with _ in a chart whose id starts with a digit gives names the API server accepts, for every object', () => {
    const chart = new Chart(Testing.app(), '9system', { namespace: 'cnpg-system' });
    const barman = new BarmanCloudPlugin(chart, 'barman_payments54');
    const objects = Testing.synth(chart);
    expect(objects).toHaveLength(14);
    for (const o of objects) expect(o.metadata.name).toMatch(/^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/);
    expect(find(objects, 'Deployment').metadata.name).toMatch(/^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/);
    expect(find(objects, 'Service').metadata.name).toMatch(/^[a-z]([-a-z0-9]{0,61}[a-z0-9])?$/);
    // The names the objects use for each other follow.
    expect(find(objects, 'ClusterRoleBinding', barman.clusterRoleBinding.name).roleRef.name).toBe(
      find(objects, 'ClusterRole', barman.clusterRole.name).metadata.name,
    );
    expect(find(objects, 'RoleBinding').subjects[0].name).toBe(find(objects, 'ServiceAccount').metadata.name);
    const env = find(objects, 'Deployment').spec.template.spec.containers[0].env.find((e: any) => e.name === 'SIDECAR_IMAGE');
    expect(env.valueFrom.configMapKeyRef.name).toBe(find(objects, 'ConfigMap').metadata.name);
  });

  test('keys it does not take are refused (replicas: the plugin runs one leader-elected replica)', () => {
    expectValidationError(
      () => synth({ replicas: 2 } as any),
      'system/barman: props.replicas 2 is not a declared key of props; remove it; props takes envVariables, image, imagePullPolicy, imagePullSecrets, labels, logLevel, names, networkPolicy, nodeSelector, objectStoreCrd, operatorPodLabels, port, ...',
    );
    expectValidationError(
      () => synth({ sidecarImge: BARMAN_CLOUD_SIDECAR_IMAGE } as any),
      `system/barman: props.sidecarImge '${BARMAN_CLOUD_SIDECAR_IMAGE}' is not a declared key of props; did you mean 'sidecarImage'?`,
    );
  });

  test('errors of the shared props name the preset, not its inner StandalonePlugin', () => {
    expectValidationError(
      () => synth({ operatorPodLabels: {} }),
      "system/barman: operatorPodLabels {} is empty, which would admit every pod in the namespace; name the operator's pod labels, e.g. { 'app.kubernetes.io/name': 'cloudnative-pg' }",
    );
    expectValidationError(
      () => new BarmanCloudPlugin(new Chart(Testing.app(), 'system'), 'barman'),
      "system/barman: chart 'system' has no namespace; a plugin must be in the operator's namespace; create the chart with the operator's namespace, e.g. new Chart(app, 'cnpg-system', { namespace: 'cnpg-system' })",
    );
  });

  test('images must be pinned, the sidecar image too', () => {
    expectValidationError(
      () => synth({ sidecarImage: 'ghcr.io/cloudnative-pg/plugin-barman-cloud-sidecar' }),
      "system/barman: sidecarImage 'ghcr.io/cloudnative-pg/plugin-barman-cloud-sidecar' has no tag, so the runtime pulls :latest; pin a release tag or a digest, e.g. ghcr.io/cloudnative-pg/plugin-barman-cloud-sidecar:v0.14.0",
    );
    expectValidationError(
      () => synth({ image: 'ghcr.io/cloudnative-pg/plugin-barman-cloud:latest' }),
      "system/barman: image 'ghcr.io/cloudnative-pg/plugin-barman-cloud:latest' uses the latest tag, which moves under a running Deployment; pin a release tag or a digest, e.g. ghcr.io/cloudnative-pg/plugin-barman-cloud:v0.14.0",
    );
  });

  test('a request above its limit is refused', () => {
    // The schema guard compares the quantities at synth (src/schema/guard.ts apiServerIssues).
    expect(() => synth({ resources: { memory: { request: Size.gibibytes(1), limit: Size.mebibytes(512) } } })).toThrow(
      /Validation failed with the following errors:[\s\S]*containers\[0\]\.resources\.requests\.memory: is above the memory limit '512Mi'/,
    );
  });

  test('the release defaults are static members too', () => {
    expect(BarmanCloudPlugin.PLUGIN_IMAGE).toBe(BARMAN_CLOUD_PLUGIN_IMAGE);
    expect(BarmanCloudPlugin.SIDECAR_IMAGE).toBe(BARMAN_CLOUD_SIDECAR_IMAGE);
    expect(BarmanCloudPlugin.PLUGIN_VERSION).toBe('v0.14.0');
    expect(BarmanCloudPlugin.OBJECT_STORE_CRD_URL).toContain('/v0.14.0/config/crd/bases/barmancloud.cnpg.io_objectstores.yaml');
  });
});

describe('BarmanCloudPlugin: synth errors name the construct the user made (issue #13 point 5)', () => {
  function synthLines(chart: Chart): string[] {
    try {
      Testing.synth(chart);
    } catch (e) {
      return (e as Error).message
        .split('\n')
        .slice(1)
        .map((l) => l.trim());
    }
    return [];
  }

  test("schema guard lines of the inner StandalonePlugin and of its certificates are reported on 'system/barman'", () => {
    const chart = systemChart();
    const barman = new BarmanCloudPlugin(chart, 'barman', { resources: { memory: { request: Size.gibibytes(1), limit: Size.mebibytes(512) } } });
    // The escape hatch on an inner object: still the user's construct that is named.
    const server = barman.plugin.tls.serverCertificate!;
    ApiObject.of(server).addJsonPatch(JsonPatch.add('/spec/usages/0', 'bogus'));
    const lines = synthLines(chart);
    expect(lines).toEqual([
      expect.stringMatching(
        new RegExp(`^\\[system/barman\\] Certificate '${server.name}' spec\\.usages\\[0\\]: is not one of the values the CRD allows; value 'bogus'`),
      ),
      `[system/barman] Deployment '${barman.plugin.deployment.name}' spec.template.spec.containers[0].resources.requests.memory: is above the memory limit '512Mi'; a request must be less than or equal to its limit; value '1Gi'; allowed at most '512Mi'`,
    ]);
  });
});
