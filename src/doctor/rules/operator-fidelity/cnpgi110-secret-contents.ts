/*
 * CNPGI110: the contents of a plugin's TLS Secrets, and the files its flags read from them.
 */
import { checkFlagFile, checkTlsSecret } from '../../../checks/secret-contents';
import type { Manifest } from '../../../manifests/manifest-index';
import type { RuleDefinition } from '../../../rules/rule';
import type { DoctorModel } from '../../model/doctor-model';
import { PLUGIN_KEYS } from '../../model/plugin-services';
import { labelledPluginServices, podOf, reportIssues, tlsFlags } from './fidelity-inputs';

/** A plugin TLS Secret without its keys or with PEM that does not parse; a flag's file missing from its Secret. */
export const rule: RuleDefinition<DoctorModel> = {
  id: 'CNPGI110',
  name: 'secret-contents',
  severities: [{ severity: 'error', when: 'always' }],
  what: 'A plugin TLS Secret in the input lacks `tls.crt` (or, for the client Secret, `tls.key`), holds an empty value or PEM that does not parse; or a file a plugin flag names is missing from the Secret mounted there (the fix fits the keys the Secret holds). Secrets with neither `data` nor `stringData` are placeholders and are skipped.',
  why: 'The operator loads the client pair with tls.X509KeyPair(tls.crt, tls.key) and the server root with AppendCertsFromPEM(tls.crt), never ca.crt; anything else is an InvalidClientCertificate / InvalidServerCertificate event and a retry (cloudnative-pg v1.30.0 internal/controller/plugin_controller.go PluginReconciler.reconcile). The plugin reads the files its flags name on every new connection (cnpg-i-machinery v0.4.2 pkg/pluginhelper/http/server.go Server.setupTLSCerts, Server.getConfigForClient); a key missing from a mounted Secret is a missing file. (Merges the retired CNPGI021.)',
  fix: 'Store the PEM certificate and key under tls.crt and tls.key (a kubernetes.io/tls Secret); point flags at keys the Secret holds.',
  kinds: ['Secret', 'Service', 'Deployment'],
  check(model, report) {
    const flagsChecked = new Set<Manifest>();
    for (const svc of labelledPluginServices(model)) {
      const secretNamed = (n: string | undefined): Manifest | undefined => (n === undefined ? undefined : model.lastNamed('Secret', svc.namespace, n));
      const clientSecret = secretNamed(svc.annotations[PLUGIN_KEYS.clientSecret]);
      const serverSecret = secretNamed(svc.annotations[PLUGIN_KEYS.serverSecret]);
      if (clientSecret) reportIssues(report, clientSecret, checkTlsSecret(clientSecret.raw, true));
      if (serverSecret && serverSecret !== clientSecret) reportIssues(report, serverSecret, checkTlsSecret(serverSecret.raw, false));
      for (const d of model.pluginBackends(svc).deployments) {
        if (flagsChecked.has(d)) continue;
        flagsChecked.add(d);
        const { podSpec, containers } = podOf(d);
        for (const c of containers) {
          for (const { flag, file } of tlsFlags(c)) {
            reportIssues(
              report,
              d,
              checkFlagFile(flag, file, podSpec, c, (n) => model.lastNamed('Secret', d.namespace, n)?.raw),
            );
          }
        }
      }
    }
  },
};
