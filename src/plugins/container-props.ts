/*
 * Kept, unchanged, only for the ObjectStore of main (src/presets/object-store.ts, owned by the
 * postgres side), which still imports it; the plugin side uses ./internal. Delete this file once
 * no file imports it.
 *
 * Checks of the container props that StandalonePlugin and SidecarPlugin share. cdk8s-plus takes
 * these values as they come: from JavaScript, a number where a Cpu belongs or a string where an
 * EnvValue belongs would end up in the YAML, or fail deep inside cdk8s at synthesis.
 */
import { Size, SizeRoundingBehavior } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { ErrorScope, invalid } from '../common/errors';
import { isLabelKey, isLabelValue, typeName } from '../common/validate';

/**
 * Checks cdk8s-plus `ContainerResources`: Cpu and Size instances, with memory in whole Mi and
 * ephemeral storage in whole Gi (the units cdk8s-plus renders, whose conversion would fail at
 * synthesis otherwise).
 * @internal
 */
export function validateContainerResources(scope: ErrorScope, prop: string, resources: unknown, fix: string): kplus.ContainerResources {
  if (resources === null || typeof resources !== 'object' || Array.isArray(resources)) {
    invalid(scope, prop, resources, `must be an object, not ${typeName(resources)}`, fix);
  }
  const r = resources as Record<string, any>;
  const kinds: Array<[string, (v: unknown) => boolean]> = [
    ['cpu', (v) => v instanceof kplus.Cpu],
    ['memory', (v) => v instanceof Size],
    ['ephemeralStorage', (v) => v instanceof Size],
  ];
  for (const [kind, ok] of kinds) {
    const entry = r[kind];
    if (entry === undefined) continue;
    if (entry === null || typeof entry !== 'object') {
      invalid(scope, `${prop}.${kind}`, entry, `must be an object, not ${typeName(entry)}`, fix);
    }
    for (const side of ['request', 'limit']) {
      const v = entry[side];
      if (v !== undefined && !ok(v)) {
        invalid(scope, `${prop}.${kind}.${side}`, v, `must be a ${kind === 'cpu' ? 'kplus.Cpu' : 'cdk8s Size'}`, fix);
      }
    }
  }
  const units: Array<[string, string, (s: Size) => number]> = [
    ['memory', 'Mi', (v) => v.toMebibytes()],
    ['ephemeralStorage', 'Gi', (v) => v.toGibibytes()],
  ];
  for (const [kind, unit, convert] of units) {
    for (const side of ['request', 'limit']) {
      const v: Size | undefined = r[kind]?.[side];
      if (v === undefined) continue;
      try {
        convert(v);
      } catch {
        invalid(scope, `${prop}.${kind}.${side}`, `${v.toKibibytes({ rounding: SizeRoundingBehavior.NONE })}Ki`, `is not a whole number of ${unit}`,
          `use a whole number, such as Size.${unit === 'Mi' ? 'mebibytes' : 'gibibytes'}(1)`);
      }
    }
  }
  return r as kplus.ContainerResources;
}

/**
 * Whether Kubernetes accepts an environment variable name: printable ASCII without `=` (the
 * relaxed rule, on by default since Kubernetes 1.30; older API servers also refuse names that
 * start with a digit or hold other characters than letters, digits, `_`, `-` and `.`).
 * @internal
 */
export function isEnvName(name: string): boolean {
  return /^[\x20-\x7e]+$/.test(name) && !name.includes('=');
}

/**
 * Checks a map of environment variables given as cdk8s-plus `EnvValue`s.
 * @internal
 */
export function validateEnvValues(scope: ErrorScope, prop: string, value: unknown): Record<string, kplus.EnvValue> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    invalid(scope, prop, value, `must be an object of EnvValues, not ${typeName(value)}`, "pass { LOG_LEVEL: EnvValue.fromValue('info') }");
  }
  const out: Record<string, kplus.EnvValue> = {};
  for (const [name, v] of Object.entries(value as Record<string, unknown>)) {
    if (!isEnvName(name)) {
      invalid(scope, prop, name, 'is not an environment variable name', "use printable ASCII characters without '=', e.g. LOG_LEVEL");
    }
    if (!(v instanceof kplus.EnvValue)) {
      invalid(scope, `${prop}.${name}`, v, `must be a kplus.EnvValue, not ${typeName(v)}`, "use EnvValue.fromValue('...') or EnvValue.fromSecretValue(...)");
    }
    out[name] = v;
  }
  return out;
}

const TOLERATION_OPERATORS = ['Exists', 'Equal'];
const TAINT_EFFECTS = ['NoSchedule', 'PreferNoSchedule', 'NoExecute'];

/**
 * Checks tolerations: the fields the API server checks, with their types.
 * @internal
 */
export function validateTolerations(scope: ErrorScope, prop: string, value: unknown): kplus.k8s.Toleration[] {
  if (!Array.isArray(value)) {
    invalid(scope, prop, value, `must be an array, not ${typeName(value)}`, "pass [{ key: 'dedicated', operator: 'Exists' }]");
  }
  value.forEach((t, i) => {
    const at = `${prop}[${i}]`;
    if (t === null || typeof t !== 'object' || Array.isArray(t)) {
      invalid(scope, at, t, `must be an object, not ${typeName(t)}`, "pass { key: 'dedicated', operator: 'Exists' }");
    }
    const { key, operator, value: v, effect, tolerationSeconds } = t as Record<string, unknown>;
    if (key !== undefined && (typeof key !== 'string' || (key !== '' && !isLabelKey(key)))) {
      invalid(scope, `${at}.key`, key, 'is not a label key', "use the taint's key, e.g. 'dedicated'");
    }
    if (operator !== undefined && (typeof operator !== 'string' || !TOLERATION_OPERATORS.includes(operator))) {
      invalid(scope, `${at}.operator`, operator, 'is not a toleration operator', "use 'Exists' or 'Equal'");
    }
    if (v !== undefined && (typeof v !== 'string' || !isLabelValue(v))) {
      invalid(scope, `${at}.value`, v, 'is not a label value', "use the taint's value as a string");
    }
    if (operator === 'Exists' && v !== undefined && v !== '') {
      invalid(scope, `${at}.value`, v, "is set with operator 'Exists'", "remove value, or use operator 'Equal'");
    }
    if ((key === undefined || key === '') && operator !== 'Exists') {
      invalid(scope, `${at}.operator`, operator, 'must be Exists when key is empty', "set a key, or use operator 'Exists' to tolerate every taint");
    }
    if (effect !== undefined && (typeof effect !== 'string' || !TAINT_EFFECTS.includes(effect))) {
      invalid(scope, `${at}.effect`, effect, 'is not a taint effect', "use 'NoSchedule', 'PreferNoSchedule' or 'NoExecute'");
    }
    if (tolerationSeconds !== undefined && (typeof tolerationSeconds !== 'number' || !Number.isSafeInteger(tolerationSeconds))) {
      invalid(scope, `${at}.tolerationSeconds`, tolerationSeconds, 'is not a whole number of seconds', 'use e.g. 300');
    }
    if (tolerationSeconds !== undefined && effect !== 'NoExecute') {
      invalid(scope, `${at}.tolerationSeconds`, tolerationSeconds, "is only meaningful with effect 'NoExecute'", "set effect: 'NoExecute' or remove tolerationSeconds");
    }
  });
  return value as kplus.k8s.Toleration[];
}
