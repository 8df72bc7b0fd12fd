import { checkBackupPrerequisites } from './backup-prerequisites';
import { checkBackupSpec } from './backup-spec';
import { BARMAN_CLOUD_NAME, checkBarmanCloudCluster, checkBarmanCloudDeployment, referencedObjectStores } from './barman-cloud';
import { checkCertificate, checkClusterIssuerSecret } from './certificate';
import { certManagerIndex, checkClientTrust, clientIssuance } from './client-trust';
import { checkClusterReferences } from './cluster-references';
import { FidelityIssue, Obj, arr, at, meta, obj, str, strings } from './issue';
import { checkOperatorConfig, resolveOperatorConfig } from './operator-config';
import { checkPluginIdentity, reportedPluginName } from './plugin-identity';
import { checkPluginServiceNames } from './plugin-wiring';
import { checkFlagFile, checkTlsSecret } from './secret-contents';
import { ContainerPort, checkPluginServicePort } from './service-port';

/**
 * The fidelity rule families, ready to become registry modules (one per entry): proposed id,
 * name, what decides the severity, what, why (citing the deciding code; details in
 * docs/operator-fidelity.md), fix, and the kinds each reads.
 * @internal
 */
export const FIDELITY_FAMILIES = [
  { id: 'CNPGI100', name: 'cluster-references', severities: [{ severity: 'error' as const, when: 'always' }], kinds: ['postgresql.cnpg.io/Cluster'], what: 'Cluster cross-references: recovery, pg_basebackup and replica sources, replica primary/self, unique and usable external clusters, one bootstrap method.', why: 'cloudnative-pg v1.30.0 internal/webhook/v1/cluster_webhook.go validateBootstrapRecoverySource, validateBootstrapPgBaseBackupSource, validateReplicaClusterExternalClusters, validateReplicaMode, validateExternalClusters, validateBootstrapMethod.', fix: 'Name an existing externalClusters entry; keep names unique.' },
  { id: 'CNPGI101', name: 'backup-spec', severities: [{ severity: 'error' as const, when: 'otherwise' }, { severity: 'warning' as const, when: 'for online settings with method plugin' }], kinds: ['postgresql.cnpg.io/Backup', 'postgresql.cnpg.io/ScheduledBackup'], what: 'Backup and ScheduledBackup enums, online/onlineConfiguration after the CRD default of method, pluginConfiguration.name.', why: 'cloudnative-pg v1.30.0 api/v1/backup_types.go BackupSpec (CRD enum and default), internal/webhook/v1/backup_webhook.go validate, internal/webhook/v1/scheduledbackup_webhook.go validate.', fix: 'Spell enums as the CRD does; write method: plugin with pluginConfiguration.name.' },
  { id: 'CNPGI102', name: 'scheduled-backup-schedule', severities: [{ severity: 'error' as const, when: 'otherwise' }, { severity: 'warning' as const, when: 'when a field selects nothing' }], kinds: ['postgresql.cnpg.io/ScheduledBackup'], what: 'The schedule as robfig/cron v1.2.0 Parse reads it; 5 fields are an error that shows the reading and the 6-field form.', why: 'robfig/cron v1.2.0 parser.go Parse, getRange, parseDescriptor; cloudnative-pg v1.30.0 internal/webhook/v1/scheduledbackup_webhook.go validate.', fix: 'Write 6 fields, seconds first, or a descriptor.' },
  { id: 'CNPGI103', name: 'backup-prerequisites', severities: [{ severity: 'error' as const, when: 'always' }], kinds: ['postgresql.cnpg.io/Backup', 'postgresql.cnpg.io/ScheduledBackup', 'postgresql.cnpg.io/Cluster'], what: 'A plugin backup of a Cluster without plugins, or through a plugin absent or disabled in it; in-tree methods without their Cluster section; a hibernated Cluster.', why: 'cloudnative-pg v1.30.0 internal/controller/backup_controller.go checkPrerequisites, Reconcile; internal/cnpi/plugin/client/client.go getPlugin.', fix: 'Enable the plugin in the Cluster\'s spec.plugins.' },
  { id: 'CNPGI104', name: 'operator-configuration', severities: [{ severity: 'error' as const, when: 'always' }], kinds: ['Deployment', 'ConfigMap', 'Secret'], what: 'OPERATOR_NAMESPACE missing, PLUGIN_SOCKET_DIR with stray bytes, INCLUDE_PLUGINS names not discovered, an HTTPS proxy not exempting <svc>.<ns>.svc.', why: 'cloudnative-pg v1.30.0 pkg/configparser/configparser.go ReadConfigMap, internal/configuration/configuration.go GetIncludePlugins, api/v1/cluster_defaults.go setDefaultPlugins, internal/controller/plugin_predicates.go isPluginService; grpc-go v1.81.1 internal/resolver/delegatingresolver/delegatingresolver.go proxyURLForTarget.', fix: 'Set OPERATOR_NAMESPACE from the downward API; trim values; add .svc to NO_PROXY.' },
  { id: 'CNPGI105', name: 'plugin-identity', severities: [{ severity: 'error' as const, when: 'always' }], kinds: ['Service', 'Deployment'], what: 'A plugin Service label that differs from the name its known image reports (Barman Cloud, hello-world).', why: 'cloudnative-pg v1.30.0 internal/cnpi/plugin/client/client.go getPlugin; plugin-barman-cloud v0.14.0 internal/cnpgi/metadata/constants.go PluginName.', fix: 'Label the Service with the reported name.' },
  { id: 'CNPGI106', name: 'barman-cloud-cluster', severities: [{ severity: 'error' as const, when: 'otherwise' }, { severity: 'warning' as const, when: 'for ignored keys and ObjectStores outside the input' }], kinds: ['postgresql.cnpg.io/Cluster', 'barmancloud.cnpg.io/ObjectStore'], what: 'Barman Cloud parameters, ObjectStore namespace, recovery into the source destination and serverName.', why: 'plugin-barman-cloud v0.14.0 internal/cnpgi/operator/config/config.go NewFromCluster, Validate, GetBarmanObjectKey; internal/cnpgi/operator/lifecycle.go LifecycleHook; internal/cnpgi/restore/restore.go checkBackupDestination.', fix: 'Use barmanObjectName/serverName; keep the ObjectStore in the Cluster namespace; give a recovered Cluster its own serverName.' },
  { id: 'CNPGI107', name: 'barman-cloud-sidecar-image', severities: [{ severity: 'error' as const, when: 'otherwise' }, { severity: 'warning' as const, when: 'when an unknown envFrom may set it' }], kinds: ['Deployment'], what: 'The Barman Cloud plugin Deployment lacks SIDECAR_IMAGE.', why: 'plugin-barman-cloud v0.14.0 internal/cmd/operator/main.go NewCmd.', fix: 'Set SIDECAR_IMAGE.' },
  { id: 'CNPGI108', name: 'certificate-webhook', severities: [{ severity: 'error' as const, when: 'always' }], kinds: ['cert-manager.io/Certificate'], what: 'cert-manager Certificate admission: identities, usages, key sizes per algorithm, signature algorithm, durations, secretName.', why: 'cert-manager v1.21.1 internal/apis/certmanager/validation/certificate.go ValidateCertificateSpec, validateUsages, ValidateDuration.', fix: 'Follow the message.' },
  { id: 'CNPGI109', name: 'cluster-issuer-ca-namespace', severities: [{ severity: 'error' as const, when: 'always' }], kinds: ['cert-manager.io/ClusterIssuer', 'Secret'], what: 'A ClusterIssuer\'s CA Secret exists only outside cert-manager\'s cluster-resource namespace.', why: 'cert-manager v1.21.1 pkg/controller/helper.go IssuerOptions.ResourceNamespace (a cluster-scoped issuer has no namespace, so its resources come from --cluster-resource-namespace), used by pkg/issuer/ca/setup.go CA.Setup.', fix: 'Put the CA Secret in the cluster-resource namespace.' },
  { id: 'CNPGI110', name: 'secret-contents', severities: [{ severity: 'error' as const, when: 'always' }], kinds: ['Secret', 'Service', 'Deployment'], what: 'Plugin TLS Secrets whose PEM does not parse or is empty; flag files missing from the mounted Secret.', why: 'cloudnative-pg v1.30.0 internal/controller/plugin_controller.go reconcile (X509KeyPair, AppendCertsFromPEM).', fix: 'Point flags at keys the Secret holds.' },
  { id: 'CNPGI111', name: 'plugin-service-port', severities: [{ severity: 'error' as const, when: 'always' }], kinds: ['Service', 'Deployment'], what: 'A headless plugin Service (clusterIP: None) whose annotation port is not a port of its pods: the dial goes to the pod IPs, targetPort is not applied.', why: 'cloudnative-pg v1.30.0 internal/controller/plugin_controller.go reconcile (dials <svc>.<ns>.svc:<pluginPort>).', fix: 'Match the annotation to the right port.' },
  { id: 'CNPGI112', name: 'client-certificate-trust', severities: [{ severity: 'error' as const, when: 'always' }], kinds: ['Deployment', 'cert-manager.io/Certificate', 'cert-manager.io/Issuer', 'cert-manager.io/ClusterIssuer'], what: 'The plugin trusts a file that does not let Go\'s client send the operator certificate.', why: 'cnpg-i-machinery v0.4.2 pkg/pluginhelper/http/server.go (ClientCAs from --client-cert); Go crypto/tls sends the client certificate only for an advertised issuer; cert-manager v1.21.1 pkg/util/pki/parse_certificate_chain.go (tls.crt is leaf + intermediate).', fix: 'Trust the client Secret itself (self-signed) or its ca.crt (single-tier CA).' },
  { id: 'CNPGI114', name: 'plugin-service-names', severities: [{ severity: 'error' as const, when: 'always' }], kinds: ['Service'], what: 'Plugin label values over 63 characters or badly formed; quoted numeric or invalid named targetPort.', why: 'The API server refuses the Service (Kubernetes label-value and IANA_SVC_NAME validation); the label is the plugin name the operator reads (cloudnative-pg v1.30.0 internal/controller/plugin_controller.go Reconcile).', fix: 'Shorten the name; write ports as numbers.' },
] as const;

/** A family id. @internal */
export type FidelityFamilyId = typeof FIDELITY_FAMILIES[number]['id'];

/** One fidelity result: the family, the object it is about, and the neutral issue. @internal */
export interface FidelityResult { readonly family: FidelityFamilyId; readonly object: Obj; readonly issue: FidelityIssue }

/** Options of {@link runFidelity}. @internal */
export interface FidelityOptions {
  /** The operator namespace. @default - the operator Deployment's, else 'cnpg-system' */
  readonly operatorNamespace?: string;
  /** cert-manager's cluster-resource namespace. @default 'cert-manager' */
  readonly clusterResourceNamespace?: string;
  /** Plugin names known to exist outside the input. @default [] */
  readonly knownPlugins?: readonly string[];
}

const isOperator = (d: Obj): boolean => arr(at(d, 'spec', 'template', 'spec', 'containers'))
  .some((c) => /cloudnative-pg(-testing)?[:@]|\/cloudnative-pg$/.test(str(at(c, 'image')) ?? ''));

/**
 * Runs every family over a set of plain manifests. One pass builds the index by kind; each
 * family then reads only its kinds, so the cost stays linear in the input.
 * @internal
 */
export function runFidelity(objects: readonly Obj[], options: FidelityOptions = {}): FidelityResult[] {
  const byKind = new Map<string, Obj[]>();
  for (const o of objects) {
    const k = str(o.kind);
    if (!k) continue;
    const list = byKind.get(k);
    if (list) list.push(o); else byKind.set(k, [o]);
  }
  const kind = (k: string): Obj[] => byKind.get(k) ?? [];
  const out: FidelityResult[] = [];
  const add = (family: FidelityFamilyId, object: Obj, issues: readonly FidelityIssue[]): void => {
    for (const issue of issues) out.push({ family, object, issue });
  };
  const deployments = kind('Deployment');
  const operator = deployments.find(isOperator);
  const config = operator ? resolveOperatorConfig({ deployment: operator, configMaps: kind('ConfigMap'), secrets: kind('Secret') }) : undefined;
  const operatorNs = options.operatorNamespace ?? config?.operatorNamespace ?? meta(operator ?? {}).namespace ?? 'cnpg-system';
  const services = kind('Service');
  const pluginServices = services.filter((s) => strings(at(s, 'metadata', 'labels'))['cnpg.io/pluginName'] !== undefined);
  const discovered = new Set<string>([...(options.knownPlugins ?? []),
    ...pluginServices.filter((s) => (meta(s).namespace ?? 'default') === operatorNs).map((s) => strings(at(s, 'metadata', 'labels'))['cnpg.io/pluginName'])]);
  const includePlugins = config?.includePlugins ?? [];

  const storesByName = groupBy(kind('ObjectStore'), (o) => meta(o).name);
  for (const c of kind('Cluster')) {
    add('CNPGI100', c, checkClusterReferences(c));
    if (mentionsBarmanCloud(c)) {
      const stores = byKind.has('ObjectStore') ? referencedObjectStores(c).flatMap((n) => storesByName.get(n) ?? []) : undefined;
      add('CNPGI106', c, checkBarmanCloudCluster(c, stores));
    }
  }
  const key = (o: Obj, name = meta(o).name): string => `${meta(o).namespace ?? 'default'}/${name}`;
  const clusters = new Map(kind('Cluster').map((c) => [key(c), c]));
  const secrets = new Map(kind('Secret').map((x) => [key(x), x]));
  const clusterFor = (b: Obj): Obj | undefined => clusters.get(key(b, str(at(b, 'spec', 'cluster', 'name')) ?? ''));
  for (const k of ['Backup', 'ScheduledBackup'] as const) {
    for (const b of kind(k)) {
      const issues = checkBackupSpec(b, k);
      add('CNPGI101', b, issues.filter((i) => i.path !== 'spec.schedule'));
      add('CNPGI102', b, issues.filter((i) => i.path === 'spec.schedule'));
      add('CNPGI103', b, checkBackupPrerequisites(b, clusterFor(b), includePlugins));
    }
  }
  if (operator && config) {
    add('CNPGI104', operator, checkOperatorConfig(config, discovered, pluginServices
      .filter((s) => (meta(s).namespace ?? 'default') === operatorNs)
      .map((s) => ({ name: meta(s).name, namespace: operatorNs, port: strings(at(s, 'metadata', 'annotations'))['cnpg.io/pluginPort'] ?? '' }))));
  }
  // Deployments by namespace and template label, so a Service's selector reads only candidates.
  const byLabel = new Map<string, Obj[]>();
  for (const d of deployments) {
    for (const [k, v] of Object.entries(strings(at(d, 'spec', 'template', 'metadata', 'labels')))) {
      const lk = `${meta(d).namespace ?? 'default'}\u0000${k}=${v}`;
      const list = byLabel.get(lk);
      if (list) list.push(d); else byLabel.set(lk, [d]);
    }
  }
  const cmIndex = certManagerIndex(kind('Certificate'), [...kind('Issuer'), ...kind('ClusterIssuer')]);
  const issuanceCache = new Map<string, ReturnType<typeof clientIssuance>>();
  const backingCache = new Map<string, { backing: Obj[]; images: string[]; ports: ContainerPort[] }>();
  const backingOf = (s: Obj): { backing: Obj[]; images: string[]; ports: ContainerPort[] } => {
    const ns = meta(s).namespace ?? 'default';
    const selector = Object.entries(strings(at(s, 'spec', 'selector'))).sort(([a], [b]) => a.localeCompare(b));
    const cacheKey = `${ns}\u0000${selector.map(([k, v]) => `${k}=${v}`).join(',')}`;
    const cached = backingCache.get(cacheKey);
    if (cached) return cached;
    const backing = selector.length === 0 ? [] : (byLabel.get(`${ns}\u0000${selector[0][0]}=${selector[0][1]}`) ?? [])
      .filter((d) => selector.every(([k, v]) => strings(at(d, 'spec', 'template', 'metadata', 'labels'))[k] === v));
    const containers = backing.flatMap((d) => arr(at(d, 'spec', 'template', 'spec', 'containers')).map((c) => obj(c) ?? {}));
    const result = {
      backing,
      images: [...new Set(containers.map((c) => str(c.image) ?? ''))],
      ports: containers.flatMap((c) => arr(c.ports).map((p) => obj(p) ?? {}).map((p) => ({ containerPort: Number(p.containerPort), name: str(p.name) }))),
    };
    backingCache.set(cacheKey, result);
    return result;
  };
  const flagsChecked = new Set<Obj>();
  const trustChecked = new Set<string>();
  const deploymentIds = new Map<Obj, number>(deployments.map((d, i) => [d, i]));
  for (const s of pluginServices) {
    const label = strings(at(s, 'metadata', 'labels'))['cnpg.io/pluginName'];
    const { backing, images, ports } = backingOf(s);
    add('CNPGI105', s, checkPluginIdentity(label, images));
    add('CNPGI114', s, checkPluginServiceNames(s));
    add('CNPGI111', s, checkPluginServicePort(s, backing.length ? ports : undefined));
    const ann = strings(at(s, 'metadata', 'annotations'));
    const ns = meta(s).namespace;
    const secretNamed = (n: string | undefined): Obj | undefined => (n === undefined ? undefined : secrets.get(`${ns ?? 'default'}/${n}`));
    const clientSecret = secretNamed(ann['cnpg.io/pluginClientSecret']);
    const serverSecret = secretNamed(ann['cnpg.io/pluginServerSecret']);
    if (clientSecret) add('CNPGI110', clientSecret, checkTlsSecret(clientSecret, true));
    if (serverSecret && serverSecret !== clientSecret) add('CNPGI110', serverSecret, checkTlsSecret(serverSecret, false));
    for (const d of backing) {
      const firstVisit = !flagsChecked.has(d);
      flagsChecked.add(d);
      const trustKey = `${deploymentIds.get(d)}\u0000${ann['cnpg.io/pluginClientSecret'] ?? ''}`;
      const trustVisit = !trustChecked.has(trustKey);
      trustChecked.add(trustKey);
      if (!firstVisit && !trustVisit) continue;
      const podSpec = obj(at(d, 'spec', 'template', 'spec')) ?? {};
      for (const c of arr(podSpec.containers).map((x) => obj(x) ?? {})) {
        for (const arg of arr(c.args).filter((a): a is string => typeof a === 'string')) {
          const m = /^(--(?:server-cert|server-key|client-cert))=(.+)$/.exec(arg);
          if (!m) continue;
          if (firstVisit) add('CNPGI110', d, checkFlagFile(m[1], m[2], podSpec, c, (n) => secrets.get(`${meta(d).namespace ?? 'default'}/${n}`)));
          if (!trustVisit || m[1] !== '--client-cert' || !ann['cnpg.io/pluginClientSecret']) continue;
          const trusted = trustedSecretOf(m[2], podSpec, c);
          if (trusted) {
            const cacheKey = `${ns ?? 'default'}/${ann['cnpg.io/pluginClientSecret']}`;
            let issuance = issuanceCache.get(cacheKey);
            if (issuance === undefined) {
              issuance = clientIssuance(ann['cnpg.io/pluginClientSecret'], ns, cmIndex);
              issuanceCache.set(cacheKey, issuance);
            }
            add('CNPGI112', d, checkClientTrust(ann['cnpg.io/pluginClientSecret'], trusted.secret, trusted.key, issuance));
          }
        }
      }
    }
  }
  for (const d of deployments) {
    for (const c of arr(at(d, 'spec', 'template', 'spec', 'containers')).map((x) => obj(x) ?? {})) {
      if (reportedPluginName(str(c.image) ?? '') === BARMAN_CLOUD_NAME && arr(c.args).includes('operator')) {
        add('CNPGI107', d, checkBarmanCloudDeployment(c, arr(c.envFrom).length > 0));
      }
    }
  }
  for (const cert of kind('Certificate')) add('CNPGI108', cert, checkCertificate(cert));
  const secretsByName = groupBy(kind('Secret'), (x) => meta(x).name);
  for (const ci of kind('ClusterIssuer')) {
    add('CNPGI109', ci, checkClusterIssuerSecret(ci, secretsByName.get(str(at(ci, 'spec', 'ca', 'secretName')) ?? '') ?? [], options.clusterResourceNamespace ?? 'cert-manager'));
  }
  return out;
}

function mentionsBarmanCloud(c: Obj): boolean {
  return arr(at(c, 'spec', 'plugins')).some((p) => at(p, 'name') === BARMAN_CLOUD_NAME)
    || arr(at(c, 'spec', 'externalClusters')).some((e) => at(e, 'plugin', 'name') === BARMAN_CLOUD_NAME);
}

function groupBy<T>(items: readonly T[], keyOf: (t: T) => string): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const t of items) {
    const k = keyOf(t);
    const list = out.get(k);
    if (list) list.push(t); else out.set(k, [t]);
  }
  return out;
}

/** The Secret and key behind a mounted file path, through the container's mounts and the pod's volumes. */
function trustedSecretOf(filePath: string, podSpec: Obj, container: Obj): { secret: string; key: string } | undefined {
  const mount = arr(container.volumeMounts).map((m) => obj(m) ?? {})
    .find((m) => typeof m.mountPath === 'string' && filePath.startsWith(`${String(m.mountPath).replace(/\/$/, '')}/`));
  if (!mount) return undefined;
  const volume = arr(podSpec.volumes).map((v) => obj(v) ?? {}).find((v) => v.name === mount.name);
  const secret = str(at(volume, 'secret', 'secretName'));
  if (!secret) return undefined;
  const rel = filePath.slice(String(mount.mountPath).replace(/\/$/, '').length + 1);
  const items = arr(at(volume, 'secret', 'items')).map((i) => obj(i) ?? {});
  const key = items.length ? str(items.find((i) => i.path === rel)?.key) : rel;
  return key === undefined ? undefined : { secret, key };
}
