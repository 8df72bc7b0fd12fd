/*
 * What the admission rules share: each CloudNativePG object of the input admitted once per run
 * (CRD defaults, the defaulting webhook, every check of its validating webhook: src/checks/admission),
 * and the check of a rule that reports the issues of the upstream functions it stands for.
 */
import type { AdmissionContext, AdmissionKind } from '../../../checks/admission/admission-check';
import { Admission, admit } from '../../../checks/admission/index';
import type { Manifest } from '../../../manifests/manifest-index';
import type { RuleDefinition } from '../../../rules/rule';
import { DoctorModel, modelPart } from '../../model/doctor-model';
import { reportIssues } from '../operator-fidelity/fidelity-inputs';

/** The API group of every kind the CloudNativePG webhooks judge. */
const CNPG_GROUP = 'postgresql.cnpg.io';

const ADMITTED = modelPart((model) => {
  const context: AdmissionContext = {};
  const byKind = new Map<AdmissionKind, Array<{ readonly object: Manifest; readonly admission: Admission }>>();
  const admitted = (kind: AdmissionKind) => {
    let list = byKind.get(kind);
    if (list === undefined) {
      list = model.index.ofKind(kind, CNPG_GROUP).map((object) => ({ object, admission: admit(kind, object.raw, context) }));
      byKind.set(kind, list);
    }
    return list;
  };
  return admitted;
});

/** The objects of `kind` with what their admission found, computed once per run. */
export function admitted(model: DoctorModel, kind: AdmissionKind): ReadonlyArray<{ readonly object: Manifest; readonly admission: Admission }> {
  return model.part(ADMITTED)(kind);
}

/** The check of a rule that reports, on every object of `kind`, the issues of the webhook functions `upstream`. */
export function reportAdmission(kind: AdmissionKind, ...upstream: string[]): RuleDefinition<DoctorModel>['check'] {
  return (model, report) => {
    for (const { object, admission } of admitted(model, kind)) for (const u of upstream) reportIssues(report, object, admission.issues.get(u) ?? []);
  };
}
