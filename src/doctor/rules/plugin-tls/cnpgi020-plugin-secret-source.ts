/*
 * CNPGI020: where the Secrets a plugin Service names come from.
 */
import type { RuleDefinition } from '../../../rules/rule';
import type { DoctorModel } from '../../model/doctor-model';
import { PLUGIN_KEYS } from '../../model/plugin-services';
import { RECONCILE, ROLES, secretOf } from './tls-wiring';

/** A Secret a plugin Service names is neither written by a Certificate in its namespace nor in the input. */
export const rule: RuleDefinition<DoctorModel> = {
  id: 'CNPGI020',
  name: 'plugin-secret-source',
  severities: [
    {
      severity: 'error',
      when: 'the input is said to be complete (`--complete`): nothing else creates the Secret (a Secret that a controller makes from another kind, such as a SealedSecret, is not in the input: disable the rule for it)',
    },
    { severity: 'warning', when: 'otherwise: the Secret may be created outside the input' },
  ],
  what: 'A Secret named by `cnpg.io/pluginClientSecret` / `cnpg.io/pluginServerSecret` is neither written by a Certificate in the namespace nor present in the input.',
  why: `The operator reads both Secrets from the Service's namespace and retries with a \`ClientSecretNotFound\` / \`ServerSecretNotFound\` event until they exist (${RECONCILE}).`,
  fix: 'Add the cert-manager Certificates (`spec.secretName`), or make sure the Secrets are created some other way.',
  kinds: ['Service', 'Secret', 'cert-manager.io/Certificate'],
  check(model, report) {
    for (const info of model.pluginServices) {
      const svc = info.service;
      const ns = svc.namespace;
      for (const role of ROLES) {
        const secretName = secretOf(info, role);
        if (!secretName) continue;
        const annotation = role === 'client' ? PLUGIN_KEYS.clientSecret : PLUGIN_KEYS.serverSecret;
        const certs = model.index.certificatesWriting(ns, secretName);
        const secrets = model.index.get('Secret', ns, secretName, '');
        if (certs.length === 0 && secrets.length === 0) {
          const elsewhere = model.index.certificatesWritingAnywhere(secretName).filter((c) => c.namespace !== ns);
          report(
            model.missingSeverity,
            svc,
            `${role} Secret '${secretName}' is written by no Certificate in '${ns}' and is not in the input${elsewhere.length ? ` (${elsewhere.map((c) => c.ref).join(', ')} writes one in another namespace, which the operator does not read)` : ''}; the operator retries with ${role === 'client' ? 'ClientSecretNotFound' : 'ServerSecretNotFound'} until it exists${model.missingNote}`,
            `add a cert-manager Certificate in '${ns}' with spec.secretName: ${secretName}, or make sure the Secret is created some other way`,
            `metadata.annotations.${annotation}`,
          );
        }
      }
    }
  },
};
