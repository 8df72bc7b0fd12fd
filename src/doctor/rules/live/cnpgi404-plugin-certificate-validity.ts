/*
 * CNPGI404: the certificate in a plugin Secret, read from the Secret itself: expired, not yet
 * valid, or (the server's) without the DNS name the operator verifies.
 */
import { pemCertificates } from '../../../checks/secret-contents';
import { asString, dig } from '../../../manifests/json';
import type { RuleDefinition } from '../../../rules/rule';
import type { DoctorModel } from '../../model/doctor-model';
import { wasRead } from './live-state';

/** The `tls.crt` of a plugin Secret, decoded; undefined when absent or not PEM (other rules say so). */
function leaf(model: DoctorModel, namespace: string, name: string) {
  const secret = model.index.get('Secret', namespace, name)[0];
  const data = asString(dig(secret?.raw, 'data', 'tls.crt'));
  if (secret === undefined || data === undefined) return undefined;
  const certs = pemCertificates(Buffer.from(data, 'base64').toString('utf8')).certs;
  return certs.length > 0 ? { secret, cert: certs[0] } : undefined;
}

/** A plugin certificate that Go's TLS would refuse now. */
export const rule: RuleDefinition<DoctorModel> = {
  id: 'CNPGI404',
  name: 'plugin-certificate-validity',
  severities: [
    {
      severity: 'error',
      when: "the certificate is expired or not yet valid at the time of the read, or the server's has no DNS SAN equal to the name the operator verifies",
    },
  ],
  what: "The first certificate of a plugin Service's client or server Secret (`tls.crt`), read from the Secret in the cluster rather than from the Certificate object: expired, not yet valid, or, for the server, without the DNS name the operator verifies. Runs on a live cluster only.",
  why: "The operator builds its TLS client from these Secrets (cloudnative-pg v1.30.0 internal/controller/plugin_controller.go PluginReconciler.reconcile: RootCAs from the server Secret's tls.crt, ServerName the `cnpg.io/pluginServerName` annotation or the Service name), and Go verifies the validity period and the DNS SANs only (Go crypto/x509 Certificate.Verify, Certificate.VerifyHostname); the plugin side (cnpg-i-machinery v0.4.2 pkg/pluginhelper/http/server.go) checks the client certificate's validity too. A Certificate object can say one thing while the Secret holds another (a renewal that failed, a Secret replaced by hand).",
  fix: 'Renew the certificate: `cmctl renew <certificate> -n <namespace>` (or delete the Secret so cert-manager issues it again); for a Secret you manage, write a certificate valid now whose DNS SANs include the verified name.',
  kinds: ['Service', 'Secret'],
  check(model, report) {
    if (!wasRead(model, 'Secret')) return;
    const now = model.live!.now.getTime();
    for (const info of model.pluginServices) {
      if (!info.valid || !info.inOperatorNamespace) continue;
      const ns = info.service.namespace ?? model.operatorNamespace;
      for (const role of ['server', 'client'] as const) {
        const name = role === 'server' ? info.serverSecret : info.clientSecret;
        if (!name) continue;
        const found = leaf(model, ns, name);
        if (!found) continue;
        const { secret, cert } = found;
        const from = Date.parse(cert.validFrom);
        const to = Date.parse(cert.validTo);
        const problems: string[] = [];
        if (to < now) problems.push(`expired at ${new Date(to).toISOString()}`);
        if (from > now) problems.push(`is not valid before ${new Date(from).toISOString()}`);
        if (role === 'server') {
          const sans = (cert.subjectAltName ?? '')
            .split(', ')
            .filter((s) => s.startsWith('DNS:'))
            .map((s) => s.slice(4));
          if (cert.checkHost(info.verifiedName, { subject: 'never' }) === undefined) {
            problems.push(
              `has no DNS SAN matching '${info.verifiedName}', the name the operator verifies (DNS SANs: ${sans.length > 0 ? sans.join(', ') : 'none'})`,
            );
          }
        }
        if (problems.length === 0) continue;
        report(
          'error',
          secret,
          `the ${role} certificate of plugin '${info.pluginName}' (tls.crt of this Secret, named by ${info.service.ref}) ${problems.join(', and ')}; the TLS handshake between the operator and the plugin fails`,
          undefined,
          'data.tls.crt',
        );
      }
    }
  },
};
