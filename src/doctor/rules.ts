/**
 * One rule of the doctor, as documented in the README's rule table.
 */
export interface DoctorRule {
  /** Stable id used in findings, e.g. `CNPGI014`. */
  readonly id: string;
  /** Short kebab-case name. */
  readonly name: string;
  /** The severity (or severities) the rule reports. */
  readonly severity: 'error' | 'warning' | 'error or warning';
  /** What the rule checks. */
  readonly what: string;
  /** Why it matters, in the operator's terms. */
  readonly why: string;
  /** The usual fix. */
  readonly fix: string;
}

/**
 * Every rule of the doctor. Ids are stable: a rule that is retired keeps its id unused.
 */
export const DOCTOR_RULES: readonly DoctorRule[] = [
  {
    id: 'CNPGI001', name: 'operator-namespace', severity: 'warning',
    what: 'The operator namespace is neither given nor found in an operator Deployment of the input, or several operator Deployments disagree.',
    why: 'The operator only reads plugin Services and their Secrets in its own namespace; every discovery check depends on it.',
    fix: 'Pass `--operator-namespace` (`operatorNamespace`), or include the operator Deployment.',
  },
  {
    id: 'CNPGI002', name: 'operator-namespace-env', severity: 'warning',
    what: 'The operator Deployment\'s `manager` container does not set `OPERATOR_NAMESPACE`.',
    why: 'The operator takes its namespace from `OPERATOR_NAMESPACE` (the release manifest sets it from the downward API); without it no plugin Service matches.',
    fix: 'Set `OPERATOR_NAMESPACE` from `fieldRef: metadata.namespace`.',
  },
  {
    id: 'CNPGI010', name: 'plugin-name-label', severity: 'error',
    what: 'A Service carries plugin annotations but no `cnpg.io/pluginName` label, or a misspelled one (`cnpg.io/plugin`, wrong case, as an annotation).',
    why: 'The operator discovers plugins by that exact label; any other key is silently ignored.',
    fix: 'Add the label `cnpg.io/pluginName: <plugin name>` to `metadata.labels`.',
  },
  {
    id: 'CNPGI011', name: 'plugin-annotations', severity: 'error or warning',
    what: 'A plugin Service lacks `cnpg.io/pluginPort`, `cnpg.io/pluginClientSecret` or `cnpg.io/pluginServerSecret`, or spells one wrong (a misspelled optional `cnpg.io/pluginServerName` is a warning).',
    why: 'The operator ignores a Service missing any of the three annotations (trace-level log only), whatever the upstream docs say.',
    fix: 'Add all three annotations with the exact keys in `metadata.annotations`.',
  },
  {
    id: 'CNPGI012', name: 'plugin-empty-value', severity: 'error',
    what: 'The plugin label or a plugin annotation is empty or not a string.',
    why: 'The operator skips a plugin Service whose label or annotation is empty; the API server rejects non-string values.',
    fix: 'Give it a non-empty string value (quote numbers in YAML).',
  },
  {
    id: 'CNPGI013', name: 'plugin-port-integer', severity: 'error',
    what: '`cnpg.io/pluginPort` is not an integer string from 1 to 65535.',
    why: 'The operator parses it with `strconv.Atoi` and retries forever with an `InvalidPortAnnotation` event.',
    fix: 'Write the port as a quoted integer, e.g. `cnpg.io/pluginPort: "9090"`.',
  },
  {
    id: 'CNPGI014', name: 'plugin-port-service', severity: 'error',
    what: '`cnpg.io/pluginPort` matches no `spec.ports[].port` of the Service.',
    why: 'The operator dials the annotation\'s port on the Service and never reads `spec.ports`; nothing answers on a port the Service does not expose.',
    fix: 'Make the annotation equal to a Service port.',
  },
  {
    id: 'CNPGI015', name: 'plugin-port-container', severity: 'error or warning',
    what: 'The Service port\'s `targetPort` (by number or by name) reaches no port of the plugin container behind the selector, or differs from its `--server-address`.',
    why: 'The connection is refused, or a named port that no container declares gets no endpoints.',
    fix: 'Make `targetPort` equal to the port the plugin listens on (`--server-address`) and declare it as a container port.',
  },
  {
    id: 'CNPGI016', name: 'plugin-service-selector', severity: 'warning',
    what: 'A plugin Service has no selector, or its selector matches no pod template in the input.',
    why: 'Without ready endpoints the operator cannot connect; the pods may exist outside the input.',
    fix: 'Select the plugin pods\' labels, or include the plugin Deployment in the checked manifests.',
  },
  {
    id: 'CNPGI017', name: 'plugin-service-namespace', severity: 'error',
    what: 'A plugin Service is outside the operator namespace.',
    why: 'The operator only watches Services in its own namespace (`OPERATOR_NAMESPACE`), whatever the docs\' "same namespace" suggests.',
    fix: 'Deploy the plugin (Service, Deployment, Secrets, Certificates) in the operator namespace.',
  },
  {
    id: 'CNPGI018', name: 'plugin-name-duplicate', severity: 'error',
    what: 'Two Services in the operator namespace carry the same `cnpg.io/pluginName`.',
    why: 'The operator keeps one connection per name: the last Service reconciled replaces the other.',
    fix: 'Give each plugin a distinct name, or delete the extra Service.',
  },
  {
    id: 'CNPGI019', name: 'plugin-server-name-version', severity: 'error or warning',
    what: '`cnpg.io/pluginServerName` is set but the target CNPG version ignores it (needs 1.26.3+, 1.27.2+ or 1.28.0+).',
    why: 'Older operators verify the short Service name; a certificate made only for the annotated name fails with `x509: certificate is valid for ...`.',
    fix: 'Upgrade the operator, or make the server certificate cover the short Service name too.',
  },
  {
    id: 'CNPGI020', name: 'plugin-secret-source', severity: 'warning',
    what: 'A Secret named by `cnpg.io/pluginClientSecret` / `cnpg.io/pluginServerSecret` is neither written by a Certificate in the namespace nor present in the input.',
    why: 'The operator reads both Secrets from the operator namespace and retries with `ClientSecretNotFound` / `ServerSecretNotFound` until they exist.',
    fix: 'Add the cert-manager Certificates (`spec.secretName`), or make sure the Secrets are created some other way.',
  },
  {
    id: 'CNPGI021', name: 'plugin-secret-keys', severity: 'error',
    what: 'A plugin Secret in the input lacks `tls.crt` (or, for the client Secret, `tls.key`).',
    why: 'The operator loads the client pair from `tls.crt` + `tls.key` and the server root from `tls.crt`; anything else is an `Invalid...Certificate` event.',
    fix: 'Store the PEM certificate and key under `tls.crt` and `tls.key` (a `kubernetes.io/tls` Secret).',
  },
  {
    id: 'CNPGI022', name: 'server-certificate-san', severity: 'error',
    what: 'The server Certificate\'s `dnsNames` miss the name the operator verifies (`cnpg.io/pluginServerName`, else the short Service name); the common name does not count.',
    why: 'Go verifies DNS SANs only: the handshake fails with `x509: certificate is valid for ..., not ...`.',
    fix: 'Add the verified name to `spec.dnsNames`.',
  },
  {
    id: 'CNPGI023', name: 'certificate-usages', severity: 'error or warning',
    what: 'The server Certificate lacks `server auth` or the client Certificate lacks `client auth` among extended usages it does list (warning when it lists none).',
    why: 'Go rejects a certificate whose extended key usages exclude the one needed (`incompatible key usage`); with `usages` omitted cert-manager issues `digital signature, key encipherment` and no extended usage, which Go accepts for any purpose.',
    fix: 'Set `usages: [server auth]` on the server Certificate and `usages: [client auth]` on the client Certificate.',
  },
  {
    id: 'CNPGI024', name: 'certificate-issuer-ref', severity: 'error or warning',
    what: 'A plugin Certificate\'s `issuerRef` names an Issuer in another namespace, nothing at all, or nothing in the input (warning).',
    why: 'An Issuer is namespaced: cert-manager looks for it in the Certificate\'s namespace only, and never issues the Secret otherwise.',
    fix: 'Create the Issuer in the Certificate\'s namespace, or reference a ClusterIssuer (`kind: ClusterIssuer`).',
  },
  {
    id: 'CNPGI025', name: 'client-ca-trust', severity: 'error or warning',
    what: 'The plugin trusts the client Secret\'s `tls.crt` (`--client-cert=<mount>/tls.crt`) although the client certificate is issued by a CA (warning when the issuer is unknown).',
    why: 'Go\'s TLS 1.3 client sends its certificate only if its issuer is among the server\'s acceptable CAs: trusting a CA-issued leaf makes the operator send none, and the handshake fails with `tls: certificate required`.',
    fix: 'Pass `--client-cert=<mount>/ca.crt`: cert-manager writes the CA there, and the certificate itself for a SelfSigned issuer, so it works for both.',
  },
  {
    id: 'CNPGI026', name: 'plugin-tls-files', severity: 'error or warning',
    what: 'The plugin\'s `--server-cert` / `--server-key` / `--client-cert` read a different Secret or key than the annotations name, or a file no Secret mounts (warning).',
    why: 'The operator pins the server Secret\'s `tls.crt` and presents the client Secret\'s pair; the plugin must serve the one and trust the other.',
    fix: 'Mount the server Secret and pass its `tls.crt` / `tls.key`; mount the client Secret and pass its `ca.crt`.',
  },
  {
    id: 'CNPGI027', name: 'plugin-extra-secrets', severity: 'warning',
    what: 'The plugin pod mounts Secrets other than the two annotated ones.',
    why: 'Often a leftover from a renamed Certificate: the plugin then serves or trusts a stale certificate.',
    fix: 'Mount only the annotated Secrets, or check the extra mount is intended (e.g. cloud credentials).',
  },
  {
    id: 'CNPGI030', name: 'sidecar-socket-volume', severity: 'error or warning',
    what: 'A sidecar plugin container in the operator Deployment does not mount the volume the manager mounts at its socket directory (or the volume is not an `emptyDir`: warning).',
    why: 'The operator lists `PLUGIN_SOCKET_DIR` once at startup; the socket the plugin creates must be in that same directory.',
    fix: 'Mount one `emptyDir` volume at the socket directory in both the manager and the plugin container.',
  },
  {
    id: 'CNPGI031', name: 'sidecar-socket-dir', severity: 'error or warning',
    what: 'The manager mounts nothing at `PLUGIN_SOCKET_DIR` (default `/plugins`), or a sidecar creates its socket (`--plugin-path`, default `/plugins`) outside the shared volume (warning when only the cnpg-i-machinery default is assumed and no argument names the shared volume).',
    why: 'The operator looks only in `PLUGIN_SOCKET_DIR` (the docs\' `/plugin` is wrong); a socket anywhere else is never found.',
    fix: 'Use the same directory on both sides, or set `PLUGIN_SOCKET_DIR` on the manager container to where the volume is mounted.',
  },
  {
    id: 'CNPGI040', name: 'plugin-not-discovered', severity: 'error or warning',
    what: 'A Cluster (`spec.plugins`, `externalClusters[].plugin`), Backup or ScheduledBackup names a plugin that is not discovered (warning when a sidecar\'s socket name cannot be read from the manifests).',
    why: 'The Cluster stops with "Cluster cannot proceed to reconciliation due to an unknown plugin being required"; a Backup fails.',
    fix: 'Fix the name, deploy the plugin, or pass `--known-plugin <name>` if it is installed elsewhere.',
  },
  {
    id: 'CNPGI041', name: 'wal-archiver-count', severity: 'error',
    what: 'More than one enabled plugin of a Cluster sets `isWALArchiver: true`.',
    why: 'The CNPG webhook rejects the Cluster.',
    fix: 'Keep `isWALArchiver: true` on one plugin only.',
  },
  {
    id: 'CNPGI042', name: 'wal-archiver-barman-object-store', severity: 'error',
    what: 'A Cluster has a WAL archiver plugin and `spec.backup.barmanObjectStore`.',
    why: 'The CNPG webhook rejects the Cluster: only one WAL archiving method is allowed.',
    fix: 'Remove `spec.backup.barmanObjectStore` (the plugin archives WAL) or the plugin\'s `isWALArchiver`.',
  },
  {
    id: 'CNPGI043', name: 'external-cluster-source', severity: 'error',
    what: 'An external cluster has none of `connectionParameters`, `plugin`, `barmanObjectStore`.',
    why: 'The CNPG webhook rejects the Cluster.',
    fix: 'Give the external cluster a `plugin` (e.g. `barman-cloud.cloudnative-pg.io`) or connection parameters.',
  },
  {
    id: 'CNPGI044', name: 'backup-plugin-configuration', severity: 'error',
    what: 'A Backup with `method: plugin` has no `pluginConfiguration.name`.',
    why: 'The CNPG webhook rejects the Backup.',
    fix: 'Set `spec.pluginConfiguration.name` to the plugin\'s name.',
  },
  {
    id: 'CNPGI045', name: 'scheduled-backup-plugin-configuration', severity: 'error',
    what: 'A ScheduledBackup with `method: plugin` has no `pluginConfiguration.name`.',
    why: 'The ScheduledBackup webhook does not check it: every Backup it creates is then rejected.',
    fix: 'Set `spec.pluginConfiguration.name` to the plugin\'s name.',
  },
  {
    id: 'CNPGI046', name: 'plugin-duplicate-in-cluster', severity: 'error',
    what: 'A Cluster lists the same plugin name twice in `spec.plugins`.',
    why: 'Nothing checks it; the operator keeps one entry and silently drops the other\'s parameters.',
    fix: 'Merge the two entries.',
  },
  {
    id: 'CNPGI047', name: 'plugin-configuration-ignored', severity: 'warning',
    what: 'A Backup or ScheduledBackup sets `pluginConfiguration` but its `method` is not `plugin`.',
    why: '`method` defaults to `barmanObjectStore`: the plugin configuration is ignored.',
    fix: 'Set `method: plugin`.',
  },
  {
    id: 'CNPGI048', name: 'plugin-parameters-strings', severity: 'error',
    what: 'A plugin\'s `parameters` hold a value that is not a string.',
    why: 'The CRD declares a map of strings: the API server rejects numbers and booleans.',
    fix: 'Quote the value, e.g. `"true"` or `"5"`.',
  },
  {
    id: 'CNPGI049', name: 'plugin-unknown-field', severity: 'error',
    what: 'A `spec.plugins[]` or `externalClusters[].plugin` entry has a field the CRD does not know, e.g. `isWalArchiver`.',
    why: 'The API server prunes unknown fields: `isWalArchiver: true` silently leaves the Cluster without WAL archiving.',
    fix: 'Use the CRD spelling: `name`, `enabled`, `isWALArchiver`, `parameters`.',
  },
  {
    id: 'CNPGI050', name: 'plugin-pod-security', severity: 'warning',
    what: 'A plugin pod template (or sidecar plugin container) breaks the Pod Security Standards "restricted" profile.',
    why: 'Namespaces enforcing `restricted` reject the pods; plugins hold TLS keys and cloud credentials.',
    fix: 'runAsNonRoot, allowPrivilegeEscalation false, capabilities drop ALL, seccomp RuntimeDefault, no privileged/host namespaces/hostPath.',
  },
  {
    id: 'CNPGI090', name: 'not-a-kubernetes-object', severity: 'warning',
    what: 'A document is not a Kubernetes object (no `apiVersion`/`kind`, a scalar, a list).',
    why: 'It is skipped: nothing in it is checked.',
    fix: 'Remove it, or check that the right files were passed.',
  },
];
