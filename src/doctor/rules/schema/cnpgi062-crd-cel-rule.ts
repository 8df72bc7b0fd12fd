/*
 * CNPGI062: the CRDs' CEL validation rules.
 */
import type { RuleDefinition } from '../../../rules/rule';
import type { DoctorModel } from '../../model/doctor-model';
import { CRD_KINDS, AX, reportSchemaIssues } from './schema-rules';

/** A custom resource fails one of its CRD's `x-kubernetes-validations` rules. */
export const rule: RuleDefinition<DoctorModel> = {
  id: 'CNPGI062',
  name: 'crd-cel-rule',
  severities: [{ severity: 'error', when: 'always' }],
  what: "A custom resource fails one of its CRD's `x-kubernetes-validations` CEL rules, e.g. `initdb.icuLocale` without `localeProvider: icu`, or both `imageName` and `imageCatalogRef`.",
  why: `The API server evaluates the CRD's CEL rules on create and refuses the object when one is false or fails (${AX} pkg/apiserver/schema/cel/validation.go Validator.Validate). Transition rules (\`oldSelf\`) only apply on update and rules calling Kubernetes-only CEL functions are not evaluated here (the schema layer lists them as not evaluated).`,
  fix: 'Change the object so that the rule holds; the finding quotes the rule and its message.',
  kinds: CRD_KINDS,
  check(model, report) {
    reportSchemaIssues(model, 'CNPGI062', report);
  },
};
