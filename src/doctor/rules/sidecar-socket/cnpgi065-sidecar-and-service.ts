/*
 * CNPGI065: one plugin name served both by a sidecar socket and by a plugin Service.
 */
import type { RuleDefinition } from '../../../rules/rule';
import type { DoctorModel } from '../../model/doctor-model';
import { PLUGIN_KEYS } from '../../model/plugin-services';

/** What the operator does with the two registrations of one name, in the order it makes them. */
const REGISTRATIONS =
  'The operator registers the sockets of `PLUGIN_SOCKET_DIR` once, before its controllers start (cloudnative-pg v1.30.0 internal/cmd/manager/controller/controller.go RunController, ' +
  'internal/cnpi/plugin/repository/setup.go data.RegisterUnixSocketPluginsInPath, which never replaces a name). The plugin Service is registered afterwards, when the plugin controller ' +
  'reconciles it (internal/controller/plugin_controller.go PluginReconciler.reconcile), through data.RegisterRemotePlugin, which forces the registration: data.setPluginProtocol closes the ' +
  "connection pool already registered under that name, the socket's, and puts the Service's in its place. A reconcile that fails (an unreadable Secret, a `cnpg.io/pluginPort` that " +
  'strconv.Atoi refuses) calls data.ForgetPlugin (PluginReconciler.Reconcile), and so does deleting the Service (PluginReconciler.handleDeletion): the name is then unknown, socket ' +
  'included, since sockets are only listed at startup. A Service whose annotations are empty is skipped before any of this, and the socket stays.';

/** A plugin name is served by a sidecar socket of the operator and by a plugin Service in its namespace. */
export const rule: RuleDefinition<DoctorModel> = {
  id: 'CNPGI065',
  name: 'sidecar-and-service',
  severities: [
    {
      severity: 'error',
      when: "the Service's `cnpg.io/pluginPort` is not an integer: every reconcile fails and forgets the name, the socket's registration with it",
    },
    { severity: 'warning', when: 'otherwise: the Service replaces the socket, and deleting it makes the operator forget the name until it restarts' },
  ],
  what: 'A plugin name is served both by a sidecar plugin of the operator Deployment (its socket) and by a plugin Service in the operator namespace.',
  why: REGISTRATIONS,
  fix: 'Serve each plugin name once: remove the sidecar container, or the Service (or give one of them another plugin name).',
  kinds: ['Deployment', 'Service'],
  check(model, report) {
    // An operator that sets no OPERATOR_NAMESPACE reconciles no plugin Service at all (CNPGI002).
    const blind = model.operatorCandidates.length > 0 && model.operatorCandidates.every((c) => !c.hasNamespaceEnv);
    if (blind) return;
    for (const sidecar of model.sidecars) {
      const name = sidecar.pluginName;
      if (name === undefined) continue;
      for (const info of model.pluginServices) {
        if (!info.inOperatorNamespace || info.pluginName !== name) continue;
        // Only a Service with the three annotations is reconciled (internal/controller/plugin_predicates.go
        // isPluginService), and one with an empty secret name or port is skipped before it registers.
        if (info.clientSecret === undefined || info.serverSecret === undefined || info.portAnnotation === undefined) continue;
        const served = `plugin '${name}' is served both by sidecar container '${sidecar.containerName}'${sidecar.socketPath ? ` (socket ${sidecar.socketPath})` : ''} and by ${info.service.ref}`;
        const fix = `serve '${name}' once: remove sidecar container '${sidecar.containerName}' or ${info.service.ref}, or rename one of them`;
        if (info.parsedPort === undefined) {
          report(
            'error',
            sidecar.deployment,
            `${served}, whose ${PLUGIN_KEYS.port} '${info.portAnnotation}' is not an integer; each reconcile of that Service fails and makes the operator forget '${name}', the socket's registration included, so Clusters using it are refused as using an unknown plugin`,
            fix,
            sidecar.containerPath,
          );
        } else {
          report(
            'warning',
            sidecar.deployment,
            `${served}; the operator registers the socket at startup, then the Service's registration replaces it, so the sidecar is never called, and deleting the Service (or a failed reconcile of it) makes the operator forget '${name}' until it restarts`,
            fix,
            sidecar.containerPath,
          );
        }
      }
    }
  },
};
