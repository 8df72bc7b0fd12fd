/*
 * CNPGI060: the OpenAPI schemas of the pinned CRDs.
 */
import type { RuleDefinition } from '../../../rules/rule';
import type { DoctorModel } from '../../model/doctor-model';
import { CRD_KINDS, AX, PINNED, reportSchemaIssues } from './schema-rules';

/** A custom resource of a pinned CRD breaks its OpenAPI schema. */
export const rule: RuleDefinition<DoctorModel> = {
  id: 'CNPGI060',
  name: 'crd-schema',
  severities: [
    { severity: 'error', when: 'always, but as below' },
    {
      severity: 'warning',
      when: 'a required field is missing from an object read file by file whose kustomization lists a patch that may set it (the patch was not applied)',
    },
  ],
  what: 'A custom resource of a pinned CRD breaks its OpenAPI schema: a wrong type, a value outside an enum, a missing required field, a pattern, bound or format not met, a duplicate in a list-type set or map.',
  why: `The API server validates every custom resource against its CRD's schema on create and refuses the object (${AX} pkg/apiserver/validation/validation.go ValidateCustomResource, pkg/apiserver/schema/listtype/validation.go ValidateListSetsAndMaps), after applying the CRD defaults (pkg/apiserver/schema/defaulting/algorithm.go Default); the schemas are ${PINNED}.`,
  fix: 'Write the value the CRD allows; the finding names the path and what is allowed.',
  kinds: CRD_KINDS,
  check(model, report) {
    reportSchemaIssues(model, 'CNPGI060', report);
  },
};
