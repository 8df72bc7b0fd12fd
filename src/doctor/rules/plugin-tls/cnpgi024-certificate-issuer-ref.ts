/*
 * CNPGI024: the issuer of the plugin's Certificates (and of their CA's Certificate).
 */
import { dig, asString } from '../../../manifests/json';
import type { Manifest } from '../../../manifests/manifest-index';
import type { RuleDefinition } from '../../../rules/rule';
import { resolveIssuer } from '../../model/cert-manager';
import type { DoctorModel } from '../../model/doctor-model';
import { pluginCertificates } from './tls-wiring';

/** A plugin Certificate's `issuerRef` leads nowhere, or nowhere in the input. */
export const rule: RuleDefinition<DoctorModel> = {
  id: 'CNPGI024',
  name: 'certificate-issuer-ref',
  severities: [
    {
      severity: 'error',
      when: 'the issuerRef is missing, names an Issuer of another namespace, a ClusterIssuer as an Issuer, or an unknown cert-manager kind; or the issuer is not in an input said to be complete (`--complete`)',
    },
    {
      severity: 'warning',
      when: 'the issuer is not in the input, which may be a part of what is installed; or it is an Issuer of another namespace and the Certificate or that Issuer has no namespace, so that one of them is only assumed (`--namespace` makes it an error)',
    },
  ],
  what: "A plugin Certificate's `issuerRef` names an Issuer in another namespace, nothing at all, or nothing in the input (a warning unless the input is complete).",
  why: "An Issuer is namespaced: cert-manager looks it up in the Certificate's namespace only (cert-manager v1.21.1 pkg/issuer/helper.go helperImpl.GetGenericIssuer), and never issues the Secret otherwise.",
  fix: "Create the Issuer in the Certificate's namespace, or reference a ClusterIssuer (`kind: ClusterIssuer`).",
  kinds: ['cert-manager.io/Certificate', 'cert-manager.io/Issuer', 'cert-manager.io/ClusterIssuer'],
  check(model, report) {
    const checked = new Set<Manifest>();
    const checkIssuer = (cert: Manifest): void => {
      if (checked.has(cert)) return;
      checked.add(cert);
      const res = resolveIssuer(model, cert);
      if (res.status === 'invalid') {
        // an Issuer found only in another namespace: an error unless a namespace is only assumed
        const { severity, note } = model.acrossNamespaces('error', [cert, ...(res.comparesNamespaceWith ?? [])]);
        report(severity, cert, `Certificate ${res.message}${note}`, res.fix, 'spec.issuerRef');
      } else if (res.status === 'missing') {
        report(
          model.missingSeverity,
          cert,
          `${res.kind} '${res.name}' is not in the input${res.hint ?? ''}; cert-manager issues nothing until it exists${res.kind === 'Issuer' ? ` in '${cert.namespace}'` : ''}${model.missingNote}`,
          `make sure the ${res.kind} exists${res.kind === 'Issuer' ? ` in '${cert.namespace}'` : ''}, or include it in the checked manifests`,
          'spec.issuerRef',
        );
      }
      // a CA issuer's own certificate must be issuable too
      if (res.status === 'found' && res.type === 'ca' && res.issuer.namespace !== undefined) {
        const caSecret = asString(dig(res.issuer.raw, 'spec', 'ca', 'secretName'));
        for (const caCert of caSecret ? model.index.certificatesWriting(res.issuer.namespace, caSecret) : []) checkIssuer(caCert);
      }
    };
    for (const info of model.pluginServices) {
      for (const { cert } of pluginCertificates(model, info)) checkIssuer(cert);
    }
  },
};
