/*
 * Data loss: a PersistentVolumeClaim written in the manifests disappears; pruning deletes it,
 * and with the usual reclaim policy its volume.
 */
import type { RuleDefinition } from '../../../rules/rule';
import { PlanContext } from '../../plan-model';

export const rule: RuleDefinition<PlanContext> = {
  id: 'CNPGI203',
  name: 'pvc-removed',
  severities: [{ severity: 'error', when: 'A PersistentVolumeClaim of the previous manifests is not in the next ones.' }],
  what: 'A PersistentVolumeClaim written in the manifests disappears or is renamed.',
  why:
    'Pruning deletes the claim (Kubernetes garbage collection, nothing the operator can stop); with the usual `Delete` reclaim policy the volume and its data ' +
    'go with it. A claim that CloudNativePG expects for an instance is created again, empty (cloudnative-pg v1.30.0 pkg/reconciler/persistentvolumeclaim/create.go createIfNotExists).',
  fix: 'Keep the claim under its old name, or annotate it `argocd.argoproj.io/sync-options: Prune=false` / `kustomize.toolkit.fluxcd.io/prune: disabled` before removing it.',
  kinds: ['PersistentVolumeClaim'],
  check(ctx, report) {
    for (const old of ctx.previous.ofKind('PersistentVolumeClaim', '')) {
      if (ctx.next.get(old)) continue;
      report(
        'error',
        old,
        'disappears: with pruning the claim is deleted, and with a Delete reclaim policy its volume and data',
        `keep the claim as \`metadata.name: ${old.name}\`, or stop pruning it before removing it from the manifests`,
        'metadata.name',
        { before: old.name, after: null },
      );
    }
  },
};
