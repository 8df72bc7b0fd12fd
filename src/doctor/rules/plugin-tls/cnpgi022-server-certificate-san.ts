/*
 * CNPGI022: the server Certificate must cover the name the operator verifies.
 */
import { isIP } from 'node:net';
import { goVerifyHostname } from '../../../checks/tls-precision';
import { dig, asArray, asString } from '../../../manifests/json';
import type { RuleDefinition } from '../../../rules/rule';
import type { DoctorModel } from '../../model/doctor-model';
import { PLUGIN_KEYS } from '../../model/plugin-services';
import { RECONCILE, dnsNames, pluginCertificates } from './tls-wiring';

/** The server Certificate's `dnsNames` miss the name the operator verifies. */
export const rule: RuleDefinition<DoctorModel> = {
  id: 'CNPGI022',
  name: 'server-certificate-san',
  severities: [{ severity: 'error', when: 'always' }],
  what: "The server Certificate's `dnsNames` miss the name the operator verifies (`cnpg.io/pluginServerName`, else the short Service name); the common name does not count.",
  why: `The operator sets \`tls.Config.ServerName\` to that name (${RECONCILE}), and Go verifies DNS SANs only (Go crypto/x509 Certificate.VerifyHostname): the handshake fails with \`x509: certificate is valid for ..., not ...\`.`,
  fix: 'Add the verified name to `spec.dnsNames`.',
  kinds: ['Service', 'cert-manager.io/Certificate'],
  check(model, report) {
    for (const info of model.pluginServices) {
      for (const { role, cert } of pluginCertificates(model, info)) {
        if (role !== 'server') continue;
        const names = dnsNames(cert);
        const ips = asArray(dig(cert.raw, 'spec', 'ipAddresses')).filter((d): d is string => typeof d === 'string');
        // An IP server name is checked against IP SANs, a DNS one against DNS SANs (Go VerifyHostname).
        if (goVerifyHostname(info.verifiedName, names, ips)) continue;
        if (isIP(info.verifiedName) !== 0) {
          report(
            'error',
            cert,
            `the operator verifies the IP address '${info.verifiedName}', and the server Certificate's ipAddresses [${ips.join(', ')}] do not include it; Go compares an IP server name with IP SANs only`,
            `add '${info.verifiedName}' to spec.ipAddresses`,
            'spec.ipAddresses',
          );
          continue;
        }
        const cn = asString(dig(cert.raw, 'spec', 'commonName'));
        const source = info.verifiedName === info.service.name ? `the short Service name of ${info.service.ref}` : `\`${PLUGIN_KEYS.serverName}\``;
        report(
          'error',
          cert,
          `server Certificate's dnsNames [${names.join(', ')}] miss '${info.verifiedName}', the name the operator verifies (${source})${cn === info.verifiedName ? '; the common name does not count: Go checks DNS SANs only' : ''}; the handshake fails with \`x509: certificate is valid for ..., not ${info.verifiedName}\``,
          `add '${info.verifiedName}' to spec.dnsNames`,
          'spec.dnsNames',
        );
      }
    }
  },
};
