/*
 * Refused on update: a Cluster's storage shrinks (PVCs can only grow).
 */
import type { Report, RuleDefinition } from '../../../rules/rule';
import { storageSize } from '../../cluster-facts';
import { PlanContext, PlanObject } from '../../plan-model';
import { WEBHOOK, clusterUpdates, tablespaces } from './cluster-updates';

function checkShrink(report: Report, o: PlanObject, path: string, before: unknown, after: unknown): void {
  const b = storageSize(before);
  const a = storageSize(after);
  if (b === undefined || a === undefined || a.bytes >= b.bytes) return;
  report('error', o, `shrinks from ${b.text} to ${a.text}, which the webhook refuses`, `keep \`${path}: ${b.text}\` (or more)`, path, {
    before: b.text,
    after: a.text,
  });
}

export const rule: RuleDefinition<PlanContext> = {
  id: 'CNPGI210',
  name: 'storage-shrink',
  severities: [{ severity: 'error', when: "The requested size of `storage`, `walStorage` or a tablespace's storage is smaller than before." }],
  what: "A Cluster's storage size (`size`, else the PVC template's `resources.requests.storage`) decreases.",
  why:
    `The webhook refuses to shrink storage (${WEBHOOK} validateStorageChange, validateWalStorageChange and validateTablespacesChange, ` +
    'through validateStorageConfigurationChange); PVCs can only grow.',
  fix: 'Keep the old size; to get smaller volumes, create a new Cluster from a backup.',
  kinds: ['Cluster'],
  check(ctx, report) {
    for (const { next, before, after } of clusterUpdates(ctx)) {
      checkShrink(report, next, 'spec.storage.size', before?.storage, after?.storage);
      // a removed walStorage is CNPGI211
      const walBefore = before?.walStorage;
      const walAfter = after?.walStorage;
      if (walBefore !== undefined && walBefore !== null && walAfter !== undefined && walAfter !== null) {
        checkShrink(report, next, 'spec.walStorage.size', walBefore, walAfter);
      }
      // a removed tablespace is CNPGI212
      const oldSpaces = tablespaces(before);
      if (!oldSpaces) continue;
      const newSpaces = tablespaces(after);
      for (const [name, t] of oldSpaces) {
        const n = newSpaces?.get(name);
        if (n) checkShrink(report, next, `spec.tablespaces[${name}].storage.size`, t.storage, n.storage);
      }
    }
  },
};
