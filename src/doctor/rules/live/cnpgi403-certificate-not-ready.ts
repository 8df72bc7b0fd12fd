/*
 * CNPGI403: a cert-manager Certificate that is not Ready.
 */
import { asObject, asString, dig } from '../../../manifests/json';
import type { RuleDefinition } from '../../../rules/rule';
import type { DoctorModel } from '../../model/doctor-model';
import { condition, wasRead } from './live-state';

/** A Certificate whose Ready condition is not True. */
export const rule: RuleDefinition<DoctorModel> = {
  id: 'CNPGI403',
  name: 'certificate-not-ready',
  severities: [
    { severity: 'error', when: 'the Certificate writes the client or server Secret of a plugin Service the operator uses' },
    { severity: 'warning', when: 'any other Certificate' },
  ],
  what: 'A cert-manager Certificate has no `Ready` condition with status `True`: cert-manager has not issued it, or the issued certificate no longer matches its spec. Runs on a live cluster only.',
  why: 'cert-manager v1.21.1 pkg/apis/certmanager/v1/types_certificate.go CertificateConditionReady is True only while the Secret holds a valid certificate matching the spec (pkg/controller/certificates/readiness/readiness_controller.go ProcessItem). A plugin Secret that was never issued makes the operator report ClientSecretNotFound/InvalidServerCertificate (cloudnative-pg v1.30.0 internal/controller/plugin_controller.go PluginReconciler.reconcile) and never register the plugin; one that is stale fails the TLS handshake when it expires.',
  fix: 'Read why: `kubectl describe certificate <name> -n <namespace>` and its CertificateRequest (an issuer that is not Ready, a denied request, a name the issuer refuses).',
  kinds: ['cert-manager.io/Certificate'],
  check(model, report) {
    if (!wasRead(model, 'Certificate')) return;
    const pluginSecrets = new Set<string>();
    for (const info of model.pluginServices) {
      if (!info.valid || !info.inOperatorNamespace) continue;
      for (const s of [info.clientSecret, info.serverSecret]) if (s) pluginSecrets.add(`${info.service.namespace}/${s}`);
    }
    for (const cert of model.index.ofKind('Certificate', 'cert-manager.io')) {
      const ready = condition(cert.raw, 'Ready');
      if (ready?.status === 'True') continue;
      const secret = asString(dig(cert.raw, 'spec', 'secretName')) ?? '';
      const forPlugin = pluginSecrets.has(`${cert.namespace}/${secret}`);
      const reason = ready
        ? `Ready is ${String(ready.status)}${asString(ready.reason) ? ` (${asString(ready.reason)})` : ''}${asString(ready.message) ? `: ${asString(ready.message)}` : ''}`
        : 'it has no Ready condition yet';
      report(
        forPlugin ? 'error' : 'warning',
        cert,
        `Certificate is not Ready: ${reason}${forPlugin ? `; it writes Secret '${secret}', which a plugin Service names, so the operator cannot ${asObject(ready) ? 'rely on' : 'read'} that plugin's certificate` : ''}`,
        `kubectl describe certificate ${cert.name} -n ${cert.namespace}, then kubectl get certificaterequests -n ${cert.namespace}; fix the issuer or the request it names`,
        'status.conditions',
      );
    }
  },
};
