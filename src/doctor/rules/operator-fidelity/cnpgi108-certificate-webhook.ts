/*
 * CNPGI108: what cert-manager's admission refuses in a Certificate.
 */
import { checkCertificate } from '../../../checks/certificate';
import type { RuleDefinition } from '../../../rules/rule';
import type { DoctorModel } from '../../model/doctor-model';
import { reportIssues } from './fidelity-inputs';

/** A Certificate that cert-manager's webhook refuses. */
export const rule: RuleDefinition<DoctorModel> = {
  id: 'CNPGI108',
  name: 'certificate-webhook',
  severities: [{ severity: 'error', when: 'always' }],
  what: 'cert-manager Certificate admission: identities, usages, key sizes per algorithm, signature algorithm, durations, secretName.',
  why: 'cert-manager v1.21.1 internal/apis/certmanager/validation/certificate.go ValidateCertificateSpec, validateUsages, ValidateDuration.',
  fix: 'Follow the message.',
  kinds: ['cert-manager.io/Certificate'],
  check(model, report) {
    for (const cert of model.index.ofKind('Certificate')) reportIssues(report, cert, checkCertificate(cert.raw));
  },
};
