/*
 * CNPGI400: instance pods of a Cluster that lack the sidecar its enabled plugins inject.
 */
import { asString, dig, stringMap } from '../../../manifests/json';
import type { RuleDefinition } from '../../../rules/rule';
import type { DoctorModel } from '../../model/doctor-model';
import {
  POD_SPEC_ANNOTATION,
  RECONCILE_POD_SPEC_ANNOTATION,
  clusters,
  expectedSidecars,
  instancePods,
  names,
  podContainer,
  restartCommand,
  wasRead,
} from './live-state';

/** An instance pod lacks a sidecar its Cluster's plugins inject. */
export const rule: RuleDefinition<DoctorModel> = {
  id: 'CNPGI400',
  name: 'instance-pod-missing-sidecar',
  severities: [{ severity: 'error', when: 'a running instance pod of a Cluster has no container of that name (neither a container nor a native sidecar)' }],
  what: "A Cluster's instance pods lack the sidecar one of its enabled plugins injects (Barman Cloud's `plugin-barman-cloud`, when the plugin entry has `barmanObjectName`; Scale-to-Zero's `scale-to-zero`). Runs on a live cluster only.",
  why: 'Sidecars enter a pod only when the operator creates it: cloudnative-pg v1.30.0 pkg/specs/pods.go NewInstance runs the plugins\' lifecycle hook, and plugin-barman-cloud v0.14.0 internal/cnpgi/operator/lifecycle.go reconcileInstancePod adds `plugin-barman-cloud` when the plugin entry names an ObjectStore (cnpg-i-scale-to-zero v0.1.9 internal/plugin/lifecycle/lifecycle.go reconcileMetadata adds `scale-to-zero` always). Inside the pod the instance manager finds plugins only as sockets (internal/cnpi/plugin/client/create.go innerNewClient lists `PLUGIN_SOCKET_DIR`), so a pod without the sidecar fails archiving with "wal archive plugin is not available" (pkg/management/postgres/archiver/archiver.go ErrMissingWALArchiverPlugin) and backups with "requested plugin is not available" (pkg/management/postgres/webserver/plugin_backup.go invokeStart), while the operator itself logs the plugin as registered. The operator rolls such pods when it compares their stored `cnpg.io/podSpec` with a freshly evaluated one (internal/controller/cluster_upgrade.go checkPodSpecIsOutdated), except with `cnpg.io/reconcilePodSpec: disabled`, for pods without that annotation, or while it cannot reach the plugin.',
  fix: "Roll the instances: `kubectl cnpg restart <cluster> -n <namespace>` (it sets `kubectl.kubernetes.io/restartedAt`, which makes the operator recreate every instance through the plugins' hooks).",
  kinds: ['postgresql.cnpg.io/Cluster', 'Pod'],
  check(model, report) {
    if (!wasRead(model, 'Pod')) return;
    for (const cluster of clusters(model)) {
      const pods = instancePods(model, cluster);
      for (const sidecar of expectedSidecars(cluster)) {
        const lacking = pods.filter((p) => podContainer(p, sidecar.container) === undefined);
        if (lacking.length === 0) continue;
        const annotations = stringMap(dig(cluster.raw, 'metadata', 'annotations'));
        const why =
          annotations[RECONCILE_POD_SPEC_ANNOTATION] === 'disabled'
            ? `the Cluster's annotation ${RECONCILE_POD_SPEC_ANNOTATION}: disabled keeps the operator from comparing pod specs, so it never rolls them for a sidecar`
            : lacking.some((p) => asString(dig(p.raw, 'metadata', 'annotations', POD_SPEC_ANNOTATION)) === undefined)
              ? `${lacking.length === 1 ? 'the pod has' : 'some of them have'} no ${POD_SPEC_ANNOTATION} annotation (made by an older operator), so the operator runs only its legacy checks, which do not look at sidecars`
              : `the operator rolls a pod whose spec lacks an injected sidecar once it reconciles the Cluster with the plugin reachable; if it has not, the plugin was not available to it then (see CNPGI402 and the Cluster's phase)`;
        report(
          'error',
          cluster,
          `instance pod${lacking.length === 1 ? '' : 's'} ${names(lacking)} of this Cluster ${lacking.length === 1 ? 'has' : 'have'} no '${sidecar.container}' container, which ${sidecar.pluginName} injects${sidecar.parameter ? ` (the plugin entry sets ${sidecar.parameter}); in ${lacking.length === 1 ? 'it' : 'them'} WAL archiving fails with "wal archive plugin is not available: ${sidecar.pluginName}" and a backup with "requested plugin is not available: ${sidecar.pluginName}"` : `; the plugin's sidecar does not run there`}; ${why}`,
          `roll the instances: ${restartCommand(cluster)}`,
          'spec.plugins',
        );
      }
    }
  },
};
