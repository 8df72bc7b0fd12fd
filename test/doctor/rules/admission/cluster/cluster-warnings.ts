/*
 * What the tests of the Cluster webhook's warning rules (CNPGI350 to CNPGI356) share: the good
 * fixture with its Cluster's spec edited, and one rule's findings on it.
 */
import { analyzeManifests } from '../../../../../src/doctor/check-manifests';
import type { Finding } from '../../../../../src/rules/finding';
import { Doc, doc, fixture, ofRule } from '../../../helpers';

/** The findings of `ruleId` on the good plugin fixture whose Cluster `pg` has its spec edited. */
export function findingsOf(ruleId: string, edit: (spec: Doc) => void): Finding[] {
  const docs = fixture('good-plugin.yaml');
  edit(doc(docs, 'Cluster', 'pg').spec);
  return ofRule(analyzeManifests(docs).findings, ruleId);
}

/** The message, fix and path of each finding, the parts a trip case asserts. */
export function reported(findings: readonly Finding[]): Array<{ severity: string; path?: string; message: string; fix: string }> {
  return findings.map((f) => ({ severity: f.severity, path: f.path, message: f.message, fix: f.fix }));
}
