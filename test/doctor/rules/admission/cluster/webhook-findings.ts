/*
 * What the tests of the Cluster admission rules share: a Cluster manifest that the webhook
 * accepts, to change one field at a time, and the findings of one rule on it.
 */
import { checkManifests } from '../../../../../src/doctor/check-manifests';
import type { Doc } from '../../../helpers';

/** A Cluster the webhook accepts, with `spec` merged over a minimal one and `metadata` over its name. */
export function clusterDoc(spec: Doc = {}, metadata: Doc = {}): Doc {
  return {
    apiVersion: 'postgresql.cnpg.io/v1',
    kind: 'Cluster',
    metadata: { name: 'pg', namespace: 'app', ...metadata },
    spec: { instances: 3, storage: { size: '10Gi' }, ...spec },
  };
}

/** The findings of `ruleId` on `objects`, as `{ path, message, fix }`, in the order reported. */
export function findingsOf(ruleId: string, ...objects: Doc[]): Array<{ path?: string; message: string; fix: string }> {
  return checkManifests(objects)
    .filter((f) => f.ruleId === ruleId)
    .map((f) => ({ path: f.path, message: f.message, fix: f.fix }));
}
