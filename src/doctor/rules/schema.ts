/*
 * CNPGI060-CNPGI064: what the API server refuses or silently drops, from the schema layer
 * (src/schema): the pinned CRDs' OpenAPI schemas and CEL rules for their custom resources, and
 * the built-in metadata and Service port rules for every object. One family, because the
 * schema layer reads each object once and sorts its issues into these rules.
 */
import { describeValue } from '../../manifests/errors';
import type { SchemaIssue } from '../../schema/issue';
import { defineFamily } from './rule';

const CRD_KINDS = [
  'postgresql.cnpg.io/Cluster',
  'postgresql.cnpg.io/Backup',
  'postgresql.cnpg.io/ScheduledBackup',
  'cert-manager.io/Certificate',
  'cert-manager.io/Issuer',
  'cert-manager.io/ClusterIssuer',
  'barmancloud.cnpg.io/ObjectStore',
];
const AX = 'apiextensions-apiserver v0.32.13';
const AM = 'apimachinery v0.32.13';
const PINNED = 'the CRDs pinned in imports/schemas (cloudnative-pg v1.30.0, cert-manager v1.21.1, plugin-barman-cloud v0.14.0)';

type SchemaRuleId = 'CNPGI060' | 'CNPGI061' | 'CNPGI062' | 'CNPGI063' | 'CNPGI064';

/** Which rule an issue of the schema layer belongs to. */
function ruleOf(issue: SchemaIssue): SchemaRuleId | undefined {
  switch (issue.kind) {
    case 'pruned-unknown-field':
    case 'null-dropped':
      return 'CNPGI061';
    case 'cel':
      return 'CNPGI062';
    case 'cel-not-evaluated':
      return undefined; // verbose output only: a skipped check, not a finding
    case 'invalid-port':
      return 'CNPGI064';
    default:
      if (issue.path === 'metadata' || issue.path.startsWith('metadata.') || issue.kind.startsWith('invalid-')) return 'CNPGI063';
      return 'CNPGI060';
  }
}

/** The schema rule family. */
export const schemaRules = defineFamily({
  rules: [
    {
      id: 'CNPGI060',
      name: 'crd-schema',
      severities: [{ severity: 'error', when: 'always' }],
      what: 'A custom resource of a pinned CRD breaks its OpenAPI schema: a wrong type, a value outside an enum, a missing required field, a pattern, bound or format not met, a duplicate in a list-type set or map.',
      why: `The API server validates every custom resource against its CRD's schema on create and refuses the object (${AX} pkg/apiserver/validation/validation.go ValidateCustomResource, pkg/apiserver/schema/listtype/validation.go ValidateListSetsAndMaps), after applying the CRD defaults (pkg/apiserver/schema/defaulting/algorithm.go Default); the schemas are ${PINNED}.`,
      fix: 'Write the value the CRD allows; the finding names the path and what is allowed.',
      kinds: CRD_KINDS,
    },
    {
      id: 'CNPGI061',
      name: 'crd-pruned-field',
      severities: [{ severity: 'error', when: 'always: the field has no effect' }],
      what: 'A custom resource of a pinned CRD has a field the CRD does not declare (e.g. `isWalArchiver` for `isWALArchiver`, or a misspelt `metadata` field), or a `null` where the schema is not nullable.',
      why: `The API server drops undeclared fields (${AX} pkg/apiserver/schema/pruning/algorithm.go PruneWithOptions) and non-nullable nulls (pkg/apiserver/schema/defaulting/prunenulls.go PruneNonNullableNullsWithoutDefaults) without an error, so \`isWalArchiver: true\` leaves a Cluster without WAL archiving and \`storage: null\` stores no storage.`,
      fix: 'Use the field the CRD declares (the finding names the nearest one), or remove it.',
      kinds: CRD_KINDS,
    },
    {
      id: 'CNPGI062',
      name: 'crd-cel-rule',
      severities: [{ severity: 'error', when: 'always' }],
      what: "A custom resource fails one of its CRD's `x-kubernetes-validations` CEL rules, e.g. `initdb.icuLocale` without `localeProvider: icu`, or both `imageName` and `imageCatalogRef`.",
      why: `The API server evaluates the CRD's CEL rules on create and refuses the object when one is false or fails (${AX} pkg/apiserver/schema/cel/validation.go Validator.Validate). Transition rules (\`oldSelf\`) only apply on update and rules calling Kubernetes-only CEL functions are not evaluated here (the schema layer lists them as not evaluated).`,
      fix: 'Change the object so that the rule holds; the finding quotes the rule and its message.',
      kinds: CRD_KINDS,
    },
    {
      id: 'CNPGI063',
      name: 'object-metadata',
      severities: [{ severity: 'error', when: 'always' }],
      what: "An object's `metadata` is refused: a name invalid for its kind (a DNS-1035 label for a Service, a DNS-1123 label for a Namespace, a DNS-1123 subdomain for most kinds), an invalid namespace, label key or value, annotation key or finalizer, a duplicate finalizer, or an owner reference without `uid`.",
      why: `The API server checks every object's metadata (${AM} pkg/api/validation/objectmeta.go ValidateObjectMetaAccessor, pkg/api/validation/generic.go NameIsDNSSubdomain/NameIsDNS1035Label, pkg/apis/meta/v1/validation/validation.go ValidateLabels, pkg/util/validation/validation.go IsQualifiedName/IsValidLabelValue; kubernetes v1.32 pkg/apis/core/validation/validation.go ValidateServiceName).`,
      fix: 'Use a name, label or annotation the API server accepts; the finding names the rule it breaks.',
      kinds: ['*'],
    },
    {
      id: 'CNPGI064',
      name: 'service-port-value',
      severities: [{ severity: 'error', when: 'always' }],
      what: 'A Service port is not a TCP port number, or a string `targetPort` is not a port name (IANA_SVC_NAME), e.g. `"9090"` written as a string.',
      why: `The API server refuses the Service (kubernetes v1.32 pkg/apis/core/validation/validation.go validateServicePort, ${AM} pkg/util/validation/validation.go IsValidPortName/IsValidPortNum); a quoted number is read as a port name, never as a number.`,
      fix: "Write the port as a number from 1 to 65535, or use the container port's name.",
      kinds: ['Service'],
    },
  ],
  check(model, report) {
    // Required here so that loading the doctor does not load the schema layer's dependencies
    // before a check runs (the layer itself loads ajv and the CEL library on first use).
    const { validateObject } = require('../../schema/validate-object') as typeof import('../../schema/validate-object');
    for (const m of model.index.all) {
      for (const found of validateObject(m.raw, { reportNotEvaluated: model.verbose })) {
        if (found.kind === 'cel-not-evaluated') {
          model.notEvaluated.push({ object: m.ref, path: found.path, rule: found.rule ?? '', reason: found.problem });
          continue;
        }
        const [message, fix, path] = parts(found);
        switch (ruleOf(found)) {
          case 'CNPGI060':
            report('CNPGI060', 'error', m, message, fix, path);
            break;
          case 'CNPGI061':
            report('CNPGI061', 'error', m, message, fix, path);
            break;
          case 'CNPGI062':
            report('CNPGI062', 'error', m, message, fix, path);
            break;
          case 'CNPGI063':
            report('CNPGI063', 'error', m, message, fix, path);
            break;
          case 'CNPGI064':
            report('CNPGI064', 'error', m, message, fix, path);
            break;
          default:
            break;
        }
      }
    }
  },
});

/** The finding's message (path, value, problem), fix and path. */
function parts(found: SchemaIssue): [string, string, string | undefined] {
  const value = found.value === undefined ? '' : ` ${describeValue(found.value)}`;
  return [`${found.path}${value} ${found.problem}`, found.fix, found.path === '<root>' ? undefined : found.path];
}
