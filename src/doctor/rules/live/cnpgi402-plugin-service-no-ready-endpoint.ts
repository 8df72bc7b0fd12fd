/*
 * CNPGI402: a plugin Service the operator uses has no ready endpoint.
 */
import { asArray, asObject, dig, stringMap } from '../../../manifests/json';
import type { RuleDefinition } from '../../../rules/rule';
import type { DoctorModel } from '../../model/doctor-model';
import { wasRead } from './live-state';

/** discovery.k8s.io/v1 LabelServiceName. */
const SERVICE_NAME_LABEL = 'kubernetes.io/service-name';

/** A plugin Service with no ready endpoint behind it. */
export const rule: RuleDefinition<DoctorModel> = {
  id: 'CNPGI402',
  name: 'plugin-service-no-ready-endpoint',
  severities: [{ severity: 'error', when: 'no EndpointSlice of the Service has an endpoint whose `ready` condition is not false' }],
  what: 'A plugin Service in the operator namespace has no ready endpoint in its EndpointSlices: no plugin pod passes its readiness probe, or the selector matches no pod. Runs on a live cluster only.',
  why: 'The operator dials the Service (cloudnative-pg v1.30.0 internal/controller/plugin_controller.go PluginReconciler.reconcile), which routes only to ready endpoints; a Cluster needing the plugin then fails to load it (internal/controller/cluster_controller.go reconcile, the 5-second plugin loading: phase "Cluster cannot proceed to reconciliation due to an unknown plugin being required" or a plugin failure). From 1.30 the operator watches the EndpointSlices of plugin Services and re-reconciles the Clusters of the plugin when they change (internal/controller/cluster_plugins.go mapPluginEndpointSlicesToClusters), so once a pod is ready again the Clusters recover without an operator restart.',
  fix: "Make a plugin pod ready: `kubectl -n <operator namespace> get pods -l <the Service's selector>`, then read its events and logs (a readiness probe failing, a missing Secret, an image that does not pull).",
  kinds: ['Service', 'discovery.k8s.io/EndpointSlice'],
  check(model, report) {
    if (!wasRead(model, 'EndpointSlice')) return;
    const slices = model.index.ofKind('EndpointSlice', 'discovery.k8s.io');
    for (const info of model.pluginServices) {
      if (!info.valid || !info.inOperatorNamespace) continue;
      const svc = info.service;
      const own = slices.filter((s) => s.namespace === svc.namespace && stringMap(dig(s.raw, 'metadata', 'labels'))[SERVICE_NAME_LABEL] === svc.name);
      const endpoints = own.flatMap((s) => asArray(dig(s.raw, 'endpoints')).map((e) => asObject(e) ?? {}));
      // the API's rule: a nil ready condition is to be read as ready
      const ready = endpoints.filter((e) => dig(e, 'conditions', 'ready') !== false);
      if (ready.length > 0) continue;
      const selector = Object.entries(stringMap(dig(svc.raw, 'spec', 'selector')))
        .map(([k, v]) => `${k}=${v}`)
        .join(',');
      report(
        'error',
        svc,
        `plugin '${info.pluginName}' has no ready endpoint: ${own.length === 0 ? 'the Service has no EndpointSlice' : `its EndpointSlices list ${endpoints.length} endpoint${endpoints.length === 1 ? '' : 's'}, none ready`}; the operator's connections to the plugin fail, and every Cluster that needs it stops reconciling until a plugin pod is ready`,
        selector
          ? `make a plugin pod ready: kubectl -n ${svc.namespace} get pods -l ${selector}, then read its events and logs`
          : `give the Service a selector that matches the plugin's pods (kubectl -n ${svc.namespace} get service ${svc.name} -o yaml)`,
        'spec.selector',
      );
    }
  },
};
