/*
 * What the schema layer (src/schema) finds in each object of the input: the pinned CRDs'
 * OpenAPI schemas and CEL rules for custom resources, the built-in metadata and Service port
 * rules for every object. Read once per run; the schema family's rules (CNPGI060 to CNPGI064)
 * sort the issues among themselves.
 */
import type { Manifest, ManifestIndex } from '../../manifests/manifest-index';
import type { SchemaIssue } from '../../schema/issue';
import type { NotEvaluatedRule } from '../report';

/** The schema layer's issues of each object, and the CRD rules it could not evaluate. */
export interface SchemaReading {
  /** The issues of each object of the input (not-evaluated rules apart), in the order the layer found them. */
  readonly issues: ReadonlyMap<Manifest, readonly SchemaIssue[]>;
  /** With `verbose`: the CRD rules the objects reach that could not be evaluated here. */
  readonly notEvaluated: NotEvaluatedRule[];
}

/** Runs the schema layer over every object of the input. */
export function readSchemaIssues(model: SchemaContext): SchemaReading {
  // Required here so that loading the doctor does not load the schema layer's dependencies
  // before a check runs (the layer itself loads ajv and the CEL library on first use).
  const { validateObject } = require('../../schema/validate-object') as typeof import('../../schema/validate-object');
  const issues = new Map<Manifest, SchemaIssue[]>();
  const notEvaluated: NotEvaluatedRule[] = [];
  for (const m of model.index.all) {
    const own: SchemaIssue[] = [];
    for (const found of validateObject(m.raw, { reportNotEvaluated: model.verbose })) {
      if (found.kind === 'cel-not-evaluated') notEvaluated.push({ object: m.ref, path: found.path, rule: found.rule ?? '', reason: found.problem });
      else own.push(found);
    }
    if (own.length > 0) issues.set(m, own);
  }
  return { issues, notEvaluated };
}

/** What the schema reader reads of the doctor's model. */
export interface SchemaContext {
  readonly index: ManifestIndex;
  /** Whether the rules note what they could not evaluate. */
  readonly verbose: boolean;
}
