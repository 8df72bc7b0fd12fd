/*
 * CNPGI406: a failed Backup whose error is one of the known ones, translated into its cause.
 */
import { asString, dig } from '../../../manifests/json';
import type { RuleDefinition } from '../../../rules/rule';
import type { DoctorModel } from '../../model/doctor-model';
import { restartCommand, wasRead } from './live-state';

/** cloudnative-pg v1.30.0 pkg/management/postgres/webserver/plugin_backup.go invokeStart. */
const NOT_AVAILABLE = /^requested plugin is not available: (.+)$/;

/** A failed Backup with a known error. */
export const rule: RuleDefinition<DoctorModel> = {
  id: 'CNPGI406',
  name: 'backup-failed-known-cause',
  severities: [{ severity: 'error', when: 'the Backup is in phase `failed` with an error whose cause is known' }],
  what: 'A Backup failed with a known error (`requested plugin is not available: NAME`), translated into its cause and fix. Runs on a live cluster only.',
  why: 'A plugin backup runs in the instance manager of the chosen pod, not in the operator: cloudnative-pg v1.30.0 pkg/management/postgres/webserver/plugin_backup.go invokeStart loads the plugins from the pod\'s own sockets (internal/cnpi/plugin/client/create.go innerNewClient, `PLUGIN_SOCKET_DIR`) and fails the Backup with "requested plugin is not available: NAME" when the pod has none of that name (api/v1/backup_funcs.go SetAsFailed writes it to status.error). So the operator logging "Registered plugin" and this error are both true at once: the pod lacks the plugin\'s sidecar (plugin-barman-cloud #196 and #660, often diagnosed as operator discovery or TLS).',
  fix: "Roll the Cluster's instances so that the plugin injects its sidecar (`kubectl cnpg restart <cluster> -n <namespace>`), then create the Backup again (a Backup's spec is immutable).",
  kinds: ['postgresql.cnpg.io/Backup'],
  check(model, report) {
    if (!wasRead(model, 'Backup')) return;
    for (const backup of model.index.ofKind('Backup', 'postgresql.cnpg.io')) {
      if (asString(dig(backup.raw, 'status', 'phase')) !== 'failed') continue;
      const error = asString(dig(backup.raw, 'status', 'error')) ?? '';
      const m = NOT_AVAILABLE.exec(error);
      if (!m) continue;
      const clusterName = asString(dig(backup.raw, 'spec', 'cluster', 'name')) ?? '<cluster>';
      const pod = asString(dig(backup.raw, 'status', 'instanceID', 'podName'));
      const cluster = model.index.get('Cluster', backup.namespace, clusterName, 'postgresql.cnpg.io')[0];
      report(
        'error',
        backup,
        `Backup failed: "${error}": the instance${pod ? ` pod '${pod}'` : ''} that ran it has no socket of ${m[1]}, so its pod lacks the plugin's sidecar; the operator's own registration of the plugin is not the problem`,
        `roll the instances of Cluster '${clusterName}' so that the plugin injects its sidecar: ${cluster ? restartCommand(cluster) : `kubectl cnpg restart ${clusterName} -n ${backup.namespace}`}; then create a new Backup`,
        'status.error',
      );
    }
  },
};
