/*
 * CNPGI401: an instance pod's plugin sidecar runs another image than the plugin injects now.
 */
import { asString } from '../../../manifests/json';
import type { RuleDefinition } from '../../../rules/rule';
import type { DoctorModel } from '../../model/doctor-model';
import { clusters, expectedSidecars, injectedImages, instancePods, names, podContainer, restartCommand, wasRead } from './live-state';

/** A pod's injected sidecar image differs from the plugin's current one. */
export const rule: RuleDefinition<DoctorModel> = {
  id: 'CNPGI401',
  name: 'instance-sidecar-image-outdated',
  severities: [{ severity: 'warning', when: "an instance pod's sidecar image differs from the one image the plugin's Deployment injects now" }],
  what: "An instance pod runs a plugin sidecar whose image is not the one the plugin injects now (Barman Cloud: the `SIDECAR_IMAGE` of the plugin's Deployment), typically after a plugin upgrade. Runs on a live cluster only.",
  why: 'plugin-barman-cloud v0.14.0 internal/cnpgi/operator/lifecycle.go reconcilePodSpec gives the sidecar the image of `SIDECAR_IMAGE` (internal/cmd/operator/main.go) each time the hook runs; cloudnative-pg v1.30.0 internal/controller/cluster_upgrade.go checkPodSpecIsOutdated rolls a pod whose stored spec differs from the evaluated one, and since 1.30 the operator re-reconciles the Clusters of a plugin when the EndpointSlices behind its Service change (internal/controller/cluster_plugins.go mapPluginEndpointSlicesToClusters), so no operator restart is needed (the restarts of cloudnative-pg #8755 predate that watch). An old sidecar left running means that roll has not happened: the Cluster disables pod spec reconciliation, its primary waits for a supervised switchover, or the operator has not reconciled it since.',
  fix: 'Roll the instances: `kubectl cnpg restart <cluster> -n <namespace>`; with `primaryUpdateStrategy: supervised`, promote a replica to move the primary.',
  kinds: ['postgresql.cnpg.io/Cluster', 'Pod', 'Deployment'],
  check(model, report) {
    if (!wasRead(model, 'Pod') || !wasRead(model, 'Deployment')) return;
    for (const cluster of clusters(model)) {
      const pods = instancePods(model, cluster);
      for (const sidecar of expectedSidecars(cluster)) {
        const now = injectedImages(model, sidecar);
        const images = [...new Set(now.map((n) => n.image))];
        // two plugin Deployments that disagree: which one answers is not known, so nothing is judged
        if (images.length !== 1) continue;
        const stale = pods.filter((p) => {
          const image = asString(podContainer(p, sidecar.container)?.image);
          return image !== undefined && image !== images[0];
        });
        if (stale.length === 0) continue;
        const running = [...new Set(stale.map((p) => asString(podContainer(p, sidecar.container)?.image)))].map((i) => `'${i}'`).join(', ');
        report(
          'warning',
          cluster,
          `instance pod${stale.length === 1 ? '' : 's'} ${names(stale)} run${stale.length === 1 ? 's' : ''} the '${sidecar.container}' sidecar image ${running}, but ${sidecar.pluginName} now injects '${images[0]}' (${sidecar.imageVariable} of ${now[0].deployment.ref}); the pods keep the old sidecar until they are recreated`,
          `roll the instances: ${restartCommand(cluster)}`,
          'spec.plugins',
        );
      }
    }
  },
};
