import * as fs from 'fs';
import * as path from 'path';
import { ApiObject, Include, JsonPatch } from 'cdk8s';
import { Construct } from 'constructs';
import { checkCertificate } from '../checks/certificate';
import { SIDECAR_IMAGE_ENV, containerEnv, imageTagProblem, pinnedExample, podImages } from '../checks/image-policy';
import { checkPluginServiceNames } from '../checks/plugin-wiring';
import { goVerifyHostname } from '../checks/tls-precision';
import { Kind } from '../common/prop-kinds';
import { PropSpec, checkProps } from '../common/props';
import { invalid } from '../manifests/errors';
import { Json, asArray, asObject, asString, dig, stringMap } from '../manifests/json';
import { isDnsLabel } from '../manifests/k8s-names';
import { CLUSTER_SCOPED_KINDS, refOf } from '../manifests/kinds';
import { InputError, collectFiles, parseManifestText } from '../manifests/load';
import { addChecks, internalChild } from '../schema/guard';
import { PluginCertificates } from '../tls/plugin-certificates';
import { PluginTls } from '../tls/plugin-tls';
import { guardOnce } from './internal';
import { IPlugin, IPluginCluster, PluginClusterEntry } from './plugin';
import {
  PLUGIN_CLIENT_SECRET_ANNOTATION,
  PLUGIN_NAME_LABEL,
  PLUGIN_PORT_ANNOTATION,
  PLUGIN_SERVER_NAME_ANNOTATION,
  PLUGIN_SERVER_SECRET_ANNOTATION,
  pluginNamespace,
} from './standalone-plugin';

const PATH_FIX =
  "pass the path of the plugin's release manifest, or of a folder of YAML rendered beforehand (kustomize build), such as 'vendor/plugin-v1.0.0.yaml'";

const PROPS_SPEC: PropSpec<PluginManifestProps> = {
  path: Kind.string(PATH_FIX),
  sourceNamespace: Kind.test(
    (v) => typeof v === 'string' && isDnsLabel(v),
    'is not a namespace name (RFC 1123 label)',
    "use the namespace the manifest was written for, such as 'cnpg-system'",
  ),
  tls: Kind.factory(PluginTls),
  image: Kind.image('ghcr.io/org/plugin:v1.0.0'),
  sidecarImage: Kind.image('ghcr.io/org/plugin-sidecar:v1.0.0'),
};

/** Props of {@link PluginManifest}. */
export interface PluginManifestProps {
  /**
   * A plugin's release manifest, or a folder of YAML files (read recursively, in name order:
   * `.yaml`, `.yml` and `.json`), relative to the working directory of the cdk8s program, like
   * cdk8s `Include`. A kustomize folder is rendered beforehand (`kustomize build dir > file`).
   * URLs are refused so that synthesis never depends on the network.
   */
  readonly path: string;
  /**
   * The namespace the manifest was written for, which is replaced by the chart's namespace
   * wherever the manifest spells it (see {@link PluginManifest}).
   * @default - the plugin Service's `metadata.namespace` in the manifest (nothing is rewritten
   * when it has none)
   */
  readonly sourceNamespace?: string;
  /**
   * Replace the manifest's certificates with one of the library's TLS modes: the Certificates
   * that write the Service's client and server Secrets (and the Issuers only they use) are
   * dropped, and the Service annotations, the plugin's Secret volumes and its `--client-cert`
   * file follow the new Secrets.
   * @default - the manifest's own certificates, re-homed
   */
  readonly tls?: PluginTls;
  /**
   * The plugin's image, pinned to a release tag or a digest, written in place of the manifest's
   * on the container of the Deployment behind the plugin Service (which must have one container).
   * @default - the manifest's image, which must be pinned itself
   */
  readonly image?: string;
  /**
   * The image the plugin injects into the instance pods, pinned to a release tag or a digest,
   * written as the `SIDECAR_IMAGE` variable of the plugin's container (an `env` value wins over
   * the manifest's `envFrom` and `valueFrom`; plugin-barman-cloud v0.14.0
   * internal/cmd/operator/main.go and cnpg-i-scale-to-zero v0.1.9 cmd/plugin/plugin.go read it).
   * Refused for a manifest whose plugin container reads no `SIDECAR_IMAGE`.
   * @default - the manifest's `SIDECAR_IMAGE`, which must be pinned itself
   */
  readonly sidecarImage?: string;
}

/**
 * Any CNPG-I plugin, installed from its release manifest and moved into the chart's namespace.
 *
 * The manifest is loaded with cdk8s `Include` (child id `Resource`, or one `Include` per file of
 * a folder, under `Resource`). The operator only discovers plugin Services in its own namespace
 * (cloudnative-pg v1.30.0 internal/controller/plugin_predicates.go isPluginService), so the
 * chart's namespace must be set, and every place that spells the manifest's namespace follows
 * it: the objects' `metadata.namespace`, the namespaces of RoleBinding and ClusterRoleBinding
 * subjects, the Certificates' `dnsNames` and `commonName` of the form `<name>.<namespace>[.svc...]`,
 * and the Service's `cnpg.io/pluginServerName`. Cluster-scoped objects carry no namespace.
 *
 * The plugin is the one Service labelled `cnpg.io/pluginName`; its label is `pluginName`, which
 * Clusters, Backups and recoveries read through `IPlugin`. At synth the construct refuses what
 * the operator or cert-manager would refuse: a plugin Service name the API server rejects, a
 * Certificate the cert-manager webhook rejects, and a server Certificate without the name the
 * operator verifies (cloudnative-pg v1.30.0 internal/controller/plugin_controller.go Reconcile:
 * `cnpg.io/pluginServerName`, else the Service name).
 *
 * Images follow the library's one image policy: every container image of the manifest, and the
 * `SIDECAR_IMAGE` the plugin hands to the instance pods, must be pinned to a release tag or a
 * digest. A moving image (no tag, `latest`, a branch or channel tag such as `main`), which the
 * development manifests of several plugins name, is refused with the fix: `image` and
 * `sidecarImage` set the pinned ones.
 */
export class PluginManifest extends Construct implements IPlugin {
  /** The plugin's name: the `cnpg.io/pluginName` label of its Service. */
  public readonly pluginName: string;
  /** The namespace the plugin is installed in: the chart's. */
  public readonly namespace: string;
  /** The namespace the manifest was written for, if it names one. */
  public readonly sourceNamespace?: string;
  /** The plugin Service the operator discovers. */
  public readonly service: ApiObject;
  /** The certificates of the library's TLS mode, when `tls` is given. */
  public readonly tls?: PluginCertificates;
  private readonly includes: Include[];

  constructor(scope: Construct, id: string, props: PluginManifestProps) {
    super(scope, id);
    checkProps(this, 'props', props, PROPS_SPEC, { required: ['path'], example: "{ path: 'vendor/plugin-v1.0.0.yaml' }" });
    const namespace = pluginNamespace(this);
    this.namespace = namespace;
    const files = manifestFiles(this, props.path);
    const raw = new Map<ApiObject, Json>();
    if (files.length === 1 && files[0] === props.path) {
      this.includes = [includeFile(this, props.path, this, 'Resource', files[0], raw)];
    } else {
      const parent = new Construct(this, 'Resource');
      this.includes = files.map((f) => includeFile(this, props.path, parent, path.relative(props.path, f).split(path.sep).join('--'), f, raw));
    }
    const objects = this.includes.flatMap((i) => i.apiObjects);

    const services = objects.filter((o) => o.kind === 'Service' && typeof stringMap(dig(o.toJson(), 'metadata', 'labels'))[PLUGIN_NAME_LABEL] === 'string');
    if (services.length !== 1) {
      invalid(
        this,
        'path',
        props.path,
        services.length === 0
          ? `has no plugin Service (a Service labelled ${PLUGIN_NAME_LABEL}), so the operator would discover no plugin`
          : `has ${services.length} plugin Services (${services.map((s) => describe(s)).join(', ')}); PluginManifest adopts one plugin`,
        services.length === 0
          ? 'pass the manifest that holds the plugin Service; a plugin that runs as an operator sidecar is added with CnpgOperator.addSidecarPlugin'
          : 'split the manifest into one file or folder per plugin, and adopt each with its own PluginManifest',
      );
    }
    this.service = services[0];
    // cloudnative-pg v1.30.0 internal/controller/plugin_predicates.go isPluginService: a
    // labelled Service without these three annotations is not a plugin to the operator.
    const present = stringMap(dig(this.service.toJson(), 'metadata', 'annotations'));
    const missing = [PLUGIN_PORT_ANNOTATION, PLUGIN_CLIENT_SECRET_ANNOTATION, PLUGIN_SERVER_SECRET_ANNOTATION].filter((a) => present[a] === undefined);
    if (missing.length > 0) {
      invalid(
        this,
        'path',
        props.path,
        `has a plugin Service ${describe(this.service)} without ${missing.join(', ')}, so the operator ignores it`,
        'use the release manifest as published, or add the annotations (the port the plugin listens on, and the names of the client and server TLS Secrets)',
      );
    }
    const serviceRaw = raw.get(this.service) ?? {};
    const from = props.sourceNamespace ?? asString(dig(serviceRaw, 'metadata', 'namespace'));
    this.sourceNamespace = from;
    this.pluginName = stringMap(dig(this.service.toJson(), 'metadata', 'labels'))[PLUGIN_NAME_LABEL];

    for (const obj of objects) rehome(obj, raw.get(obj) ?? {}, from, namespace);
    if (props.image !== undefined || props.sidecarImage !== undefined) this.setImages(objects, props.image, props.sidecarImage);
    if (props.tls !== undefined) this.tls = this.replaceTls(props.tls, objects);

    for (const obj of this.apiObjects) guardOnce(this, obj);
    addChecks(this, () => {
      this.checkImages(props);
      this.checkWiring(props.path);
    });
  }

  /** Every object of the plugin as loaded (without the certificates `tls` replaced), in file order (a copy). */
  public get apiObjects(): ApiObject[] {
    return this.includes.flatMap((i) => i.apiObjects);
  }

  /** The Deployments whose pods the plugin Service selects. */
  private pluginDeployments(objects: readonly ApiObject[]): ApiObject[] {
    const selector = stringMap(dig(this.service.toJson(), 'spec', 'selector'));
    if (Object.keys(selector).length === 0) return [];
    return objects.filter((o) => {
      if (o.kind !== 'Deployment') return false;
      const labels = stringMap(dig(o.toJson(), 'spec', 'template', 'metadata', 'labels'));
      return Object.entries(selector).every(([k, v]) => labels[k] === v);
    });
  }

  /** Writes `image` and `sidecarImage` on the container of the plugin's Deployment. */
  private setImages(objects: readonly ApiObject[], image: string | undefined, sidecarImage: string | undefined): void {
    const prop = image !== undefined ? 'image' : 'sidecarImage';
    const value = image ?? sidecarImage;
    const deployments = this.pluginDeployments(objects);
    if (deployments.length === 0) {
      invalid(
        this,
        prop,
        value,
        `has no Deployment to go to: no Deployment of the manifest runs the pods of the plugin Service (${describe(this.service)})`,
        'leave it out and pin the image in the manifest',
      );
    }
    for (const d of deployments) {
      const containers = asArray(dig(d.toJson(), 'spec', 'template', 'spec', 'containers'));
      if (containers.length !== 1) {
        invalid(
          this,
          prop,
          value,
          `is ambiguous: ${describe(d)} has ${containers.length} containers`,
          'leave it out and pin each image in the manifest, or set it with ApiObject.addJsonPatch on the Deployment',
        );
      }
      const container = asObject(containers[0]) ?? {};
      if (image !== undefined) d.addJsonPatch(JsonPatch.replace('/spec/template/spec/containers/0/image', image));
      if (sidecarImage === undefined) continue;
      const env = asArray(container.env);
      const at = env.findIndex((e) => dig(e, 'name') === SIDECAR_IMAGE_ENV);
      if (at < 0 && !readsSidecarImage(container, objects)) {
        invalid(
          this,
          'sidecarImage',
          sidecarImage,
          `would go nowhere: the container of ${describe(d)} reads no ${SIDECAR_IMAGE_ENV} (no env entry, no envFrom source that holds it)`,
          'leave sidecarImage out; this plugin takes its sidecar image some other way, or injects none',
        );
      }
      const entry = { name: SIDECAR_IMAGE_ENV, value: sidecarImage };
      const op =
        at >= 0
          ? JsonPatch.replace(`/spec/template/spec/containers/0/env/${at}`, entry)
          : container.env === undefined
            ? JsonPatch.add('/spec/template/spec/containers/0/env', [entry])
            : JsonPatch.add('/spec/template/spec/containers/0/env/-', entry);
      d.addJsonPatch(op);
    }
  }

  /** Refuses a moving image anywhere in the manifest as written (late changes included). */
  private checkImages(props: PluginManifestProps): void {
    const objects = this.apiObjects.map((o) => o.toJson() as Json);
    const lookup = (kind: 'ConfigMap' | 'Secret', name: string): Json | undefined =>
      objects.find((o) => o.kind === kind && dig(o, 'metadata', 'name') === name);
    const plugin = new Set(this.pluginDeployments(this.apiObjects).map((d) => d.name));
    for (const obj of objects) {
      const podSpec = asObject(podSpecOf(obj));
      if (podSpec === undefined) continue;
      for (const use of podImages(podSpec, lookup)) {
        const problem = imageTagProblem(use.image);
        if (problem === undefined) continue;
        const isPlugin = obj.kind === 'Deployment' && plugin.has(asString(dig(obj, 'metadata', 'name')) ?? '');
        const fix = isPlugin
          ? `pass ${use.sidecar ? 'sidecarImage' : 'image'} with a release tag or a digest, e.g. ${pinnedExample(use.image)}, or use a release manifest whose images are pinned`
          : `pin it in the manifest to a release tag or a digest, e.g. ${pinnedExample(use.image)}`;
        invalid(this, 'path', props.path, `gives ${refOfJson(obj)} ${use.what} the image '${use.image}', which ${problem}`, fix);
      }
    }
  }

  private replaceTls(tls: PluginTls, objects: ApiObject[]): PluginCertificates {
    const service = this.service.toJson();
    const annotations = stringMap(dig(service, 'metadata', 'annotations'));
    const oldClient = annotations[PLUGIN_CLIENT_SECRET_ANNOTATION];
    const oldServer = annotations[PLUGIN_SERVER_SECRET_ANNOTATION];
    const serverName = annotations[PLUGIN_SERVER_NAME_ANNOTATION];
    const certificates = objects.filter((o) => o.kind === 'Certificate' && o.apiVersion.startsWith('cert-manager.io/'));
    const replaced = certificates.filter((c) => [oldClient, oldServer].includes(asString(dig(c.toJson(), 'spec', 'secretName')) ?? ''));
    const kept = certificates.filter((c) => !replaced.includes(c));
    const issuerOf = (c: ApiObject): string | undefined => {
      const ref = asObject(dig(c.toJson(), 'spec', 'issuerRef'));
      return (asString(ref?.kind) ?? 'Issuer') === 'Issuer' ? asString(ref?.name) : undefined;
    };
    const stillUsed = new Set(kept.map(issuerOf));
    const dropIssuers = new Set(replaced.map(issuerOf).filter((n): n is string => n !== undefined && !stillUsed.has(n)));
    for (const o of objects) {
      if (replaced.includes(o) || (o.kind === 'Issuer' && o.apiVersion.startsWith('cert-manager.io/') && dropIssuers.has(o.name))) {
        o.node.scope!.node.tryRemoveChild(o.node.id);
      }
    }
    const certs = new PluginCertificates(this, internalChild(this, 'Tls'), {
      tls,
      serviceName: this.service.name,
      namespace: this.namespace,
      serverName,
    });
    this.service.metadata.addAnnotation(PLUGIN_CLIENT_SECRET_ANNOTATION, certs.clientSecretName);
    this.service.metadata.addAnnotation(PLUGIN_SERVER_SECRET_ANNOTATION, certs.serverSecretName);

    // The pods behind the Service mount the Secrets; the plugin trusts the client CA through
    // --client-cert (cnpg-i-machinery v0.4.2 pkg/pluginhelper/http/server.go Server.setupTLSCerts:
    // the file is its client CA pool), which must be the CA under a CA issuer, not the client's own leaf.
    const selector = stringMap(dig(service, 'spec', 'selector'));
    for (const d of objects.filter((o) => o.kind === 'Deployment' && this.apiObjects.includes(o))) {
      const pod = asObject(dig(d.toJson(), 'spec', 'template')) ?? {};
      const labels = stringMap(dig(pod, 'metadata', 'labels'));
      if (Object.keys(selector).length === 0 || !Object.entries(selector).every(([k, v]) => labels[k] === v)) continue;
      const clientVolumes = new Set<string>();
      asArray(dig(pod, 'spec', 'volumes')).forEach((v, i) => {
        const secret = asString(dig(v, 'secret', 'secretName'));
        const renamed = secret === oldClient ? certs.clientSecretName : secret === oldServer ? certs.serverSecretName : undefined;
        if (secret === oldClient) clientVolumes.add(asString(dig(v, 'name')) ?? '');
        if (renamed !== undefined) d.addJsonPatch(JsonPatch.replace(`/spec/template/spec/volumes/${i}/secret/secretName`, renamed));
      });
      asArray(dig(pod, 'spec', 'containers')).forEach((c, ci) => {
        const mounts = asArray(dig(c, 'volumeMounts'))
          .filter((m) => clientVolumes.has(asString(dig(m, 'name')) ?? ''))
          .map((m) => (asString(dig(m, 'mountPath')) ?? '').replace(/\/$/, ''));
        const args = asArray(dig(c, 'args'));
        args.forEach((a, ai) => {
          if (typeof a !== 'string') return;
          const inline = a.startsWith('--client-cert=');
          const value = inline ? a.slice('--client-cert='.length) : args[ai - 1] === '--client-cert' ? a : undefined;
          const mount = value === undefined ? undefined : mounts.find((m) => value.startsWith(`${m}/`));
          if (mount === undefined) return;
          const file = `${mount}/${certs.clientCaKey}`;
          d.addJsonPatch(JsonPatch.replace(`/spec/template/spec/containers/${ci}/args/${ai}`, inline ? `--client-cert=${file}` : file));
        });
      });
    }
    return certs;
  }

  /** What the operator and cert-manager refuse, on the objects as written (late changes included). */
  private checkWiring(file: string): void {
    const objects = this.apiObjects.map((o) => o.toJson() as Json);
    const service = this.service.toJson() as Json;
    const fail = (obj: Json, p: string, message: string, fix: string): never =>
      invalid(this, 'path', file, `gives ${refOfJson(obj)} ${p} that ${message}`, fix);
    for (const issue of checkPluginServiceNames(service)) if (issue.severity === 'error') fail(service, issue.path, issue.message, issue.fix);
    for (const cert of objects.filter((o) => o.kind === 'Certificate')) {
      for (const issue of checkCertificate(cert)) if (issue.severity === 'error') fail(cert, issue.path, issue.message, issue.fix);
    }
    if (this.tls !== undefined) return; // the library's certificates name the server already
    const annotations = stringMap(dig(service, 'metadata', 'annotations'));
    const serverName = annotations[PLUGIN_SERVER_NAME_ANNOTATION] ?? this.service.name;
    const server = objects.find((o) => o.kind === 'Certificate' && asString(dig(o, 'spec', 'secretName')) === annotations[PLUGIN_SERVER_SECRET_ANNOTATION]);
    if (server === undefined) return; // the Secret is made outside the manifest
    const dnsNames = asArray(dig(server, 'spec', 'dnsNames')).filter((n): n is string => typeof n === 'string');
    const ips = asArray(dig(server, 'spec', 'ipAddresses')).filter((n): n is string => typeof n === 'string');
    if (!goVerifyHostname(serverName, dnsNames, ips)) {
      fail(
        server,
        'spec.dnsNames',
        `do not name '${serverName}', the name the operator verifies (cnpg.io/pluginServerName, else the Service name), so every handshake fails`,
        `add '${serverName}' to the Certificate's dnsNames in the manifest, or pass tls (e.g. PluginTls.selfSigned()) to replace the certificates`,
      );
    }
  }

  /**
   * Adds nothing beside the Cluster's `spec.plugins[]` entry: this plugin needs no Cluster
   * annotation, RBAC or synth-time check. Written out (rather than left out, as `IPlugin`
   * allows in TypeScript) because jsii has no optional methods: the Java binding's `IPlugin`
   * declares it, and a class without it would not compile there.
   */
  public bindToCluster(_cluster: IPluginCluster, _entry: PluginClusterEntry): void {}
}

/** The pod spec of a workload object, if it is one. */
function podSpecOf(obj: Json): unknown {
  switch (obj.kind) {
    case 'Pod':
      return obj.spec;
    case 'CronJob':
      return dig(obj, 'spec', 'jobTemplate', 'spec', 'template', 'spec');
    case 'Deployment':
    case 'StatefulSet':
    case 'DaemonSet':
    case 'ReplicaSet':
    case 'Job':
      return dig(obj, 'spec', 'template', 'spec');
    default:
      return undefined;
  }
}

/** Whether a container reads SIDECAR_IMAGE through an envFrom source, or one the manifest does not hold. */
function readsSidecarImage(container: Json, objects: readonly ApiObject[]): boolean {
  return asArray(container.envFrom).some((from) => {
    const kind = dig(from, 'configMapRef') !== undefined ? 'ConfigMap' : 'Secret';
    const name = asString(dig(from, kind === 'ConfigMap' ? 'configMapRef' : 'secretRef', 'name'));
    const source = objects.find((o) => o.kind === kind && o.name === name);
    if (source === undefined) return true;
    return containerEnv({ envFrom: [from] }, SIDECAR_IMAGE_ENV, (k, n) => (k === kind && n === name ? (source.toJson() as Json) : undefined)) !== undefined;
  });
}

/** The manifest files of `p` (a file, or a folder's YAML and JSON files), refused when there are none. */
function manifestFiles(scope: Construct, p: string): string[] {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(p)) {
    invalid(scope, 'path', p, 'is a URL; synthesis would depend on the network', `download the manifest into your repository and ${PATH_FIX}`);
  }
  try {
    const files = collectFiles([p], process.cwd());
    return fs.statSync(p).isDirectory() ? files.filter((f) => path.basename(f) !== 'kustomization.yaml' && path.basename(f) !== 'kustomization.yml') : files;
  } catch (e) {
    if (!(e instanceof InputError)) throw e;
    const problem =
      e.reason === 'no-manifests'
        ? 'is a folder without .yaml, .yml or .json files'
        : `is not a file or folder (relative paths start at the working directory ${process.cwd()})`;
    return invalid(scope, 'path', p, problem, PATH_FIX);
  }
}

/**
 * Includes one file, remembering each object as the file wrote it (before cdk8s gives it the
 * chart's namespace). The file is read once more first, by the doctor's reader, so that a syntax
 * error or a document that is no Kubernetes object is refused with its place instead of failing
 * inside cdk8s.
 */
function includeFile(owner: Construct, userPath: string, scope: Construct, id: string, file: string, raw: Map<ApiObject, Json>): Include {
  let docs: unknown[];
  try {
    docs = parseManifestText(fs.readFileSync(file, 'utf8'), file)
      .filter((d) => !isEmptyDocument(d.value))
      .map((d) => {
        const o = asObject(d.value);
        if (o === undefined || typeof o.apiVersion !== 'string' || typeof o.kind !== 'string' || typeof dig(o, 'metadata', 'name') !== 'string') {
          throw new InputError('a document is not a Kubernetes object (apiVersion, kind and metadata.name)', {
            reason: 'syntax',
            location: { file, line: d.line, column: d.column },
          });
        }
        return o;
      });
  } catch (e) {
    if (!(e instanceof InputError)) throw e;
    return invalid(
      owner,
      'path',
      userPath,
      `cannot be read: ${e.message}`,
      'pass the release manifest as published (a folder of YAML is rendered beforehand, e.g. with kustomize build)',
    );
  }
  const include = new Include(scope, id, { url: file });
  include.apiObjects.forEach((o, i) => raw.set(o, docs[i] as Json));
  return include;
}

/** What cdk8s `Yaml.load` skips: empty documents, empty lists and empty maps. */
function isEmptyDocument(value: unknown): boolean {
  return value === null || value === undefined || (typeof value === 'object' && Object.keys(value).length === 0);
}

/** Moves one object from namespace `from` to `to` where it spells `from` (see PluginManifest). */
function rehome(obj: ApiObject, raw: Json, from: string | undefined, to: string): void {
  const json = obj.toJson() as Json;
  if (CLUSTER_SCOPED_KINDS.has(obj.kind)) {
    if (asString(dig(json, 'metadata', 'namespace')) !== undefined) obj.addJsonPatch(JsonPatch.remove('/metadata/namespace'));
  } else if (asString(dig(raw, 'metadata', 'namespace')) === from && from !== undefined && from !== to) {
    obj.addJsonPatch(JsonPatch.replace('/metadata/namespace', to));
  }
  if (from === undefined || from === to) return;
  if ((obj.kind === 'RoleBinding' || obj.kind === 'ClusterRoleBinding') && obj.apiVersion.startsWith('rbac.authorization.k8s.io/')) {
    asArray(json.subjects).forEach((s, i) => {
      if (asString(dig(s, 'namespace')) === from) obj.addJsonPatch(JsonPatch.replace(`/subjects/${i}/namespace`, to));
    });
  }
  if (obj.kind === 'Certificate' && obj.apiVersion.startsWith('cert-manager.io/')) {
    asArray(dig(json, 'spec', 'dnsNames')).forEach((n, i) => {
      const moved = typeof n === 'string' ? moveServiceName(n, from, to) : undefined;
      if (moved !== undefined) obj.addJsonPatch(JsonPatch.replace(`/spec/dnsNames/${i}`, moved));
    });
    const cn = asString(dig(json, 'spec', 'commonName'));
    const moved = cn === undefined ? undefined : moveServiceName(cn, from, to);
    if (moved !== undefined) obj.addJsonPatch(JsonPatch.replace('/spec/commonName', moved));
  }
  const serverName = stringMap(dig(json, 'metadata', 'annotations'))[PLUGIN_SERVER_NAME_ANNOTATION];
  const moved = serverName === undefined ? undefined : moveServiceName(serverName, from, to);
  if (moved !== undefined) obj.metadata.addAnnotation(PLUGIN_SERVER_NAME_ANNOTATION, moved);
}

/**
 * A Service DNS name in namespace `from` (`svc.from`, `svc.from.svc`, `svc.from.svc.<domain>`)
 * moved to `to`, or undefined for any other name.
 */
function moveServiceName(name: string, from: string, to: string): string | undefined {
  const labels = name.split('.');
  if (labels.length < 2 || labels[1] !== from || (labels.length > 2 && labels[2] !== 'svc')) return undefined;
  return [labels[0], to, ...labels.slice(2)].join('.');
}

function describe(obj: ApiObject): string {
  const json = obj.toJson() as Json;
  return refOfJson(json);
}

function refOfJson(obj: Json): string {
  return refOf(asString(obj.kind) ?? '', asString(dig(obj, 'metadata', 'namespace')), asString(dig(obj, 'metadata', 'name')) ?? '');
}
