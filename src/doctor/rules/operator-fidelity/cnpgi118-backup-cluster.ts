/*
 * CNPGI118: the Cluster a Backup or ScheduledBackup names, which the operator looks up by name in
 * the backup's own namespace.
 */
import { asString, dig } from '../../../manifests/json';
import { nearestName } from '../../../manifests/nearest-name';
import type { RuleDefinition } from '../../../rules/rule';
import type { DoctorModel } from '../../model/doctor-model';

const CNPG_GROUP = 'postgresql.cnpg.io';

/** A Backup or ScheduledBackup whose Cluster is not in the input, in its namespace. */
export const rule: RuleDefinition<DoctorModel> = {
  id: 'CNPGI118',
  name: 'backup-cluster',
  severities: [
    { severity: 'error', when: 'the input is said to be complete (`--complete`): no Cluster of that name will exist in the namespace' },
    {
      severity: 'warning',
      when: 'otherwise: the Cluster may be installed from outside the input; also with `--complete` when a Cluster of that name is in another namespace and the backup or that Cluster has no namespace, so that one of them is only assumed (`--namespace` makes it an error)',
    },
  ],
  what: "A Backup or ScheduledBackup whose `spec.cluster.name` names no Cluster of the input in the backup's namespace; the message names the nearest Cluster name of that namespace (a likely misspelling) and a Cluster of that name in another namespace.",
  why: 'The operator reads the Cluster by name in the namespace of the Backup only. cloudnative-pg v1.30.0 internal/controller/backup_controller.go BackupReconciler.getCluster: when the Cluster is not found it records a `FindingCluster` warning event ("Unknown cluster ..., will retry in 30 seconds"), sets the Backup to phase `pending` and retries every 30 seconds, for as long as the Cluster is missing; no backup is taken. internal/controller/scheduledbackup_controller.go createBackup creates a Backup at every scheduled time without reading the Cluster (each then stays pending), except with `backupOwnerReference: cluster`, where it reads the Cluster to own the Backup and fails to create any; for an immediate volume-snapshot backup, reconcileScheduledBackup records an `InvalidCluster` event and retries every 5 seconds.',
  fix: "Name a Cluster of the backup's namespace in spec.cluster.name, or add that Cluster to the input.",
  kinds: ['postgresql.cnpg.io/Backup', 'postgresql.cnpg.io/ScheduledBackup', 'postgresql.cnpg.io/Cluster'],
  check(model, report) {
    for (const kind of ['Backup', 'ScheduledBackup'] as const) {
      for (const b of model.index.ofKind(kind, CNPG_GROUP)) {
        const name = asString(dig(b.raw, 'spec', 'cluster', 'name'));
        // a missing or empty name is the schema's (CNPGI060); a name that holds a variable is
        // withheld by the engine (CNPGI092), and a Cluster whose name holds one may be this one
        if (!name || model.hasUnrenderedNames('Cluster', CNPG_GROUP)) continue;
        const ns = b.namespace;
        if (model.index.get('Cluster', ns, name, CNPG_GROUP).length > 0) continue;
        const here = model.index
          .ofKind('Cluster', CNPG_GROUP)
          .filter((c) => c.namespace === ns)
          .map((c) => c.name);
        const nearest = nearestName(name, [...new Set(here)].sort());
        const others = model.index.named('Cluster', name).filter((c) => c.group === CNPG_GROUP && c.namespace !== ns);
        const elsewhere = [...new Set(others.map((c) => c.namespace ?? ''))].sort();
        // a Cluster of that name in another namespace: the verdict compares namespaces, and an
        // error resting on an assumed one is a warning
        const { severity, note } = others.length
          ? model.acrossNamespaces(model.missingSeverity, [b, ...others])
          : { severity: model.missingSeverity, note: '' };
        const hints = [
          nearest === undefined ? undefined : `did you mean '${nearest}'?`,
          elsewhere.length === 0
            ? undefined
            : `a Cluster '${name}' is in namespace ${elsewhere.map((n) => `'${n}'`).join(', ')}, where the operator does not look: a backup names a Cluster of its own namespace`,
        ].filter((h): h is string => h !== undefined);
        const outcome =
          kind === 'Backup'
            ? `the operator keeps the Backup pending and retries every 30 seconds (event FindingCluster "Unknown cluster ${name}"); no backup is taken until it exists`
            : dig(b.raw, 'spec', 'backupOwnerReference') === 'cluster'
              ? 'with backupOwnerReference: cluster the operator reads the Cluster to own each Backup, fails and creates none until it exists'
              : 'the operator still creates a Backup at every scheduled time, and each stays pending (event FindingCluster) until it exists';
        report(
          severity,
          b,
          `Cluster '${name}' is not in the input in namespace '${ns}'${hints.length ? ` (${hints.join('; ')})` : ''}; ${outcome}${model.missingNote}${note}`,
          nearest !== undefined
            ? `write spec.cluster.name: ${nearest}`
            : `name a Cluster of namespace '${ns}' in spec.cluster.name, or add Cluster '${name}' to the input${elsewhere.length ? ` in '${ns}' (or move the ${kind} to the Cluster's namespace)` : ''}`,
          'spec.cluster.name',
        );
      }
    }
  },
};
