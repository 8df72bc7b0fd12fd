/*
 * CNPGI405: a Cluster whose ContinuousArchiving condition is False.
 */
import { asString, dig } from '../../../manifests/json';
import type { RuleDefinition } from '../../../rules/rule';
import type { DoctorModel } from '../../model/doctor-model';
import { clusters, condition, restartCommand, wasRead } from './live-state';

/** cloudnative-pg v1.30.0 pkg/management/postgres/archiver/archiver.go ErrMissingWALArchiverPlugin.Error. */
const MISSING_ARCHIVER = /^wal archive plugin is not available: (.+)$/;

/** WAL archiving of a Cluster fails. */
export const rule: RuleDefinition<DoctorModel> = {
  id: 'CNPGI405',
  name: 'cluster-archiving-failing',
  severities: [{ severity: 'error', when: "the Cluster's `ContinuousArchiving` condition has status `False`" }],
  what: "A Cluster's status says WAL archiving fails (condition `ContinuousArchiving` is `False`); a known message is translated into its cause. Runs on a live cluster only.",
  why: 'The instance manager of the primary sets the condition from the outcome of each archive command (cloudnative-pg v1.30.0 pkg/management/postgres/webserver/local.go ArchiveStatusRequest.getContinuousArchivingCondition, reason ContinuousArchivingFailing, the error as message). "wal archive plugin is not available: NAME" (pkg/management/postgres/archiver/archiver.go ErrMissingWALArchiverPlugin) means the primary pod has no socket of that plugin: its sidecar is missing, not the operator\'s registration. While archiving fails, WAL piles up in pg_wal, backups cannot complete, and replicas that restore from the archive lag (the missing WAL of plugin-barman-cloud #444).',
  fix: "Missing plugin: roll the instances (`kubectl cnpg restart`); otherwise read the sidecar's log on the primary: `kubectl logs -n <namespace> <primary> -c plugin-barman-cloud`.",
  kinds: ['postgresql.cnpg.io/Cluster'],
  check(model, report) {
    if (!wasRead(model, 'Cluster')) return;
    for (const cluster of clusters(model)) {
      const c = condition(cluster.raw, 'ContinuousArchiving');
      if (c?.status !== 'False') continue;
      const message = asString(c.message) ?? '';
      const primary = asString(dig(cluster.raw, 'status', 'currentPrimary'));
      const missing = MISSING_ARCHIVER.exec(message);
      if (missing) {
        report(
          'error',
          cluster,
          `WAL archiving fails: "${message}": the primary${primary ? ` '${primary}'` : ''} has no socket of ${missing[1]}, so its pod lacks the plugin's sidecar (it predates the plugin entry, or was created while the plugin was unavailable); the operator's own registration of the plugin is not the problem`,
          `roll the instances so that the plugin injects its sidecar: ${restartCommand(cluster)}`,
          'status.conditions',
        );
        continue;
      }
      report(
        'error',
        cluster,
        `WAL archiving fails${message ? `: "${message}"` : ''}; WAL accumulates on the primary${primary ? ` '${primary}'` : ''} and backups cannot complete`,
        `read the archiver's log on the primary: kubectl logs -n ${cluster.namespace} ${primary ?? '<primary pod>'} -c plugin-barman-cloud (the plugin's sidecar), or -c postgres for the in-tree archiver`,
        'status.conditions',
      );
    }
  },
};
