import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { Chart, JsonPatch, Size, Testing } from 'cdk8s';
import * as YAML from 'yaml';
import { BackupSchedule, ClusterBootstrap, Doctor, PluginManifest, PluginTls, PostgresCluster } from '../../src';
import { describeWithShared, sharedPath } from '../shared';
import { Manifest, expectValidationError, named, ofKind, synth } from '../util';

const BARMAN = sharedPath('reference', 'plugin-barman-cloud-v0.14.0-manifest.yaml');
const SCALE_TO_ZERO = sharedPath('reference', 'cnpg-i-scale-to-zero-v0.1.9-manifest.yaml');
const HELLO_DIR = sharedPath('reference', 'cnpg-i-hello-world-kubernetes');
const NAMESPACE = 'databases';
const FIXTURE = path.join(__dirname, '..', 'fixtures', 'plugins', 'backup-plugin-release.yaml');

let work: string;
beforeAll(() => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'cdk8s-cnpg-i-plugin-manifest-'));
});
afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

/** Writes `objects` as one YAML stream into the test's folder and returns its path. */
function writeManifest(name: string, objects: unknown[]): string {
  const file = path.join(work, name);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, objects.map((o) => YAML.stringify(o)).join('---\n'));
  return file;
}

function chartIn(namespace = NAMESPACE): Chart {
  return new Chart(Testing.app(), 'plugins', { namespace });
}

/** Every error and warning the doctor reports on the chart, one line each. */
function doctorFindings(chart: Chart): string[] {
  return Doctor.validateApp(chart, { operatorNamespace: chart.namespace }).map((f) => Doctor.formatFinding(f));
}

const SERVICE = {
  apiVersion: 'v1',
  kind: 'Service',
  metadata: {
    name: 'my-plugin',
    namespace: 'cnpg-system',
    labels: { app: 'my-plugin', 'cnpg.io/pluginName': 'my-plugin.example.com' },
    annotations: { 'cnpg.io/pluginPort': '9090', 'cnpg.io/pluginClientSecret': 'my-plugin-client-tls', 'cnpg.io/pluginServerSecret': 'my-plugin-server-tls' },
  },
  spec: { selector: { app: 'my-plugin' }, ports: [{ port: 9090, targetPort: 9090, protocol: 'TCP' }] },
};

describe('PluginManifest on a small manifest', () => {
  test('re-homes metadata, RBAC subjects, certificate DNS names and pluginServerName; keeps other names', () => {
    const file = writeManifest('small.yaml', [
      {
        ...SERVICE,
        metadata: { ...SERVICE.metadata, annotations: { ...SERVICE.metadata.annotations, 'cnpg.io/pluginServerName': 'my-plugin.cnpg-system.svc' } },
      },
      { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'my-plugin', namespace: 'cnpg-system' } },
      { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: 'my-plugin' }, rules: [] },
      {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'ClusterRoleBinding',
        metadata: { name: 'my-plugin' },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'my-plugin' },
        subjects: [
          { kind: 'ServiceAccount', name: 'my-plugin', namespace: 'cnpg-system' },
          { kind: 'ServiceAccount', name: 'auditor', namespace: 'monitoring' },
        ],
      },
      {
        apiVersion: 'cert-manager.io/v1',
        kind: 'Certificate',
        metadata: { name: 'my-plugin-server', namespace: 'cnpg-system' },
        spec: {
          secretName: 'my-plugin-server-tls',
          commonName: 'my-plugin',
          dnsNames: ['my-plugin', 'my-plugin.cnpg-system', 'my-plugin.cnpg-system.svc', 'my-plugin.cnpg-system.svc.cluster.local', 'cnpg-system.example.com'],
          issuerRef: { name: 'selfsigned', kind: 'Issuer' },
        },
      },
      { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'elsewhere', namespace: 'monitoring' }, data: { a: 'cnpg-system' } },
    ]);
    const chart = chartIn();
    const plugin = new PluginManifest(chart, 'mine', { path: file });
    expect(plugin.pluginName).toBe('my-plugin.example.com');
    expect(plugin.namespace).toBe(NAMESPACE);
    expect(plugin.sourceNamespace).toBe('cnpg-system');
    const out = synth(chart);
    const svc = named(out, 'Service', 'my-plugin');
    expect(svc.metadata.namespace).toBe(NAMESPACE);
    expect(svc.metadata.annotations['cnpg.io/pluginServerName']).toBe('my-plugin.databases.svc');
    expect(named(out, 'ServiceAccount', 'my-plugin').metadata.namespace).toBe(NAMESPACE);
    expect(named(out, 'ClusterRole', 'my-plugin').metadata.namespace).toBeUndefined();
    const binding = named(out, 'ClusterRoleBinding', 'my-plugin');
    expect(binding.metadata.namespace).toBeUndefined();
    expect(binding.subjects).toEqual([
      { kind: 'ServiceAccount', name: 'my-plugin', namespace: NAMESPACE },
      { kind: 'ServiceAccount', name: 'auditor', namespace: 'monitoring' },
    ]);
    const cert = named(out, 'Certificate', 'my-plugin-server');
    expect(cert.metadata.namespace).toBe(NAMESPACE);
    expect(cert.spec.commonName).toBe('my-plugin');
    expect(cert.spec.dnsNames).toEqual([
      'my-plugin',
      'my-plugin.databases',
      'my-plugin.databases.svc',
      'my-plugin.databases.svc.cluster.local',
      'cnpg-system.example.com',
    ]);
    // An object in another namespace stays there; data is never rewritten.
    expect(named(out, 'ConfigMap', 'elsewhere')).toMatchObject({ metadata: { namespace: 'monitoring' }, data: { a: 'cnpg-system' } });
  });

  test('sourceNamespace names the namespace to replace when the Service has none', () => {
    const { namespace: _ns, ...meta } = SERVICE.metadata;
    const file = writeManifest('no-namespace.yaml', [
      { ...SERVICE, metadata: meta },
      {
        apiVersion: 'cert-manager.io/v1',
        kind: 'Certificate',
        metadata: { name: 'srv' },
        spec: { secretName: 'my-plugin-server-tls', dnsNames: ['my-plugin', 'my-plugin.plugins.svc'], issuerRef: { name: 'i' } },
      },
    ]);
    const chart = chartIn();
    new PluginManifest(chart, 'mine', { path: file, sourceNamespace: 'plugins' });
    const out = synth(chart);
    expect(named(out, 'Service', 'my-plugin').metadata.namespace).toBe(NAMESPACE);
    expect(named(out, 'Certificate', 'srv').spec.dnsNames).toEqual(['my-plugin', 'my-plugin.databases.svc']);
    // Without it nothing is rewritten but the namespace cdk8s gives every object.
    const other = chartIn();
    new PluginManifest(other, 'mine', { path: file });
    expect(named(synth(other), 'Certificate', 'srv').spec.dnsNames).toEqual(['my-plugin', 'my-plugin.plugins.svc']);
  });

  test('the plugin name comes from the Service label and Clusters name it', () => {
    const file = writeManifest('name.yaml', [SERVICE]);
    const chart = chartIn();
    const plugin = new PluginManifest(chart, 'mine', { path: file });
    const cluster = new PostgresCluster(chart, 'db', { instances: 1, storage: { size: Size.gibibytes(1) } });
    cluster.addPlugin(plugin, {});
    expect(named(synth(chart), 'Cluster', cluster.name).spec.plugins.map((p: { name: string }) => p.name)).toEqual(['my-plugin.example.com']);
  });

  test('a folder is read in name order, kustomization files left out', () => {
    const dir = path.join(work, 'folder');
    writeManifest('folder/b-service.yaml', [SERVICE]);
    writeManifest('folder/a-account.yaml', [{ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'my-plugin', namespace: 'cnpg-system' } }]);
    writeManifest('folder/kustomization.yaml', [{ apiVersion: 'kustomize.config.k8s.io/v1beta1', kind: 'Kustomization', resources: [] }]);
    const chart = chartIn();
    const plugin = new PluginManifest(chart, 'mine', { path: dir });
    expect(plugin.apiObjects.map((o) => o.kind)).toEqual(['ServiceAccount', 'Service']);
    expect(synth(chart).map((o) => `${o.kind}/${o.metadata.namespace}`)).toEqual(['ServiceAccount/databases', 'Service/databases']);
  });

  test('Clusters, Backups, ScheduledBackups and recoveries use the adopted plugin; the doctor finds nothing', () => {
    const app = Testing.app();
    const chart = new Chart(app, 'plugins', { namespace: NAMESPACE });
    const plugin = new PluginManifest(chart, 'backup', { path: FIXTURE });
    const apps = new Chart(app, 'apps', { namespace: 'app' });
    const pg = new PostgresCluster(apps, 'pg', { instances: 1, storage: { size: Size.gibibytes(1) } });
    pg.addPlugin(plugin, { isWalArchiver: true });
    pg.addBackup('now', { plugin });
    pg.addScheduledBackup('nightly', { plugin, schedule: BackupSchedule.daily(2) });
    const restored = new PostgresCluster(apps, 'restored', {
      instances: 1,
      storage: { size: Size.gibibytes(1) },
      bootstrap: ClusterBootstrap.recoveryFromPlugin(plugin, { sourceName: 'origin' }),
    });
    const out = synth(apps);
    expect(ofKind(out, 'Backup')[0].spec.pluginConfiguration.name).toBe('backup.example.com');
    expect(ofKind(out, 'ScheduledBackup')[0].spec.pluginConfiguration.name).toBe('backup.example.com');
    expect(named(out, 'Cluster', restored.name).spec.externalClusters).toEqual([{ name: 'origin', plugin: { name: 'backup.example.com' } }]);
    const moved = synth(chart);
    expect(named(moved, 'Service', 'backup-plugin').metadata.annotations['cnpg.io/pluginServerName']).toBe('backup-plugin.databases.svc');
    expect(named(moved, 'ClusterRoleBinding', 'backup-plugin').subjects[0].namespace).toBe(NAMESPACE);
    expect(Doctor.validateApp(app, { operatorNamespace: NAMESPACE }).map((f) => Doctor.formatFinding(f))).toEqual([]);
  });

  describe('refusals', () => {
    test('a manifest without a plugin Service', () => {
      const file = writeManifest('none.yaml', [{ ...SERVICE, metadata: { ...SERVICE.metadata, labels: { app: 'my-plugin' } } }]);
      expectValidationError(
        () => new PluginManifest(chartIn(), 'mine', { path: file }),
        `plugins/mine: path '${file}' has no plugin Service (a Service labelled cnpg.io/pluginName), so the operator would discover no plugin; pass the manifest that holds the plugin Service; a plugin that runs as an operator sidecar is added with CnpgOperator.addSidecarPlugin`,
      );
    });

    test('a manifest with two plugin Services', () => {
      const file = writeManifest('two.yaml', [SERVICE, { ...SERVICE, metadata: { ...SERVICE.metadata, name: 'other' } }]);
      expectValidationError(
        () => new PluginManifest(chartIn(), 'mine', { path: file }),
        `plugins/mine: path '${file}' has 2 plugin Services (Service/cnpg-system/my-plugin, Service/cnpg-system/other); PluginManifest adopts one plugin; split the manifest into one file or folder per plugin, and adopt each with its own PluginManifest`,
      );
    });

    test('a plugin Service without the annotations the operator needs', () => {
      const { 'cnpg.io/pluginPort': _port, 'cnpg.io/pluginServerSecret': _server, ...annotations } = SERVICE.metadata.annotations;
      const file = writeManifest('annotations.yaml', [{ ...SERVICE, metadata: { ...SERVICE.metadata, annotations } }]);
      expectValidationError(
        () => new PluginManifest(chartIn(), 'mine', { path: file }),
        `plugins/mine: path '${file}' has a plugin Service Service/cnpg-system/my-plugin without cnpg.io/pluginPort, cnpg.io/pluginServerSecret, so the operator ignores it; use the release manifest as published, or add the annotations (the port the plugin listens on, and the names of the client and server TLS Secrets)`,
      );
    });

    test('a file that does not parse, and a document that is no Kubernetes object, with their place', () => {
      const fix = 'pass the release manifest as published (a folder of YAML is rendered beforehand, e.g. with kustomize build)';
      const syntax = path.join(work, 'syntax.yaml');
      fs.writeFileSync(syntax, 'a: [1\n');
      expectValidationError(
        () => new PluginManifest(chartIn(), 'mine', { path: syntax }),
        `plugins/mine: path '${syntax}' cannot be read: ${syntax}:2:1: Flow sequence in block collection must be sufficiently indented and end with a ]; ${fix}`,
      );
      const dir = path.join(work, 'not-objects');
      writeManifest('not-objects/a.yaml', [SERVICE]);
      fs.writeFileSync(path.join(dir, 'b.yaml'), '---\n---\nkind: Service\nmetadata:\n  name: x\n');
      expectValidationError(
        () => new PluginManifest(chartIn(), 'mine', { path: dir }),
        `plugins/mine: path '${dir}' cannot be read: ${path.join(dir, 'b.yaml')}:3:1: a document is not a Kubernetes object (apiVersion, kind and metadata.name); ${fix}`,
      );
    });

    test('a path that does not exist, a URL, an empty folder', () => {
      const fix =
        "pass the path of the plugin's release manifest, or of a folder of YAML rendered beforehand (kustomize build), such as 'vendor/plugin-v1.0.0.yaml'";
      expectValidationError(
        () => new PluginManifest(chartIn(), 'mine', { path: 'vendor/missing.yaml' }),
        `plugins/mine: path 'vendor/missing.yaml' is not a file or folder (relative paths start at the working directory ${process.cwd()}); ${fix}`,
      );
      expectValidationError(
        () => new PluginManifest(chartIn(), 'mine', { path: 'https://example.com/plugin.yaml' }),
        `plugins/mine: path 'https://example.com/plugin.yaml' is a URL; synthesis would depend on the network; download the manifest into your repository and ${fix}`,
      );
      const empty = path.join(work, 'empty');
      fs.mkdirSync(empty, { recursive: true });
      expectValidationError(
        () => new PluginManifest(chartIn(), 'mine', { path: empty }),
        `plugins/mine: path '${empty}' is a folder without .yaml, .yml or .json files; ${fix}`,
      );
    });

    test('a chart without a namespace', () => {
      const file = writeManifest('name.yaml', [SERVICE]);
      expectValidationError(
        () => new PluginManifest(new Chart(Testing.app(), 'plugins'), 'mine', { path: file }),
        "plugins/mine: chart 'plugins' has no namespace; a plugin must be in the operator's namespace; create the chart with the operator's namespace, e.g. new Chart(app, 'cnpg-system', { namespace: 'cnpg-system' })",
      );
    });

    test('a bad sourceNamespace', () => {
      const file = writeManifest('name.yaml', [SERVICE]);
      expectValidationError(
        () => new PluginManifest(chartIn(), 'mine', { path: file, sourceNamespace: 'Cnpg_System' }),
        "plugins/mine: sourceNamespace 'Cnpg_System' is not a namespace name (RFC 1123 label); use the namespace the manifest was written for, such as 'cnpg-system'",
      );
    });

    test('at synth: a server Certificate that does not name what the operator verifies', () => {
      const file = writeManifest('san.yaml', [
        SERVICE,
        {
          apiVersion: 'cert-manager.io/v1',
          kind: 'Certificate',
          metadata: { name: 'srv', namespace: 'cnpg-system' },
          spec: { secretName: 'my-plugin-server-tls', dnsNames: ['my-plugin.cnpg-system.svc'], issuerRef: { name: 'i' } },
        },
      ]);
      const chart = chartIn();
      new PluginManifest(chart, 'mine', { path: file });
      expect(() => synth(chart)).toThrow(
        `[plugins/mine] path '${file}' gives Certificate/databases/srv spec.dnsNames that do not name 'my-plugin', the name the operator verifies (cnpg.io/pluginServerName, else the Service name), so every handshake fails; add 'my-plugin' to the Certificate's dnsNames in the manifest, or pass tls (e.g. PluginTls.selfSigned()) to replace the certificates`,
      );
      // The near miss: with tls the library's certificates replace it, and the synth passes.
      const fixed = chartIn();
      new PluginManifest(fixed, 'mine', { path: file, tls: PluginTls.selfSigned() });
      expect(() => synth(fixed)).not.toThrow();
    });
  });
});

/** hello-world's kustomize folder rendered as kustomize would: the namespace set on every object. */
function renderHelloWorld(): string {
  const kustomization = YAML.parse(fs.readFileSync(path.join(HELLO_DIR, 'kustomization.yaml'), 'utf8'));
  const objects = (kustomization.resources as string[])
    .flatMap((f) => YAML.parseAllDocuments(fs.readFileSync(path.join(HELLO_DIR, f), 'utf8')).map((d) => d.toJS()))
    .filter((o) => o && o.kind)
    .map((o) => ({ ...o, metadata: { ...o.metadata, namespace: kustomization.namespace } }));
  writeManifest('hello-world/rendered.yaml', objects);
  return path.join(work, 'hello-world');
}

/**
 * The doctor finds no error on the moved plugin, and nothing that it would not find on the
 * manifest in the namespace it was written for: the upstream hello-world and Scale-to-Zero pods
 * miss parts of the restricted Pod Security Standard (CNPGI050 warnings), in any namespace.
 */
function expectSameFindingsAsInPlace(chart: Chart, file: string, images: Images): void {
  const moved = doctorFindings(chart);
  expect(moved.filter((f) => / error /.test(f))).toEqual([]);
  const inPlace = chartIn('cnpg-system');
  new PluginManifest(inPlace, 'plugin', { path: file, ...images });
  expect(moved).toEqual(doctorFindings(inPlace).map((f) => f.split('cnpg-system').join(NAMESPACE)));
}

/** The pinned images the upstream manifests are adopted with (they name development builds). */
interface Images {
  readonly image: string;
  readonly sidecarImage?: string;
}
const BARMAN_IMAGES: Images = {
  image: 'ghcr.io/cloudnative-pg/plugin-barman-cloud:v0.14.0',
  sidecarImage: 'ghcr.io/cloudnative-pg/plugin-barman-cloud-sidecar:v0.14.0',
};
const HELLO_IMAGES: Images = { image: 'ghcr.io/cloudnative-pg/cnpg-i-hello-world:v0.1.0' };
const SCALE_TO_ZERO_IMAGES: Images = {
  image: 'ghcr.io/xataio/cnpg-i-scale-to-zero:v0.1.9',
  sidecarImage: 'ghcr.io/xataio/cnpg-i-scale-to-zero-sidecar:v0.1.9',
};

describeWithShared('PluginManifest adopts the upstream release manifests into another namespace', () => {
  const cases: Array<[string, () => string, string, Images]> = [
    ['plugin-barman-cloud v0.14.0', () => BARMAN, 'barman-cloud.cloudnative-pg.io', BARMAN_IMAGES],
    ['cnpg-i-hello-world (kustomize folder, rendered)', renderHelloWorld, 'cnpg-i-hello-world.cloudnative-pg.io', HELLO_IMAGES],
    ['cnpg-i-scale-to-zero v0.1.9', () => SCALE_TO_ZERO, 'cnpg-i-scale-to-zero.xata.io', SCALE_TO_ZERO_IMAGES],
  ];

  test.each(cases)('%s: nothing left in cnpg-system, the doctor finds nothing', (_name, file, pluginName, images) => {
    const chart = chartIn();
    const plugin = new PluginManifest(chart, 'plugin', { path: file(), ...images });
    expect(plugin.pluginName).toBe(pluginName);
    const out = synth(chart);
    expect(JSON.stringify(out)).not.toContain('cnpg-system');
    for (const o of out) if (o.kind !== 'CustomResourceDefinition' && !o.kind.startsWith('Cluster')) expect(o.metadata.namespace).toBe(NAMESPACE);
    expectSameFindingsAsInPlace(chart, file(), images);
  });

  test.each(cases)('%s with PluginTls.privateCa(): the doctor finds nothing', (_name, file, _pluginName, images) => {
    const chart = chartIn();
    const plugin = new PluginManifest(chart, 'plugin', { path: file(), tls: PluginTls.privateCa(), ...images });
    const out = synth(chart);
    const svc = named(out, 'Service', plugin.service.name);
    expect(svc.metadata.annotations['cnpg.io/pluginClientSecret']).toBe(plugin.tls!.clientSecretName);
    expect(svc.metadata.annotations['cnpg.io/pluginServerSecret']).toBe(plugin.tls!.serverSecretName);
    expect(JSON.stringify(out)).toContain('--client-cert=/client/ca.crt');
    expect(doctorFindings(chart).filter((f) => / error /.test(f))).toEqual([]);
  });

  test('the Barman Cloud manifest with privateCa(): its own Certificates and Issuer are gone, the rest stays', () => {
    const chart = chartIn();
    new PluginManifest(chart, 'plugin', { path: BARMAN, tls: PluginTls.privateCa(), ...BARMAN_IMAGES });
    const out = synth(chart);
    const names = ofKind(out, 'Certificate').map((c: Manifest) => c.metadata.name);
    expect(names).not.toContain('barman-cloud-client');
    expect(names).not.toContain('barman-cloud-server');
    expect(ofKind(out, 'Issuer').map((i: Manifest) => i.metadata.name)).not.toContain('selfsigned-issuer');
    expect(
      ofKind(out, 'Deployment')[0]
        .spec.template.spec.volumes.map((v: any) => v.secret.secretName)
        .sort(),
    ).toEqual(
      [
        ofKind(out, 'Service')[0].metadata.annotations['cnpg.io/pluginClientSecret'],
        ofKind(out, 'Service')[0].metadata.annotations['cnpg.io/pluginServerSecret'],
      ].sort(),
    );
  });
});

describeWithShared('PluginManifest applies the one image policy to the upstream manifests', () => {
  test('each manifest names a moving development image and is refused with the prop that fixes it', () => {
    expect(() => synth(withPlugin(BARMAN))).toThrow(
      `[plugins/plugin] path '${BARMAN}' gives Deployment/databases/barman-cloud container 'barman-cloud' the image 'ghcr.io/cloudnative-pg/plugin-barman-cloud-testing:main', which uses the tag 'main', a branch or channel name that moves under a running Deployment; pass image with a release tag or a digest, e.g. 'ghcr.io/cloudnative-pg/plugin-barman-cloud:v1.2.3' or 'ghcr.io/cloudnative-pg/plugin-barman-cloud@sha256:<digest>', or use a release manifest whose images are pinned`,
    );
    expect(() => synth(withPlugin(BARMAN, { image: BARMAN_IMAGES.image }))).toThrow(
      `[plugins/plugin] path '${BARMAN}' gives Deployment/databases/barman-cloud SIDECAR_IMAGE of container 'barman-cloud' (from Secret 'plugin-barman-cloud-8tfddg42gf') the image 'ghcr.io/cloudnative-pg/plugin-barman-cloud-sidecar-testing:main', which uses the tag 'main', a branch or channel name that moves under a running Deployment; pass sidecarImage with a release tag or a digest, e.g. 'ghcr.io/cloudnative-pg/plugin-barman-cloud-sidecar:v1.2.3' or 'ghcr.io/cloudnative-pg/plugin-barman-cloud-sidecar@sha256:<digest>', or use a release manifest whose images are pinned`,
    );
    expect(() => synth(withPlugin(SCALE_TO_ZERO, { image: SCALE_TO_ZERO_IMAGES.image }))).toThrow(
      `[plugins/plugin] path '${SCALE_TO_ZERO}' gives Deployment/databases/scale-to-zero SIDECAR_IMAGE of container 'cnpg-i-scale-to-zero' (from Secret 'scale-to-zero-config-tcb898m758') the image 'ghcr.io/xataio/cnpg-i-scale-to-zero-sidecar:main', which uses the tag 'main', a branch or channel name that moves under a running Deployment; pass sidecarImage with a release tag or a digest, e.g. 'ghcr.io/xataio/cnpg-i-scale-to-zero-sidecar:v1.2.3' or 'ghcr.io/xataio/cnpg-i-scale-to-zero-sidecar@sha256:<digest>', or use a release manifest whose images are pinned`,
    );
    const hello = renderHelloWorld();
    expect(() => synth(withPlugin(hello))).toThrow(
      `[plugins/plugin] path '${hello}' gives Deployment/databases/hello-world container 'cnpg-i-hello-world' the image 'cnpg-i-hello-world:latest', which uses the latest tag, which moves under a running Deployment; pass image with a release tag or a digest, e.g. 'cnpg-i-hello-world:v1.2.3' or 'cnpg-i-hello-world@sha256:<digest>', or use a release manifest whose images are pinned`,
    );
  });

  test('image replaces the container image; sidecarImage becomes an env value that wins over the Secret', () => {
    const barman = pluginContainer(withPlugin(BARMAN, BARMAN_IMAGES));
    expect(barman.image).toBe(BARMAN_IMAGES.image);
    expect(barman.env).toEqual([{ name: 'SIDECAR_IMAGE', value: BARMAN_IMAGES.sidecarImage }]);
    const scale = pluginContainer(withPlugin(SCALE_TO_ZERO, SCALE_TO_ZERO_IMAGES));
    expect(scale.image).toBe(SCALE_TO_ZERO_IMAGES.image);
    expect(scale.env.map((e: { name: string }) => e.name)).toEqual([
      'LOG_LEVEL',
      'SIDECAR_CPU_REQUEST',
      'SIDECAR_CPU_LIMIT',
      'SIDECAR_MEMORY_REQUEST',
      'SIDECAR_MEMORY_LIMIT',
      'SIDECAR_IMAGE',
    ]);
    expect(scale.env[5].value).toBe(SCALE_TO_ZERO_IMAGES.sidecarImage);
    expect(scale.envFrom).toEqual([{ secretRef: { name: 'scale-to-zero-config-tcb898m758' } }]);
    expect(pluginContainer(withPlugin(renderHelloWorld(), HELLO_IMAGES)).image).toBe(HELLO_IMAGES.image);
  });

  test('a digest and a registry with a port are pinned', () => {
    const digest = `ghcr.io/cloudnative-pg/plugin-barman-cloud@sha256:${'b'.repeat(64)}`;
    expect(pluginContainer(withPlugin(BARMAN, { image: digest, sidecarImage: 'registry.example.com:5000/barman-sidecar:0.14.0' })).image).toBe(digest);
  });

  test('a moving override, and a sidecarImage the plugin does not read, are refused', () => {
    expectValidationError(
      () => withPlugin(BARMAN, { image: 'ghcr.io/cloudnative-pg/plugin-barman-cloud:main' }),
      "plugins/plugin: image 'ghcr.io/cloudnative-pg/plugin-barman-cloud:main' uses the tag 'main', a branch or channel name that moves under a running Deployment; pin a release tag or a digest, e.g. ghcr.io/org/plugin:v1.0.0",
    );
    expectValidationError(
      () => withPlugin(renderHelloWorld(), { ...HELLO_IMAGES, sidecarImage: 'ghcr.io/cloudnative-pg/hello-sidecar:v0.1.0' }),
      "plugins/plugin: sidecarImage 'ghcr.io/cloudnative-pg/hello-sidecar:v0.1.0' would go nowhere: the container of Deployment/databases/hello-world reads no SIDECAR_IMAGE (no env entry, no envFrom source that holds it); leave sidecarImage out; this plugin takes its sidecar image some other way, or injects none",
    );
  });
});

/** A chart with the manifest at `file` adopted as `plugin`. */
function withPlugin(file: string, images: Partial<Images> = {}): Chart {
  const chart = chartIn();
  new PluginManifest(chart, 'plugin', { path: file, ...images });
  return chart;
}

describe('PluginManifest image policy on a small manifest', () => {
  const deployment = (image: string, name = 'my-plugin', app = 'my-plugin') => ({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace: 'cnpg-system' },
    spec: {
      selector: { matchLabels: { app } },
      template: { metadata: { labels: { app } }, spec: { containers: [{ name: 'plugin', image }] } },
    },
  });

  test('another workload of the manifest is pinned in the manifest; a late patch is judged too', () => {
    const file = writeManifest('policy/other.yaml', [SERVICE, deployment('ghcr.io/org/plugin:v1.0.0'), deployment('ghcr.io/org/helper', 'helper', 'helper')]);
    expect(() => synth(withPlugin(file))).toThrow(
      `[plugins/plugin] path '${file}' gives Deployment/databases/helper container 'plugin' the image 'ghcr.io/org/helper', which has no tag, so the runtime pulls :latest; pin it in the manifest to a release tag or a digest, e.g. 'ghcr.io/org/helper:v1.2.3' or 'ghcr.io/org/helper@sha256:<digest>'`,
    );
    const pinned = writeManifest('policy/pinned.yaml', [SERVICE, deployment('ghcr.io/org/plugin:v1.0.0')]);
    const chart = withPlugin(pinned);
    expect(pluginContainer(chart).image).toBe('ghcr.io/org/plugin:v1.0.0');
    const plugin = chart.node.findChild('plugin') as PluginManifest;
    plugin.apiObjects
      .find((o) => o.kind === 'Deployment')!
      .addJsonPatch(JsonPatch.replace('/spec/template/spec/containers/0/image', 'ghcr.io/org/plugin:nightly'));
    expect(() => synth(chart)).toThrow("the image 'ghcr.io/org/plugin:nightly', which uses the tag 'nightly'");
  });

  test('overrides need one plugin Deployment with one container', () => {
    const none = writeManifest('policy/none.yaml', [SERVICE]);
    expectValidationError(
      () => withPlugin(none, { image: 'ghcr.io/org/plugin:v1.0.1' }),
      "plugins/plugin: image 'ghcr.io/org/plugin:v1.0.1' has no Deployment to go to: no Deployment of the manifest runs the pods of the plugin Service (Service/databases/my-plugin); leave it out and pin the image in the manifest",
    );
    const two = deployment('ghcr.io/org/plugin:v1.0.0');
    two.spec.template.spec.containers.push({ name: 'proxy', image: 'ghcr.io/org/proxy:v1' });
    const twoFile = writeManifest('policy/two.yaml', [SERVICE, two]);
    expectValidationError(
      () => withPlugin(twoFile, { sidecarImage: 'ghcr.io/org/sidecar:v1.0.1' }),
      "plugins/plugin: sidecarImage 'ghcr.io/org/sidecar:v1.0.1' is ambiguous: Deployment/databases/my-plugin has 2 containers; leave it out and pin each image in the manifest, or set it with ApiObject.addJsonPatch on the Deployment",
    );
  });
});

/** The container of the plugin Deployment, as synthesized. */
function pluginContainer(chart: Chart) {
  return ofKind(synth(chart), 'Deployment')[0].spec.template.spec.containers[0];
}
