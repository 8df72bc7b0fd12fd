import { Size } from 'cdk8s';
import { Cpu, CpuResources } from 'cdk8s-plus-28';
import { ErrorScope, invalid, wrongType } from '../manifests/errors';
import { PropKind, PropSpec, anyValue, checkProps } from './props';
import { RequireAmountOptions, renderQuantity, requireSize } from './render';

/** The cdk8s-plus resource keys and the Kubernetes resource names they stand for. @internal */
export const RESOURCE_NAMES = { cpu: 'cpu', memory: 'memory', ephemeralStorage: 'ephemeral-storage' } as const;

/** A cdk8s-plus resource key. @internal */
export type ResourceKey = keyof typeof RESOURCE_NAMES;

/** Every resource key, in the order they are written. @internal */
export const ALL_RESOURCE_KEYS: readonly ResourceKey[] = ['cpu', 'memory', 'ephemeralStorage'];

/** The keys of one resource; the values are judged as they are rendered. */
const REQUEST_LIMIT_SPEC: PropSpec<CpuResources> = { request: anyValue, limit: anyValue };

/** One resource (`{ request, limit }`), which may be left out. */
const RESOURCE_KIND: PropKind = (scope, prop, value) => void checkProps(scope, prop, value, REQUEST_LIMIT_SPEC, { optional: true });

/** The spec of a resources prop that takes `keys`, made once per list of keys. */
const SPECS = new WeakMap<readonly ResourceKey[], Readonly<Record<string, PropKind>>>();
function resourcesSpec(keys: readonly ResourceKey[]): Readonly<Record<string, PropKind>> {
  let spec = SPECS.get(keys);
  if (spec === undefined) {
    spec = Object.fromEntries(keys.map((k) => [k, RESOURCE_KIND]));
    SPECS.set(keys, spec);
  }
  return spec;
}

/** Requests and limits as Kubernetes quantities. @internal */
export interface ResourceQuantities {
  readonly requests?: Record<string, string>;
  readonly limits?: Record<string, string>;
}

/**
 * The quantity of a cdk8s-plus `Cpu` (`Cpu.millis(500)` -> `500m`), refused unless it is one.
 * Whether the amount is a quantity, and no larger than its limit, is the schema guard's to judge.
 * @internal
 */
export function cpuOf(scope: ErrorScope, prop: string, value: unknown): string {
  if (!(value instanceof Cpu) && (value === null || typeof value !== 'object' || typeof (value as Cpu).amount !== 'string')) {
    invalid(scope, prop, value, wrongType('a cdk8s-plus Cpu', value), 'use Cpu.millis(500) or Cpu.units(1)');
  }
  return (value as Cpu).amount;
}

/**
 * Requests and limits from cdk8s-plus resources (`{ cpu: { request: Cpu.millis(500) }, memory:
 * { limit: Size.gibibytes(1) } }`), the one way the library reads them, for the plugin containers
 * and the Cluster alike: declared keys only (`keys` are those the prop declares), a `Cpu` for cpu
 * and a `Size` of whole bytes for the others, written as quantities (a Cpu's amount, a Size in
 * the largest whole binary unit). A request above its limit is left to the schema guard, which
 * compares the quantities exactly (src/schema/guard.ts apiServerIssues). `undefined` when
 * not given.
 * @internal
 */
export function resourcesOf(
  scope: ErrorScope,
  prop: string,
  value: unknown,
  keys: readonly ResourceKey[] = ALL_RESOURCE_KEYS,
  sizes: RequireAmountOptions = {},
): ResourceQuantities | undefined {
  // The keys of the prop, then those of each resource (`{ request, limit }`), then the amounts.
  const r = checkProps<Record<string, { request?: unknown; limit?: unknown } | undefined>>(scope, prop, value, resourcesSpec(keys), { optional: true });
  if (r === undefined) return undefined;
  const out: { requests?: Record<string, string>; limits?: Record<string, string> } = {};
  for (const key of keys) {
    for (const [which, side] of [
      ['request', 'requests'],
      ['limit', 'limits'],
    ] as const) {
      const v = r[key]?.[which];
      if (v === undefined) continue;
      const at = `${prop}.${key}.${which}`;
      (out[side] ??= {})[RESOURCE_NAMES[key]] =
        key === 'cpu' ? cpuOf(scope, at, v) : renderQuantity(requireSize(scope, at, v as Size, 'Size.mebibytes(128)', sizes));
    }
  }
  return out;
}
