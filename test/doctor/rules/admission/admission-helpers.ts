/*
 * What the tests of the admission rules share: a Cluster that the webhook accepts, changed by
 * the test, and the findings of one rule on it.
 */
import { analyzeManifests } from '../../../../src/doctor/check-manifests';
import type { Finding } from '../../../../src/rules/finding';
import type { Doc } from '../../helpers';

/** A Cluster the Cluster webhook accepts: three instances with a 1Gi volume, changed by `spec` and `metadata`. */
export function cluster(spec: Doc = {}, metadata: Doc = {}): Doc {
  return {
    apiVersion: 'postgresql.cnpg.io/v1',
    kind: 'Cluster',
    metadata: { name: 'pg', namespace: 'app', ...metadata },
    spec: { instances: 3, storage: { size: '1Gi' }, ...spec },
  };
}

/** The findings of rule `ruleId` on `docs`, as `{ severity, path, message, fix }`. */
export function findingsOf(ruleId: string, ...docs: Doc[]): Array<Pick<Finding, 'severity' | 'path' | 'message' | 'fix'>> {
  return analyzeManifests(docs)
    .findings.filter((f) => f.ruleId === ruleId)
    .map(({ severity, path, message, fix }) => ({ severity, path, message, fix }));
}
