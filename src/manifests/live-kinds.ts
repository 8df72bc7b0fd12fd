/*
 * The kinds `cnpg-i-doctor cluster` reads from a running cluster, and the ClusterRole that lets it
 * read them: `list` on each kind, nothing else (no get on single objects, no watch, no write).
 * Here, at the ground, so that the live reader (src/live) and the construct that writes the role
 * (DoctorReaderRole, src/presets) share one list and never differ.
 */
import type { Json } from './json';

/** One kind the doctor reads from a live cluster. */
export interface LiveKind {
  /** `''` for the core group. */
  readonly group: string;
  readonly version: string;
  /** The plural resource name, e.g. `pods`. */
  readonly resource: string;
  readonly kind: string;
  readonly namespaced: boolean;
  /** What the doctor reads it for (the guide's table). */
  readonly purpose: string;
}

/** Every kind the live doctor lists, in the order it lists them. */
export const LIVE_KINDS: readonly LiveKind[] = [
  {
    group: 'apps',
    version: 'v1',
    resource: 'deployments',
    kind: 'Deployment',
    namespaced: true,
    purpose: 'the operator and the plugin Deployments (SIDECAR_IMAGE)',
  },
  { group: '', version: 'v1', resource: 'services', kind: 'Service', namespaced: true, purpose: 'plugin discovery' },
  {
    group: 'discovery.k8s.io',
    version: 'v1',
    resource: 'endpointslices',
    kind: 'EndpointSlice',
    namespaced: true,
    purpose: 'ready endpoints behind plugin Services',
  },
  { group: '', version: 'v1', resource: 'secrets', kind: 'Secret', namespaced: true, purpose: 'the plugin certificates (tls.crt, ca.crt, tls.key only)' },
  { group: '', version: 'v1', resource: 'configmaps', kind: 'ConfigMap', namespaced: true, purpose: "the operator's configuration" },
  { group: '', version: 'v1', resource: 'pods', kind: 'Pod', namespaced: true, purpose: 'instance pods and their sidecars' },
  { group: 'cert-manager.io', version: 'v1', resource: 'certificates', kind: 'Certificate', namespaced: true, purpose: 'the Ready condition' },
  { group: 'cert-manager.io', version: 'v1', resource: 'issuers', kind: 'Issuer', namespaced: true, purpose: 'issuer references' },
  { group: 'cert-manager.io', version: 'v1', resource: 'clusterissuers', kind: 'ClusterIssuer', namespaced: false, purpose: 'issuer references' },
  { group: 'postgresql.cnpg.io', version: 'v1', resource: 'clusters', kind: 'Cluster', namespaced: true, purpose: 'plugins, archiving conditions, phase' },
  { group: 'postgresql.cnpg.io', version: 'v1', resource: 'backups', kind: 'Backup', namespaced: true, purpose: 'failed backups' },
  { group: 'postgresql.cnpg.io', version: 'v1', resource: 'scheduledbackups', kind: 'ScheduledBackup', namespaced: true, purpose: 'plugin references' },
  { group: 'postgresql.cnpg.io', version: 'v1', resource: 'poolers', kind: 'Pooler', namespaced: true, purpose: 'admission rules' },
  { group: 'postgresql.cnpg.io', version: 'v1', resource: 'databases', kind: 'Database', namespaced: true, purpose: 'admission rules' },
  { group: 'barmancloud.cnpg.io', version: 'v1', resource: 'objectstores', kind: 'ObjectStore', namespaced: true, purpose: 'Barman Cloud parameters' },
];

/** The default name of the doctor's ClusterRole. */
export const DOCTOR_CLUSTER_ROLE_NAME = 'cnpg-i-doctor-reader';

/** The ClusterRole granting exactly the LIST calls of the live doctor, one rule per API group. */
export function doctorClusterRole(name: string = DOCTOR_CLUSTER_ROLE_NAME): Json {
  return {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRole',
    // keys in the order cdk8s writes them, so that DoctorReaderRole synthesizes the same YAML
    metadata: { labels: { 'app.kubernetes.io/name': 'cnpg-i-doctor' }, name },
    rules: doctorClusterRoleRules(),
  };
}

/** The rules of {@link doctorClusterRole}: `list` on every kind of {@link LIVE_KINDS}, one rule per API group. */
export function doctorClusterRoleRules(): Array<{ apiGroups: string[]; resources: string[]; verbs: string[] }> {
  const byGroup = new Map<string, string[]>();
  for (const k of LIVE_KINDS) byGroup.set(k.group, [...(byGroup.get(k.group) ?? []), k.resource]);
  return [...byGroup.keys()].sort().map((g) => ({ apiGroups: [g], resources: [...byGroup.get(g)!].sort(), verbs: ['list'] }));
}
