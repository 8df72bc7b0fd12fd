/*
 * Flux post-build variables left in text: what `${...}` references a string still holds.
 */
import { variableReferences, substitutionDisabled } from './flux-substitution';
import { Json, PathSegments, asObject, dig } from './json';
import type { VariableFinder } from './unrendered';

/**
 * The variables a text still references as Flux's envsubst reads it (`variableReferences`), each
 * once, in order (none in rendered text, in an escaped `$${X}`, or in text Flux refuses to parse).
 */
export function unrenderedVariables(text: string): string[] {
  return [...new Set(variableReferences(text).map((r) => r.name))];
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
  if (substitutionDisabled(object)) return undefined;
  const cluster = object.kind === 'Cluster' && typeof object.apiVersion === 'string' && object.apiVersion.startsWith('postgresql.cnpg.io/');
  return (text, path) => {
    if (SOPS_VALUE.test(text)) return { variables: [], encrypted: true };
    const variables = cluster && isCnpgPlaceholderField(path) ? [] : unrenderedVariables(text);
    return variables.length > 0 ? { variables } : undefined;
  };
}

/**
 * A value SOPS encrypted (`ENC[AES256_GCM,data:...,type:str]`): Flux's kustomize-controller
 * decrypts it before applying (a Kustomization with `spec.decryption.provider: sops`).
 */
const SOPS_VALUE = /^ENC\[[A-Z0-9_]+,data:[^\]]*\]$/;

/**
 * The object as Flux applies a SOPS-encrypted file: without the `sops` metadata, which the
 * decryption removes (its values stay encrypted here, and are unrendered text).
 */
export function withoutSopsMetadata(object: unknown): unknown {
  const o = object !== null && typeof object === 'object' && !Array.isArray(object) ? (object as Json) : undefined;
  if (!o || asObject(o.sops) === undefined || typeof dig(o, 'sops', 'mac') !== 'string') return object;
  const { sops: _sops, ...rest } = o;
  return rest;
}
