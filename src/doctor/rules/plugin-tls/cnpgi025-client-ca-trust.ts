/*
 * CNPGI025: a plugin that trusts the client leaf although a CA issues it.
 */
import { resolveFile } from '../../../manifests/pod-template';
import type { RuleDefinition } from '../../../rules/rule';
import type { DoctorModel } from '../../model/doctor-model';
import { MACHINERY_TLS, tlsContainers } from './tls-wiring';

/** The plugin trusts the client Secret's `tls.crt` although the client certificate is issued by a CA. */
export const rule: RuleDefinition<DoctorModel> = {
  id: 'CNPGI025',
  name: 'client-ca-trust',
  severities: [
    {
      severity: 'error',
      when: "the client certificate is issued by a single-tier CA (its CA certificate self-signed, from the Certificate writing the CA Secret or from that Secret's PEM), an ACME/Vault/Venafi or an external issuer; not for a cert-manager intermediate CA, whose tls.crt carries the intermediate",
    },
    {
      severity: 'warning',
      when: "the issuer, or the CA certificate of a CA issuer (looked up where cert-manager reads it: the Issuer's namespace, or the cluster-resource namespace for a ClusterIssuer), is not in the input",
    },
  ],
  what: "The plugin trusts the client Secret's `tls.crt` (`--client-cert=<mount>/tls.crt`) although the client certificate is issued by a CA (warning when the issuer is unknown).",
  why: `The plugin trusts the \`--client-cert\` file as its client CAs and requires a client certificate (${MACHINERY_TLS}); Go's TLS 1.3 client sends its certificate only if its issuer is among the server's acceptable CAs, so trusting a leaf issued by a single-tier CA makes the operator send none and the handshake fails with \`tls: certificate required\`; under a cert-manager intermediate CA, \`tls.crt\` is leaf + intermediate (cert-manager v1.21.1 pkg/util/pki/parse_certificate_chain.go ParseSingleCertificateChain), the intermediate is advertised, and it works. cert-manager writes the issuing CA (or the certificate itself when self-signed) to \`ca.crt\` (cert-manager v1.21.1 pkg/controller/certificaterequests/ca/ca.go CA.Sign, pkg/controller/certificaterequests/selfsigned/selfsigned.go SelfSigned.Sign).`,
  fix: 'Pass `--client-cert=<mount>/ca.crt`: cert-manager writes the CA there, and the certificate itself for a SelfSigned issuer, so it works for both.',
  kinds: ['Deployment', 'StatefulSet', 'DaemonSet', 'Pod', 'cert-manager.io/Certificate', 'cert-manager.io/Issuer', 'cert-manager.io/ClusterIssuer'],
  check(model, report) {
    for (const info of model.pluginServices) {
      if (!info.clientSecret) continue;
      for (const t of info.templates) {
        for (const { c, clientCert: file, path, where } of tlsContainers(model, t)) {
          if (file === undefined) continue;
          const src = resolveFile(t.spec, c.container, file);
          if (src.type !== 'secret' || src.secretName !== info.clientSecret || src.key !== 'tls.crt') continue;
          const issuance = model.clientIssuance(info.clientSecret, info.service.namespace ?? '');
          if (issuance.kind === 'single-tier-ca' || issuance.kind === 'other-ca') {
            report(
              'error',
              t.owner,
              `${where} trusts the client leaf (--client-cert=${file}, tls.crt of '${info.clientSecret}'), but ${issuance.detail}: Go's client then sends no certificate and the handshake fails with \`tls: certificate required\``,
              `pass --client-cert=${file.replace(/tls\.crt$/, 'ca.crt')} (cert-manager writes the CA there)`,
              path,
            );
          } else if (issuance.kind === 'unknown' || issuance.kind === 'ca-unknown-tier') {
            report(
              'warning',
              t.owner,
              `${where} trusts the client leaf (--client-cert=${file}, tls.crt of '${info.clientSecret}') and ${issuance.detail}: that works only for a self-signed client certificate; a CA-issued one fails with \`tls: certificate required\``,
              `pass --client-cert=${file.replace(/tls\.crt$/, 'ca.crt')}, which works for both`,
              path,
            );
          }
        }
      }
    }
  },
};
