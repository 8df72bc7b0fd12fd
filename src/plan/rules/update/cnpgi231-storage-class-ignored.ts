/*
 * Ignored on update: a Cluster's StorageClass changes, and only PVCs created later get it.
 */
import type { RuleDefinition } from '../../../rules/rule';
import { PlanContext, asString, dig } from '../../plan-model';
import { clusterUpdates } from './cluster-updates';

function storageClassOf(storage: unknown): string | undefined {
  return asString(dig(storage, 'storageClass')) ?? asString(dig(storage, 'pvcTemplate', 'storageClassName'));
}

export const rule: RuleDefinition<PlanContext> = {
  id: 'CNPGI231',
  name: 'storage-class-ignored',
  severities: [{ severity: 'warning', when: 'The StorageClass of `storage` or `walStorage` differs.' }],
  what: "A Cluster's StorageClass changes.",
  why:
    'Existing PVCs are only resized and given a new VolumeAttributesClass (cloudnative-pg v1.30.0 pkg/reconciler/persistentvolumeclaim/existing.go ' +
    'reconcileExistingPVCs); the StorageClass applies to PVCs created later, so instances end up on different classes.',
  fix: 'Revert it, or replace the instances one by one deliberately (or create a new Cluster from a backup).',
  kinds: ['Cluster'],
  check(ctx, report) {
    for (const { next, before, after } of clusterUpdates(ctx)) {
      for (const section of ['storage', 'walStorage']) {
        const b = storageClassOf(before?.[section]);
        const a = storageClassOf(after?.[section]);
        if (after?.[section] === undefined || before?.[section] === undefined || b === a) continue;
        report(
          'warning',
          next,
          `changes from ${b === undefined ? 'the default class' : `'${b}'`} to ${a === undefined ? 'the default class' : `'${a}'`}: existing PVCs keep their class, only new ones get it`,
          `revert it, or move instances deliberately (one at a time, or a new Cluster from a backup)`,
          `spec.${section}.storageClass`,
          { before: b ?? null, after: a ?? null },
        );
      }
    }
  },
};
