/*
 * CNPGI061: fields the API server drops without an error.
 */
import type { RuleDefinition } from '../../../rules/rule';
import type { DoctorModel } from '../../model/doctor-model';
import { CRD_KINDS, AX, reportSchemaIssues } from './schema-rules';

/** A custom resource has a field its CRD does not declare, or a non-nullable `null`. */
export const rule: RuleDefinition<DoctorModel> = {
  id: 'CNPGI061',
  name: 'crd-pruned-field',
  severities: [{ severity: 'error', when: 'always: the field has no effect' }],
  what: 'A custom resource of a pinned CRD has a field the CRD does not declare (e.g. `isWalArchiver` for `isWALArchiver`, or a misspelt `metadata` field), or a `null` where the schema is not nullable.',
  why: `The API server drops undeclared fields (${AX} pkg/apiserver/schema/pruning/algorithm.go PruneWithOptions) and non-nullable nulls (pkg/apiserver/schema/defaulting/prunenulls.go PruneNonNullableNullsWithoutDefaults) without an error, so \`isWalArchiver: true\` leaves a Cluster without WAL archiving and \`storage: null\` stores no storage.`,
  fix: 'Use the field the CRD declares (the finding names the nearest one), or remove it.',
  kinds: CRD_KINDS,
  check(model, report) {
    reportSchemaIssues(model, 'CNPGI061', report);
  },
};
