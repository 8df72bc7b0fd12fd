/*
 * CNPGI063: every object's metadata.
 */
import type { RuleDefinition } from '../../../rules/rule';
import type { DoctorModel } from '../../model/doctor-model';
import { AM, reportSchemaIssues } from './schema-rules';

/** An object's `metadata` is refused by the API server. */
export const rule: RuleDefinition<DoctorModel> = {
  id: 'CNPGI063',
  name: 'object-metadata',
  severities: [{ severity: 'error', when: 'always' }],
  what: "An object's `metadata` is refused: a name invalid for its kind (a DNS-1035 label for a Service, a DNS-1123 label for a Namespace, a DNS-1123 subdomain for most kinds), an invalid namespace, label key or value, annotation key or finalizer, a duplicate finalizer, or an owner reference without `uid`.",
  why: `The API server checks every object's metadata (${AM} pkg/api/validation/objectmeta.go ValidateObjectMetaAccessor, pkg/api/validation/generic.go NameIsDNSSubdomain/NameIsDNS1035Label, pkg/apis/meta/v1/validation/validation.go ValidateLabels, pkg/util/validation/validation.go IsQualifiedName/IsValidLabelValue; kubernetes v1.32 pkg/apis/core/validation/validation.go ValidateServiceName). A label value that is not a string does not reach that check under Flux: kustomize-controller v1.9.4 reads labels with apimachinery v0.36.2 Unstructured.GetLabels, which gives none when one value is not a string, and fluxcd/pkg ssa v0.76.1 ResourceManager.SetOwnerLabels then applies the object with Flux's two owner labels alone.`,
  fix: 'Use a name, label or annotation the API server accepts; the finding names the rule it breaks.',
  kinds: ['*'],
  check(model, report) {
    reportSchemaIssues(model, 'CNPGI063', report);
  },
};
