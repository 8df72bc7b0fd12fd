/*
 * CNPGI023: the extended key usages of the plugin's Certificates.
 */
import { CERT_MANAGER_EXTENDED_USAGES } from '../../../checks/certificate';
import { dig, asArray } from '../../../manifests/json';
import type { RuleDefinition } from '../../../rules/rule';
import type { DoctorModel } from '../../model/doctor-model';
import { pluginCertificates } from './tls-wiring';

const EXTENDED_USAGES = new Set(CERT_MANAGER_EXTENDED_USAGES);

/** The server Certificate lacks `server auth`, or the client Certificate `client auth`. */
export const rule: RuleDefinition<DoctorModel> = {
  id: 'CNPGI023',
  name: 'certificate-usages',
  severities: [
    { severity: 'error', when: 'the Certificate lists extended usages without the one its side needs' },
    { severity: 'warning', when: 'it lists no extended usage (Go accepts that for any purpose)' },
  ],
  what: 'The server Certificate lacks `server auth` or the client Certificate lacks `client auth` among extended usages it does list (warning when it lists none).',
  why: 'Go rejects a certificate whose extended key usages exclude the one needed (`incompatible key usage`); with `usages` omitted cert-manager issues `digital signature, key encipherment` and no extended usage (cert-manager v1.21.1 pkg/apis/certmanager/v1/types.go DefaultKeyUsages, pkg/util/pki/csr.go KeyUsagesForCertificateOrCertificateRequest), which Go accepts for any purpose.',
  fix: 'Set `usages: [server auth]` on the server Certificate and `usages: [client auth]` on the client Certificate.',
  kinds: ['cert-manager.io/Certificate'],
  check(model, report) {
    for (const info of model.pluginServices) {
      for (const { role, cert } of pluginCertificates(model, info)) {
        const needed = role === 'server' ? 'server auth' : 'client auth';
        const usages = asArray(dig(cert.raw, 'spec', 'usages'))
          .filter((u): u is string => typeof u === 'string')
          .map((u) => u.toLowerCase());
        const ext = usages.filter((u) => EXTENDED_USAGES.has(u));
        if (ext.includes(needed) || ext.includes('any')) continue;
        if (ext.length === 0) {
          report(
            'warning',
            cert,
            `${role} Certificate ${usages.length === 0 ? 'omits usages, so cert-manager issues `digital signature, key encipherment`' : `lists only key usages (${usages.join(', ')})`} with no extended key usage; Go accepts that for any purpose, so it works, but nothing states it is a ${needed} certificate`,
            `set usages: [${needed}]`,
            'spec.usages',
          );
          continue;
        }
        report(
          'error',
          cert,
          `${role} Certificate has extended usages ${ext.join(', ')} but not '${needed}'; Go rejects it with \`x509: certificate specifies an incompatible key usage\``,
          `add '${needed}' to spec.usages`,
          'spec.usages',
        );
      }
    }
  },
};
