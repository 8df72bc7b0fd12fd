import { checkBackupPrerequisites } from '../../checks/backup-prerequisites';
import { checkBackupSpec } from '../../checks/backup-spec';
import { checkBarmanCloudCluster, checkBarmanCloudDeployment, referencedObjectStores } from '../../checks/barman-cloud';
import { checkCertificate, checkClusterIssuerSecret } from '../../checks/certificate';
import { certManagerIndex, checkClientTrust, clientIssuance, resolveClusterResourceNamespace } from '../../checks/client-trust';
import { checkClusterReferences } from '../../checks/cluster-references';
import { CheckIssue } from '../../checks/issue';
import { checkOperatorConfig, resolveOperatorConfig } from '../../checks/operator-config';
import { checkPluginIdentity, reportedPluginName } from '../../checks/plugin-identity';
import { checkPluginServiceNames } from '../../checks/plugin-wiring';
import { checkFlagFile, checkSecretData, checkTlsSecret } from '../../checks/secret-contents';
import { ContainerPort, checkPluginServicePort } from '../../checks/service-port';
import { Json, asArray, asObject, asString, dig, objectMeta, stringMap } from '../../manifests/json';
import { BARMAN_CLOUD_PLUGIN_NAME } from '../../manifests/known-plugins';

/**
 * The fidelity rule families, ready to become registry modules (one per entry): proposed id,
 * name, what decides the severity, what, why (citing the deciding code; details in
 * docs/operator-fidelity.md), fix, and the kinds each reads.
 * @internal
 */
export const FIDELITY_FAMILIES = [
  {
    id: 'CNPGI100',
    name: 'cluster-references',
    severities: [{ severity: 'error' as const, when: 'always' }],
    kinds: ['postgresql.cnpg.io/Cluster'],
    what: 'Cluster cross-references: recovery, pg_basebackup and replica sources, replica primary/self, unique external clusters each with connectionParameters, plugin or barmanObjectStore, path-safe names and TLS Secret selectors, one bootstrap method.',
    why: 'cloudnative-pg v1.30.0 internal/webhook/v1/cluster_webhook.go validateBootstrapRecoverySource, validateBootstrapPgBaseBackupSource, validateReplicaClusterExternalClusters, validateReplicaMode, validateExternalClusters, validateExternalCluster, isUnsafePathComponent, validateBootstrapMethod. (Merges the retired CNPGI043.)',
    fix: 'Name an existing externalClusters entry; keep names unique; give each entry connectionParameters, plugin or barmanObjectStore.',
  },
  {
    id: 'CNPGI101',
    name: 'backup-spec',
    severities: [
      { severity: 'error' as const, when: 'otherwise' },
      { severity: 'warning' as const, when: 'for online settings with method plugin' },
    ],
    kinds: ['postgresql.cnpg.io/Backup', 'postgresql.cnpg.io/ScheduledBackup'],
    what: 'Backup and ScheduledBackup enums, online/onlineConfiguration after the CRD default of method, pluginConfiguration.name.',
    why: 'cloudnative-pg v1.30.0 api/v1/backup_types.go BackupSpec (CRD enum and default), internal/webhook/v1/backup_webhook.go validate, internal/webhook/v1/scheduledbackup_webhook.go validate.',
    fix: 'Spell enums as the CRD does; write method: plugin with pluginConfiguration.name.',
  },
  {
    id: 'CNPGI102',
    name: 'scheduled-backup-schedule',
    severities: [
      { severity: 'error' as const, when: 'otherwise' },
      { severity: 'warning' as const, when: 'when a field selects nothing' },
    ],
    kinds: ['postgresql.cnpg.io/ScheduledBackup'],
    what: 'The schedule as robfig/cron v1.2.0 Parse reads it; 5 fields are an error that shows the reading and the 6-field form.',
    why: 'robfig/cron v1.2.0 parser.go Parse, getRange, parseDescriptor; cloudnative-pg v1.30.0 internal/webhook/v1/scheduledbackup_webhook.go validate.',
    fix: 'Write 6 fields, seconds first, or a descriptor.',
  },
  {
    id: 'CNPGI103',
    name: 'backup-prerequisites',
    severities: [{ severity: 'error' as const, when: 'always' }],
    kinds: ['postgresql.cnpg.io/Backup', 'postgresql.cnpg.io/ScheduledBackup', 'postgresql.cnpg.io/Cluster'],
    what: 'A plugin backup of a Cluster without plugins, or through a plugin absent or disabled in it; in-tree methods without their Cluster section; a hibernated Cluster.',
    why: 'cloudnative-pg v1.30.0 internal/controller/backup_controller.go checkPrerequisites, Reconcile; internal/cnpi/plugin/client/client.go getPlugin.',
    fix: "Enable the plugin in the Cluster's spec.plugins.",
  },
  {
    id: 'CNPGI104',
    name: 'operator-configuration',
    severities: [{ severity: 'error' as const, when: 'always' }],
    kinds: ['Deployment', 'ConfigMap', 'Secret'],
    what: 'OPERATOR_NAMESPACE missing, PLUGIN_SOCKET_DIR with stray bytes, INCLUDE_PLUGINS names not discovered, an HTTPS proxy not exempting <svc>.<ns>.svc.',
    why: 'cloudnative-pg v1.30.0 pkg/configparser/configparser.go ReadConfigMap, internal/configuration/configuration.go GetIncludePlugins, api/v1/cluster_defaults.go setDefaultPlugins, internal/controller/plugin_predicates.go isPluginService; grpc-go v1.81.1 internal/resolver/delegatingresolver/delegatingresolver.go proxyURLForTarget.',
    fix: 'Set OPERATOR_NAMESPACE from the downward API; trim values; add .svc to NO_PROXY.',
  },
  {
    id: 'CNPGI105',
    name: 'plugin-identity',
    severities: [{ severity: 'error' as const, when: 'always' }],
    kinds: ['Service', 'Deployment'],
    what: 'A plugin Service label that differs from the name its known image reports (Barman Cloud, hello-world).',
    why: 'cloudnative-pg v1.30.0 internal/cnpi/plugin/client/client.go getPlugin; plugin-barman-cloud v0.14.0 internal/cnpgi/metadata/constants.go PluginName.',
    fix: 'Label the Service with the reported name.',
  },
  {
    id: 'CNPGI106',
    name: 'barman-cloud-cluster',
    severities: [
      { severity: 'error' as const, when: 'otherwise' },
      { severity: 'warning' as const, when: 'for ignored keys and ObjectStores outside the input' },
    ],
    kinds: ['postgresql.cnpg.io/Cluster', 'barmancloud.cnpg.io/ObjectStore'],
    what: 'Barman Cloud parameters, ObjectStore namespace, recovery into the source destination and serverName.',
    why: 'plugin-barman-cloud v0.14.0 internal/cnpgi/operator/config/config.go NewFromCluster, Validate, GetBarmanObjectKey; internal/cnpgi/operator/lifecycle.go LifecycleHook; internal/cnpgi/restore/restore.go checkBackupDestination.',
    fix: 'Use barmanObjectName/serverName; keep the ObjectStore in the Cluster namespace; give a recovered Cluster its own serverName.',
  },
  {
    id: 'CNPGI107',
    name: 'barman-cloud-sidecar-image',
    severities: [
      { severity: 'error' as const, when: 'otherwise' },
      { severity: 'warning' as const, when: 'when an unknown envFrom may set it' },
    ],
    kinds: ['Deployment'],
    what: 'The Barman Cloud plugin Deployment lacks SIDECAR_IMAGE.',
    why: 'plugin-barman-cloud v0.14.0 internal/cmd/operator/main.go NewCmd.',
    fix: 'Set SIDECAR_IMAGE.',
  },
  {
    id: 'CNPGI108',
    name: 'certificate-webhook',
    severities: [{ severity: 'error' as const, when: 'always' }],
    kinds: ['cert-manager.io/Certificate'],
    what: 'cert-manager Certificate admission: identities, usages, key sizes per algorithm, signature algorithm, durations, secretName.',
    why: 'cert-manager v1.21.1 internal/apis/certmanager/validation/certificate.go ValidateCertificateSpec, validateUsages, ValidateDuration.',
    fix: 'Follow the message.',
  },
  {
    id: 'CNPGI109',
    name: 'cluster-issuer-ca-namespace',
    severities: [{ severity: 'error' as const, when: 'always' }],
    kinds: ['cert-manager.io/ClusterIssuer', 'Secret', 'cert-manager.io/Certificate', 'Deployment'],
    what: "A ClusterIssuer's CA Secret (or the Certificate writing it) exists only outside cert-manager's cluster-resource namespace (option `clusterResourceNamespace`, CLI `--cluster-resource-namespace`; default: the cert-manager controller Deployment's flag when the input has one, else `cert-manager`).",
    why: "A cluster-scoped issuer has no namespace, so cert-manager reads its resources from the cluster-resource namespace (cert-manager v1.21.1 pkg/controller/helper.go IssuerOptions.ResourceNamespace, used by pkg/issuer/ca/setup.go CA.Setup). That namespace is the controller flag --cluster-resource-namespace (cmd/controller/app/options/options.go AddConfigFlags), `kube-system` when the flag is absent (internal/apis/config/controller/v1alpha1/defaults.go SetDefaults_ControllerConfiguration), and `$(POD_NAMESPACE)` (cert-manager's own namespace, `cert-manager` in the static manifests) as the Helm chart sets it (deploy/charts/cert-manager/templates/deployment.yaml).",
    fix: 'Put the CA Secret in the cluster-resource namespace, or tell the doctor the namespace cert-manager really uses.',
  },
  {
    id: 'CNPGI110',
    name: 'secret-contents',
    severities: [{ severity: 'error' as const, when: 'always' }],
    kinds: ['Secret', 'Service', 'Deployment'],
    what: 'A plugin TLS Secret in the input lacks `tls.crt` (or, for the client Secret, `tls.key`), holds an empty value or PEM that does not parse; or a file a plugin flag names is missing from the Secret mounted there (the fix fits the keys the Secret holds). Secrets with neither `data` nor `stringData` are placeholders and are skipped.',
    why: 'The operator loads the client pair with tls.X509KeyPair(tls.crt, tls.key) and the server root with AppendCertsFromPEM(tls.crt), never ca.crt; anything else is an InvalidClientCertificate / InvalidServerCertificate event and a retry (cloudnative-pg v1.30.0 internal/controller/plugin_controller.go PluginReconciler.reconcile). The plugin reads the files its flags name on every new connection (cnpg-i-machinery v0.4.2 pkg/pluginhelper/http/server.go Server.setupTLSCerts, Server.getConfigForClient); a key missing from a mounted Secret is a missing file. (Merges the retired CNPGI021.)',
    fix: 'Store the PEM certificate and key under tls.crt and tls.key (a kubernetes.io/tls Secret); point flags at keys the Secret holds.',
  },
  {
    id: 'CNPGI115',
    name: 'secret-data',
    severities: [{ severity: 'error' as const, when: 'always' }],
    kinds: ['Secret'],
    what: 'A Secret the API server refuses: a `data` value that is not standard padded base64 (or not a string), a key that is not a valid config key, more than 1 MiB, or a `kubernetes.io/tls` Secret without `tls.crt` and `tls.key`.',
    why: 'Secret.data is map[string][]byte, and a []byte is decoded from a JSON string with Go base64.StdEncoding (kubernetes-sigs/json 9aa6b5e internal/golang/encoding/json/decode.go decodeState.literalStore, the decoder of apimachinery v0.32.13 pkg/runtime/serializer/json/json.go Serializer.unmarshal): invalid base64 fails the request with `illegal base64 data at input byte N`. Then kubernetes pkg/apis/core/validation/validation.go ValidateSecret checks every key with apimachinery v0.32.13 pkg/util/validation/validation.go IsConfigMapKey, the total against MaxSecretSize (1 MiB), and requires tls.crt and tls.key for type kubernetes.io/tls (stringData is merged into data first).',
    fix: 'Write base64 (`base64 -w0`) under data, or plain text under stringData; keep keys to letters, digits, -, _ and .',
  },
  {
    id: 'CNPGI111',
    name: 'plugin-service-port',
    severities: [{ severity: 'error' as const, when: 'always' }],
    kinds: ['Service', 'Deployment'],
    what: 'A headless plugin Service (clusterIP: None) whose annotation port is not a port of its pods: the dial goes to the pod IPs, targetPort is not applied.',
    why: 'cloudnative-pg v1.30.0 internal/controller/plugin_controller.go reconcile (dials <svc>.<ns>.svc:<pluginPort>).',
    fix: 'Match the annotation to the right port.',
  },
  {
    id: 'CNPGI112',
    name: 'client-certificate-trust',
    severities: [{ severity: 'error' as const, when: 'always' }],
    kinds: ['Deployment', 'cert-manager.io/Certificate', 'cert-manager.io/Issuer', 'cert-manager.io/ClusterIssuer'],
    what: 'The client certificate is self-signed and the plugin trusts a Secret other than the client Secret (the single-tier-CA trap is CNPGI025).',
    why: 'cnpg-i-machinery v0.4.2 pkg/pluginhelper/http/server.go Server.setupTLSCerts (ClientCAs from --client-cert); Go crypto/tls sends the client certificate only for an advertised issuer, and a self-signed certificate is its own issuer, renewed with a new key (cert-manager v1.21.1 pkg/controller/certificaterequests/selfsigned/selfsigned.go SelfSigned.Sign).',
    fix: 'Trust the client Secret itself (its tls.crt or ca.crt).',
  },
  {
    id: 'CNPGI114',
    name: 'plugin-service-names',
    severities: [{ severity: 'error' as const, when: 'always' }],
    kinds: ['Service'],
    what: 'Plugin label values over 63 characters or badly formed; quoted numeric or invalid named targetPort.',
    why: 'The API server refuses the Service (Kubernetes label-value and IANA_SVC_NAME validation); the label is the plugin name the operator reads (cloudnative-pg v1.30.0 internal/controller/plugin_controller.go Reconcile).',
    fix: 'Shorten the name; write ports as numbers.',
  },
] as const;

/** A family id. @internal */
export type FidelityFamilyId = (typeof FIDELITY_FAMILIES)[number]['id'];

/** One fidelity result: the family, the object it is about, and the neutral issue. @internal */
export interface FidelityResult {
  readonly family: FidelityFamilyId;
  readonly object: Json;
  readonly issue: CheckIssue;
}

/** Options of {@link runFidelity}. @internal */
export interface FidelityOptions {
  /** The operator namespace. @default - the operator Deployment's, else 'cnpg-system' */
  readonly operatorNamespace?: string;
  /**
   * cert-manager's cluster-resource namespace.
   * @default - the cert-manager controller Deployment's flag when the input has one, else 'cert-manager'
   */
  readonly clusterResourceNamespace?: string;
  /** The namespace of objects that have none. @default 'default' */
  readonly defaultNamespace?: string;
  /** Plugin names known to exist outside the input. @default [] */
  readonly knownPlugins?: readonly string[];
}

const isOperator = (d: Json): boolean =>
  asArray(dig(d, 'spec', 'template', 'spec', 'containers')).some((c) =>
    /cloudnative-pg(-testing)?[:@]|\/cloudnative-pg$/.test(asString(dig(c, 'image')) ?? ''),
  );

/**
 * Runs every family over a set of plain manifests. One pass builds the index by kind; each
 * family then reads only its kinds, so the cost stays linear in the input.
 * @internal
 */
export function runFidelity(objects: readonly Json[], options: FidelityOptions = {}): FidelityResult[] {
  const byKind = new Map<string, Json[]>();
  for (const o of objects) {
    const k = asString(o.kind);
    if (!k) continue;
    const list = byKind.get(k);
    if (list) list.push(o);
    else byKind.set(k, [o]);
  }
  const kind = (k: string): Json[] => byKind.get(k) ?? [];
  const defNs = options.defaultNamespace ?? 'default';
  const nsOf = (o: Json): string => objectMeta(o).namespace ?? defNs;
  const out: FidelityResult[] = [];
  const add = (family: FidelityFamilyId, object: Json, issues: readonly CheckIssue[]): void => {
    for (const issue of issues) out.push({ family, object, issue });
  };
  const deployments = kind('Deployment');
  const operator = deployments.find(isOperator);
  const config = operator ? resolveOperatorConfig({ deployment: operator, configMaps: kind('ConfigMap'), secrets: kind('Secret') }) : undefined;
  const operatorNs = options.operatorNamespace ?? config?.operatorNamespace ?? objectMeta(operator ?? {}).namespace ?? 'cnpg-system';
  const services = kind('Service');
  const pluginServices = services.filter((s) => stringMap(dig(s, 'metadata', 'labels'))['cnpg.io/pluginName'] !== undefined);
  const discovered = new Set<string>([
    ...(options.knownPlugins ?? []),
    ...pluginServices
      .filter((s) => (objectMeta(s).namespace ?? defNs) === operatorNs)
      .map((s) => stringMap(dig(s, 'metadata', 'labels'))['cnpg.io/pluginName']),
  ]);
  const includePlugins = config?.includePlugins ?? [];

  const storesByName = groupBy(kind('ObjectStore'), (o) => objectMeta(o).name);
  for (const c of kind('Cluster')) {
    add('CNPGI100', c, checkClusterReferences(c));
    if (mentionsBarmanCloud(c)) {
      const stores = byKind.has('ObjectStore') ? referencedObjectStores(c).flatMap((n) => storesByName.get(n) ?? []) : undefined;
      add('CNPGI106', c, checkBarmanCloudCluster(c, stores));
    }
  }
  const key = (o: Json, name = objectMeta(o).name): string => `${objectMeta(o).namespace ?? defNs}/${name}`;
  const clusters = new Map(kind('Cluster').map((c) => [key(c), c]));
  const secrets = new Map(kind('Secret').map((x) => [key(x), x]));
  const clusterFor = (b: Json): Json | undefined => clusters.get(key(b, asString(dig(b, 'spec', 'cluster', 'name')) ?? ''));
  for (const k of ['Backup', 'ScheduledBackup'] as const) {
    for (const b of kind(k)) {
      const issues = checkBackupSpec(b, k);
      add(
        'CNPGI101',
        b,
        issues.filter((i) => i.path !== 'spec.schedule'),
      );
      add(
        'CNPGI102',
        b,
        issues.filter((i) => i.path === 'spec.schedule'),
      );
      add('CNPGI103', b, checkBackupPrerequisites(b, clusterFor(b), includePlugins));
    }
  }
  if (operator && config) {
    add(
      'CNPGI104',
      operator,
      checkOperatorConfig(
        config,
        discovered,
        pluginServices
          .filter((s) => (objectMeta(s).namespace ?? defNs) === operatorNs)
          .map((s) => ({ name: objectMeta(s).name, namespace: operatorNs, port: stringMap(dig(s, 'metadata', 'annotations'))['cnpg.io/pluginPort'] ?? '' })),
      ),
    );
  }
  // Deployments by namespace and template label, so a Service's selector reads only candidates.
  const byLabel = new Map<string, Json[]>();
  for (const d of deployments) {
    for (const [k, v] of Object.entries(stringMap(dig(d, 'spec', 'template', 'metadata', 'labels')))) {
      const lk = `${objectMeta(d).namespace ?? defNs}\u0000${k}=${v}`;
      const list = byLabel.get(lk);
      if (list) list.push(d);
      else byLabel.set(lk, [d]);
    }
  }
  const clusterResourceNamespace = resolveClusterResourceNamespace(deployments, options.clusterResourceNamespace, nsOf);
  const cmIndex = certManagerIndex({
    certificates: kind('Certificate'),
    issuers: [...kind('Issuer'), ...kind('ClusterIssuer')],
    secrets: kind('Secret'),
    namespaceOf: nsOf,
    clusterResourceNamespace,
  });
  const issuanceCache = new Map<string, ReturnType<typeof clientIssuance>>();
  const backingCache = new Map<string, { backing: Json[]; images: string[]; ports: ContainerPort[] }>();
  const backingOf = (s: Json): { backing: Json[]; images: string[]; ports: ContainerPort[] } => {
    const ns = objectMeta(s).namespace ?? defNs;
    const selector = Object.entries(stringMap(dig(s, 'spec', 'selector'))).sort(([a], [b]) => a.localeCompare(b));
    const cacheKey = `${ns}\u0000${selector.map(([k, v]) => `${k}=${v}`).join(',')}`;
    const cached = backingCache.get(cacheKey);
    if (cached) return cached;
    const backing =
      selector.length === 0
        ? []
        : (byLabel.get(`${ns}\u0000${selector[0][0]}=${selector[0][1]}`) ?? []).filter((d) =>
            selector.every(([k, v]) => stringMap(dig(d, 'spec', 'template', 'metadata', 'labels'))[k] === v),
          );
    const containers = backing.flatMap((d) => asArray(dig(d, 'spec', 'template', 'spec', 'containers')).map((c) => asObject(c) ?? {}));
    const result = {
      backing,
      images: [...new Set(containers.map((c) => asString(c.image) ?? ''))],
      ports: containers.flatMap((c) =>
        asArray(c.ports)
          .map((p) => asObject(p) ?? {})
          .map((p) => ({ containerPort: Number(p.containerPort), name: asString(p.name) })),
      ),
    };
    backingCache.set(cacheKey, result);
    return result;
  };
  const flagsChecked = new Set<Json>();
  const trustChecked = new Set<string>();
  const deploymentIds = new Map<Json, number>(deployments.map((d, i) => [d, i]));
  for (const s of pluginServices) {
    const label = stringMap(dig(s, 'metadata', 'labels'))['cnpg.io/pluginName'];
    const { backing, images, ports } = backingOf(s);
    add('CNPGI105', s, checkPluginIdentity(label, images));
    add('CNPGI114', s, checkPluginServiceNames(s));
    add('CNPGI111', s, checkPluginServicePort(s, backing.length ? ports : undefined));
    const ann = stringMap(dig(s, 'metadata', 'annotations'));
    const ns = objectMeta(s).namespace;
    const secretNamed = (n: string | undefined): Json | undefined => (n === undefined ? undefined : secrets.get(`${ns ?? defNs}/${n}`));
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
      const podSpec = asObject(dig(d, 'spec', 'template', 'spec')) ?? {};
      for (const c of asArray(podSpec.containers).map((x) => asObject(x) ?? {})) {
        for (const arg of asArray(c.args).filter((a): a is string => typeof a === 'string')) {
          const m = /^(--(?:server-cert|server-key|client-cert))=(.+)$/.exec(arg);
          if (!m) continue;
          if (firstVisit)
            add(
              'CNPGI110',
              d,
              checkFlagFile(m[1], m[2], podSpec, c, (n) => secrets.get(`${objectMeta(d).namespace ?? defNs}/${n}`)),
            );
          if (!trustVisit || m[1] !== '--client-cert' || !ann['cnpg.io/pluginClientSecret']) continue;
          const trusted = trustedSecretOf(m[2], podSpec, c);
          if (trusted) {
            const cacheKey = `${ns ?? defNs}/${ann['cnpg.io/pluginClientSecret']}`;
            let issuance = issuanceCache.get(cacheKey);
            if (issuance === undefined) {
              issuance = clientIssuance(ann['cnpg.io/pluginClientSecret'], ns ?? defNs, cmIndex);
              issuanceCache.set(cacheKey, issuance);
            }
            add('CNPGI112', d, checkClientTrust(ann['cnpg.io/pluginClientSecret'], trusted.secret, issuance));
          }
        }
      }
    }
  }
  for (const d of deployments) {
    for (const c of asArray(dig(d, 'spec', 'template', 'spec', 'containers')).map((x) => asObject(x) ?? {})) {
      if (reportedPluginName(asString(c.image) ?? '') === BARMAN_CLOUD_PLUGIN_NAME && asArray(c.args).includes('operator')) {
        add('CNPGI107', d, checkBarmanCloudDeployment(c, asArray(c.envFrom).length > 0));
      }
    }
  }
  for (const cert of kind('Certificate')) add('CNPGI108', cert, checkCertificate(cert));
  for (const secret of kind('Secret')) add('CNPGI115', secret, checkSecretData(secret));
  const secretsByName = groupBy(kind('Secret'), (x) => objectMeta(x).name);
  const certsBySecretName = groupBy(kind('Certificate'), (x) => asString(dig(x, 'spec', 'secretName')) ?? '');
  for (const ci of kind('ClusterIssuer')) {
    const caName = asString(dig(ci, 'spec', 'ca', 'secretName')) ?? '';
    const holders = [
      ...(secretsByName.get(caName) ?? []).map((x) => ({ namespace: nsOf(x), what: 'Secret' })),
      ...(certsBySecretName.get(caName) ?? []).map((x) => ({ namespace: nsOf(x), what: `written by Certificate '${objectMeta(x).name}'` })),
    ];
    add('CNPGI109', ci, checkClusterIssuerSecret(ci, holders, clusterResourceNamespace));
  }
  return out;
}

function mentionsBarmanCloud(c: Json): boolean {
  return (
    asArray(dig(c, 'spec', 'plugins')).some((p) => dig(p, 'name') === BARMAN_CLOUD_PLUGIN_NAME) ||
    asArray(dig(c, 'spec', 'externalClusters')).some((e) => dig(e, 'plugin', 'name') === BARMAN_CLOUD_PLUGIN_NAME)
  );
}

function groupBy<T>(items: readonly T[], keyOf: (t: T) => string): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const t of items) {
    const k = keyOf(t);
    const list = out.get(k);
    if (list) list.push(t);
    else out.set(k, [t]);
  }
  return out;
}

/** The Secret and key behind a mounted file path, through the container's mounts and the pod's volumes. */
function trustedSecretOf(filePath: string, podSpec: Json, container: Json): { secret: string; key: string } | undefined {
  const mount = asArray(container.volumeMounts)
    .map((m) => asObject(m) ?? {})
    .find((m) => typeof m.mountPath === 'string' && filePath.startsWith(`${String(m.mountPath).replace(/\/$/, '')}/`));
  if (!mount) return undefined;
  const volume = asArray(podSpec.volumes)
    .map((v) => asObject(v) ?? {})
    .find((v) => v.name === mount.name);
  const secret = asString(dig(volume, 'secret', 'secretName'));
  if (!secret) return undefined;
  const rel = filePath.slice(String(mount.mountPath).replace(/\/$/, '').length + 1);
  const items = asArray(dig(volume, 'secret', 'items')).map((i) => asObject(i) ?? {});
  const key = items.length ? asString(items.find((i) => i.path === rel)?.key) : rel;
  return key === undefined ? undefined : { secret, key };
}
