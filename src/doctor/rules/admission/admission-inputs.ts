/*
 * What the admission rules share: each CloudNativePG object of the input admitted once per run
 * (CRD defaults, the defaulting webhook, every check of its validating webhook: src/checks/admission),
 * and the check of a rule that reports the issues of the upstream functions it stands for.
 */
import type { AdmissionContext, AdmissionKind } from '../../../checks/admission/admission-check';
import { Admission, admit } from '../../../checks/admission/index';
import type { CheckIssue } from '../../../checks/issue';
import type { Json } from '../../../manifests/json';
import type { Manifest } from '../../../manifests/manifest-index';
import { recordingReads } from '../../../manifests/unrendered';
import type { RuleDefinition } from '../../../rules/rule';
import { DoctorModel, modelPart } from '../../model/doctor-model';
import { reportIssues } from '../operator-fidelity/fidelity-inputs';

/** The API group of every kind the CloudNativePG webhooks judge. */
const CNPG_GROUP = 'postgresql.cnpg.io';

/**
 * The operator settings admission depends on: those of the operator Deployment when the input
 * has it (with its ConfigMap and Secret, resolved as the operator reads them), else the release's.
 */
function admissionContext(model: DoctorModel): AdmissionContext {
  const config = model.operatorConfig;
  if (config === undefined) return {};
  return {
    defaultImageName: config.postgresImageName,
    monitoringQueriesConfigMap: config.monitoringQueriesConfigMap,
    monitoringQueriesSecret: config.monitoringQueriesSecret,
    includePlugins: config.includePlugins,
  };
}

/** What the doctor keeps of an object's admission: what the checks found, not the defaulted copy. */
export type AdmissionVerdict = Pick<Admission, 'validationDisabled' | 'issues'>;

const ADMITTED = modelPart(
  (model) => {
    const context = admissionContext(model);
    const byKind = new Map<AdmissionKind, Array<{ readonly object: Manifest; readonly admission: AdmissionVerdict }>>();
    const admitted = (kind: AdmissionKind) => {
      let list = byKind.get(kind);
      if (list === undefined) {
        // Only the verdict is kept: the defaulted copies (a few kB each) would stay alive for the
        // whole run and make every collection of a large input slower.
        list = model.index.ofKind(kind, CNPG_GROUP).map((object) => {
          // admit withholds for itself; what defaulting read is not the asking rule's reading
          const { validationDisabled, issues } = recordingReads(() => admit(kind, object.raw, context)).result;
          return { object, admission: { validationDisabled, issues } };
        });
        byKind.set(kind, list);
      }
      return list;
    };
    return admitted;
    // admit withholds what read unrendered text, one upstream function at a time
  },
  { withholdsUnrendered: true },
);

/** The objects of `kind` with what their admission found, computed once per run. */
export function admitted(model: DoctorModel, kind: AdmissionKind): ReadonlyArray<{ readonly object: Manifest; readonly admission: AdmissionVerdict }> {
  return model.part(ADMITTED)(kind);
}

/** The admission a rule's check reports: the kinds and the upstream functions it stands for. */
export interface ReportedAdmission {
  readonly kinds: readonly AdmissionKind[];
  readonly upstream: readonly string[];
}

const REPORTED = new WeakMap<object, ReportedAdmission>();

/** What the check of an admission rule reports (made by {@link reportAdmission} or {@link reportOnObjects}); undefined for other checks. */
export function reportedAdmission(check: RuleDefinition<DoctorModel>['check']): ReportedAdmission | undefined {
  return REPORTED.get(check);
}

/**
 * The check of a rule that reports, on every object of the `kinds`, the issues `check` finds on it
 * as written; `upstream` names the upstream function it stands for.
 */
export function reportOnObjects(
  upstream: string,
  kinds: readonly AdmissionKind[],
  check: (kind: AdmissionKind, object: Json) => readonly CheckIssue[],
): RuleDefinition<DoctorModel>['check'] {
  const run: RuleDefinition<DoctorModel>['check'] = (model, report) => {
    for (const kind of kinds) for (const object of model.index.ofKind(kind, CNPG_GROUP)) reportIssues(report, object, check(kind, object.raw));
  };
  REPORTED.set(run, { kinds, upstream: [upstream] });
  return run;
}

/** The check of a rule that reports, on every object of `kind`, the issues of the webhook functions `upstream`. */
export function reportAdmission(kind: AdmissionKind, ...upstream: string[]): RuleDefinition<DoctorModel>['check'] {
  const run: RuleDefinition<DoctorModel>['check'] = (model, report) => {
    for (const { object, admission } of admitted(model, kind)) for (const u of upstream) reportIssues(report, object, admission.issues.get(u) ?? []);
  };
  REPORTED.set(run, { kinds: [kind], upstream });
  return run;
}
