/*
 * Refused on update: a Cluster's storage shrinks (PVCs can only grow).
 */
import type { RuleDefinition } from '../../../rules/rule';
import { PlanContext } from '../../plan-model';
import { WEBHOOK, changeIssues, clusterUpdates } from './cluster-updates';

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
    for (const update of clusterUpdates(ctx)) {
      for (const i of changeIssues(update, 'validateStorageChange', 'validateWalStorageChange', 'validateTablespacesChange')) {
        // a removed walStorage is CNPGI211, a removed tablespace CNPGI212
        if (i.after === null) continue;
        // the plan names the section's `size`, which wins over a PVC template's request (the fix writes it there)
        const path = i.path.replace(/\.pvcTemplate\.resources\.requests\.storage$/, '.size');
        report('error', update.next, `shrinks from ${i.before} to ${i.after}, which the webhook refuses`, `keep \`${path}: ${i.before}\` (or more)`, path, {
          before: i.before,
          after: i.after,
        });
      }
    }
  },
};
