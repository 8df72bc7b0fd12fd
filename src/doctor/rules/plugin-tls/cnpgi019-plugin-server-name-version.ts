/*
 * CNPGI019: `cnpg.io/pluginServerName` on an operator too old to read it.
 */
import { supportsPluginServerName } from '../../../checks/cnpg-version';
import { sanMatches } from '../../../checks/tls-precision';
import type { RuleDefinition } from '../../../rules/rule';
import type { DoctorModel } from '../../model/doctor-model';
import { PLUGIN_KEYS } from '../../model/plugin-services';
import { RECONCILE, dnsNames } from './tls-wiring';

/** `cnpg.io/pluginServerName` is set but the target CNPG version ignores it. */
export const rule: RuleDefinition<DoctorModel> = {
  id: 'CNPGI019',
  name: 'plugin-server-name-version',
  severities: [
    { severity: 'error', when: 'the server Certificate in the input does not cover the short Service name the older operator verifies' },
    { severity: 'warning', when: 'it covers it, or no Certificate in the input writes the server Secret' },
  ],
  what: '`cnpg.io/pluginServerName` is set but the target CNPG version ignores it (needs 1.26.3+, 1.27.2+ or 1.28.0+).',
  why: `From those versions the operator verifies the annotation, else the Service name (${RECONCILE}); older operators verify the short Service name only, so a certificate made only for the annotated name fails with \`x509: certificate is valid for ...\`.`,
  fix: 'Upgrade the operator, or make the server certificate cover the short Service name too.',
  kinds: ['Service', 'cert-manager.io/Certificate'],
  check(model, report) {
    if (supportsPluginServerName(model.version)) return;
    for (const info of model.pluginServices) {
      if (info.serverNameAnnotation === undefined) continue;
      const svc = info.service;
      const certs = info.serverSecret ? model.index.certificatesWriting(svc.namespace, info.serverSecret) : [];
      const coversShort = certs.length > 0 && certs.every((c) => dnsNames(c).some((d) => sanMatches(d, svc.name)));
      report(
        certs.length > 0 && !coversShort ? 'error' : 'warning',
        svc,
        `\`${PLUGIN_KEYS.serverName}\` is ignored by CloudNativePG ${model.versionString} (honoured from 1.26.3, 1.27.2 and 1.28.0): the operator verifies the short Service name '${svc.name}'${certs.length > 0 ? (coversShort ? ', which the server certificate covers' : ', which the server certificate does not cover') : ''}`,
        `upgrade the operator, or add '${svc.name}' to the server Certificate's dnsNames`,
        `metadata.annotations.${PLUGIN_KEYS.serverName}`,
      );
    }
  },
};
