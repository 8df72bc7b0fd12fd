/*
 * CNPGI112: a self-signed client certificate can be trusted only through the client Secret.
 */
import { checkClientTrust } from '../../../checks/client-trust';
import type { Manifest } from '../../../manifests/manifest-index';
import type { RuleDefinition } from '../../../rules/rule';
import type { DoctorModel } from '../../model/doctor-model';
import { PLUGIN_KEYS } from '../../model/plugin-services';
import { labelledPluginServices, podOf, reportIssues, tlsFlags, trustedSecretOf } from './fidelity-inputs';

/** The self-signed client certificate is trusted through another Secret than the client Secret. */
export const rule: RuleDefinition<DoctorModel> = {
  id: 'CNPGI112',
  name: 'client-certificate-trust',
  severities: [{ severity: 'error', when: 'always' }],
  what: 'The client certificate is self-signed and the plugin trusts a Secret other than the client Secret (the single-tier-CA trap is CNPGI025).',
  why: 'cnpg-i-machinery v0.4.2 pkg/pluginhelper/http/server.go Server.setupTLSCerts (ClientCAs from --client-cert); Go crypto/tls sends the client certificate only for an advertised issuer, and a self-signed certificate is its own issuer, renewed with a new key (cert-manager v1.21.1 pkg/controller/certificaterequests/selfsigned/selfsigned.go SelfSigned.Sign).',
  fix: 'Trust the client Secret itself (its tls.crt or ca.crt).',
  kinds: ['Deployment', 'cert-manager.io/Certificate', 'cert-manager.io/Issuer', 'cert-manager.io/ClusterIssuer'],
  check(model, report) {
    // each Deployment once per client Secret it must trust
    const checked = new Map<Manifest, Set<string>>();
    for (const svc of labelledPluginServices(model)) {
      const clientSecret = svc.annotations[PLUGIN_KEYS.clientSecret];
      for (const d of model.pluginBackends(svc).deployments) {
        const seen = checked.get(d) ?? new Set<string>();
        checked.set(d, seen);
        if (seen.has(clientSecret ?? '')) continue;
        seen.add(clientSecret ?? '');
        if (!clientSecret) continue;
        const { podSpec, containers } = podOf(d);
        for (const c of containers) {
          for (const { flag, file } of tlsFlags(c)) {
            if (flag !== '--client-cert') continue;
            const trusted = trustedSecretOf(file, podSpec, c);
            if (trusted) reportIssues(report, d, checkClientTrust(clientSecret, trusted.secret, model.clientIssuance(clientSecret, svc.namespace ?? '')));
          }
        }
      }
    }
  },
};
