/*
 * Flux post-build variables left in text: what `${...}` references a string still holds.
 */
import { Json, PathSegments, asString, dig } from './json';
import type { VariableFinder } from './unrendered';

/** The annotation that keeps Flux's post-build substitution off an object (kustomize-controller). */
export const SUBSTITUTE_ANNOTATION = 'kustomize.toolkit.fluxcd.io/substitute';

/** A reference `${NAME}` or `${NAME<op>default}`; `$${` is an escape, not a reference. */
const REFERENCE = /\$?\$\{([_a-zA-Z][_a-zA-Z0-9]*)([^}]*)\}/g;

/** The variables a text still references, each once, in order (none in rendered text). */
export function unrenderedVariables(text: string): string[] {
  if (!text.includes('${')) return [];
  const out: string[] = [];
  for (const m of text.matchAll(REFERENCE)) {
    if (m[0].startsWith('$$')) continue;
    if (!out.includes(m[1])) out.push(m[1]);
  }
  return out;
}

/**
 * Whether `path` of a Cluster is a field where `${...}` is CloudNativePG's own placeholder syntax,
 * which the operator expands: a pg_hba line's `${podselector:NAME}` (cloudnative-pg v1.30.0
 * internal/webhook/v1/cluster_webhook.go validatePodSelectorRefs) and an extension's environment
 * value's `${image_root}` (validateExtensions, FindUnknownPlaceholders). Under Flux substitution
 * such text is written `$${...}`, which Flux turns into `${...}`.
 */
function isCnpgPlaceholderField(path: PathSegments): boolean {
  const [spec, postgresql, field, , env, , value] = path;
  if (spec !== 'spec' || postgresql !== 'postgresql') return false;
  if (field === 'pg_hba') return path.length === 4;
  return field === 'extensions' && env === 'env' && value === 'value' && path.length === 7;
}

/**
 * How the doctor finds the variables left in an object: none in a CustomResourceDefinition (its
 * descriptions quote placeholders, and no rule reads it as an object) or in an object whose
 * `kustomize.toolkit.fluxcd.io/substitute: disabled` annotation keeps Flux off it, none in
 * CloudNativePG's own placeholder fields, and every `${NAME}` reference elsewhere.
 */
export function variableFinderFor(object: Json): VariableFinder | undefined {
  if (object.kind === 'CustomResourceDefinition') return undefined;
  if (asString(dig(object, 'metadata', 'annotations', SUBSTITUTE_ANNOTATION)) === 'disabled') return undefined;
  const cluster = object.kind === 'Cluster' && typeof object.apiVersion === 'string' && object.apiVersion.startsWith('postgresql.cnpg.io/');
  return (text, path) => (cluster && isCnpgPlaceholderField(path) ? [] : unrenderedVariables(text));
}
