/*
 * What the tests of the Cluster admission rules share: the good fixture's Cluster changed by a
 * test, and the findings of one rule on it.
 */
import { checkManifests } from '../../../../src/doctor/check-manifests';
import { Doc, doc, fixture, ofRule } from '../../helpers';

/** A finding as the tests compare it. */
export interface Seen {
  readonly severity: string;
  readonly message: string;
  readonly fix: string;
  readonly path?: string;
}

/** The findings of `ruleId` on the good fixture whose Cluster `pg` (namespace app) `mutate` changed. */
export function clusterFindings(ruleId: string, mutate: (cluster: Doc) => void): Seen[] {
  const docs = fixture('good-plugin.yaml');
  mutate(doc(docs, 'Cluster', 'pg'));
  return ofRule(checkManifests(docs), ruleId).map((f) => ({ severity: f.severity, message: f.message, fix: f.fix, path: f.path }));
}

/** Sets `key` in the annotations of the Cluster. */
export function annotate(cluster: Doc, key: string, value: unknown): void {
  cluster.metadata.annotations = { ...(cluster.metadata.annotations ?? {}), [key]: value };
}
