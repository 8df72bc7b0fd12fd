/*
 * The ClusterRole `cnpg-i-doctor cluster` needs: list on every kind it reads, nothing else (no
 * get on single objects, no watch, no write). Derived from LIVE_KINDS so that the two never
 * differ.
 */
import type { Json } from '../manifests/json';
import { LIVE_KINDS } from './read-cluster';

/** The default name of the doctor's ClusterRole. */
export const DOCTOR_CLUSTER_ROLE_NAME = 'cnpg-i-doctor-reader';

/** The ClusterRole granting exactly the LIST calls of the live doctor, one rule per API group. */
export function doctorClusterRole(name: string = DOCTOR_CLUSTER_ROLE_NAME): Json {
  const byGroup = new Map<string, string[]>();
  for (const k of LIVE_KINDS) byGroup.set(k.group, [...(byGroup.get(k.group) ?? []), k.resource]);
  const groups = [...byGroup.keys()].sort();
  return {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRole',
    metadata: { name, labels: { 'app.kubernetes.io/name': 'cnpg-i-doctor' } },
    rules: groups.map((g) => ({ apiGroups: [g], resources: [...byGroup.get(g)!].sort(), verbs: ['list'] })),
  };
}
