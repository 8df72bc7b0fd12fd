/*
 * The plugin side's prop kinds: one declaration per props interface says what each key holds,
 * so that a JavaScript caller gets this library's error (never a TypeError, never wrong YAML)
 * for a value TypeScript would have refused, and an unknown key is refused with the nearest
 * declared one. The shape of the objects written is checked again at synth by the schema guard;
 * what stays here is what no schema sees: the type of a prop before it is rendered, and the
 * cdk8s / cdk8s-plus classes.
 */
import { ApiObject, Size, SizeRoundingBehavior } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import { ErrorScope, invalid } from '../common/errors';
import { refuseUnknownKeys } from '../common/keys';
import { isSize, renderQuantity, requireDuration } from '../common/render';
import { addSchemaGuard } from '../common/schema-guard';
import {
  INT32_MAX,
  imageTagProblem,
  isDnsSubdomain,
  isLabelKey,
  isLabelValue,
  requireString,
  typeName,
  validateInteger,
  validateLabels,
  validateOptionalBoolean,
  validateOptionalEnum,
  validatePluginName,
  validatePort,
  validateImage,
  validateStringArray,
  validateStringMap,
} from '../common/validate';

/**
 * Checks one defined value of a prop; `prop` is the path the user wrote (`securityContext.user`).
 * @internal
 */
export type PropKind = (scope: ErrorScope, prop: string, value: unknown) => unknown;

/**
 * A kind for every key of a props interface, and no other key: the compiler keeps the list in
 * step with the interface, as `declaredKeys` does.
 * @internal
 */
export type PropSpec<T> = { readonly [K in keyof Required<T>]: PropKind };

/** Options of {@link checkProps}. @internal */
export interface CheckPropsOptions<T> {
  /** Accept `undefined` for the whole object (an optional options argument). */
  readonly optional?: boolean;
  /** Keys that must be set. */
  readonly required?: ReadonlyArray<keyof T & string>;
  /** An example of the whole object, for the messages about a missing key or a non-object. */
  readonly example?: string;
  /** Keys of earlier releases and what replaced them, named in the error. */
  readonly renamed?: Readonly<Record<string, string>>;
}

/** Props keys renamed by the cdk8s-plus alignment of issue #13. @internal */
export const RENAMED_PLUGIN_KEYS: Readonly<Record<string, string>> = {
  env: 'envVariables',
  serviceAccountToken: 'automountServiceAccountToken',
  user: 'securityContext.user',
  group: 'securityContext.group',
};

/**
 * Refuses a props object that is not an object or has a key `spec` does not declare, or lacks a
 * required key, then checks every defined value by its kind. `prop` is `props` or `options`
 * for a construct's or a factory's own argument (the keys are then named alone, as the user
 * wrote them), or the path of a nested option.
 * @internal
 */
export function checkProps<T>(scope: ErrorScope, prop: string, value: unknown, spec: PropSpec<T>, options: CheckPropsOptions<T> = {}): void {
  if (value === undefined && options.optional) return;
  const object = value !== null && typeof value === 'object' && !Array.isArray(value);
  const renamed = object
    ? Object.keys(value)
        .sort()
        .find((k) => !(k in spec) && options.renamed?.[k] !== undefined)
    : undefined;
  if ((!object && options.example !== undefined) || renamed !== undefined) {
    invalid(
      scope,
      renamed === undefined ? prop : `${prop}.${renamed}`,
      renamed === undefined ? value : (value as Record<string, unknown>)[renamed],
      renamed === undefined ? `must be an object, not ${typeName(value)}` : `is not a key of ${prop}: it was renamed`,
      renamed === undefined ? `pass e.g. ${options.example}` : `use '${options.renamed![renamed]}' (the cdk8s-plus name)`,
    );
  }
  refuseUnknownKeys(scope, prop, value, Object.keys(spec).sort());
  const given = value as Record<string, unknown>;
  const missing = (options.required ?? []).filter((k) => given[k] === undefined);
  if (missing.length > 0) {
    invalid(
      scope,
      prop,
      Object.keys(given).filter((k) => given[k] !== undefined),
      `lacks the required key${missing.length > 1 ? 's' : ''} ${missing.map((k) => `'${k}'`).join(', ')}`,
      options.example === undefined ? `set ${missing.join(' and ')}` : `pass e.g. ${options.example}`,
    );
  }
  for (const [key, kind] of Object.entries(spec) as Array<[string, PropKind]>) {
    if (given[key] !== undefined) kind(scope, prop === 'props' || prop === 'options' ? key : `${prop}.${key}`, given[key]);
  }
}

/** The kinds of value the plugin props hold. @internal */
export const Kind = {
  /** Anything: checked where it is used (a union-like class, a cross-field rule). */
  any: ((): void => undefined) as PropKind,
  string:
    (fix: string): PropKind =>
    (s, p, v) => {
      requireString(s, p, v, fix);
    },
  strings: validateStringArray as PropKind,
  boolean: validateOptionalBoolean as PropKind,
  integer:
    (min: number, max = INT32_MAX): PropKind =>
    (s, p, v) => {
      validateInteger(s, p, v, min, max);
    },
  port: validatePort as PropKind,
  enumOf:
    (values: Record<string, string>, name: string): PropKind =>
    (s, p, v) => {
      validateOptionalEnum(s, p, v, values, name);
    },
  labels: validateLabels as PropKind,
  /** Labels that select pods: an empty map would select every pod of the namespace. */
  selector:
    (effect: string, fix: string): PropKind =>
    (s, p, v) => {
      if (Object.keys(validateLabels(s, p, v)).length === 0) invalid(s, p, v, `is empty, which would ${effect} every pod in the namespace`, fix);
    },
  stringMap: validateStringMap as PropKind,
  pluginName: validatePluginName as PropKind,
  image:
    (example: string): PropKind =>
    (s, p, v) => {
      checkImage(s, p, v, example);
    },
  /** A DNS subdomain written outside `metadata` (a server name, a PriorityClass), where no guard sees it. */
  dnsName:
    (what: string, example: string): PropKind =>
    (s, p, v) => {
      if (typeof v !== 'string' || !isDnsSubdomain(v)) invalid(s, p, v, `is not ${what} (a lower-case DNS subdomain)`, `use a name such as '${example}'`);
    },
  /** An instance of a class of this library, cdk8s or cdk8s-plus, or a value of its shape. */
  instance:
    (is: (v: unknown) => boolean, what: string, fix: string): PropKind =>
    (s, p, v) => {
      if (!is(v)) invalid(s, p, v, `must be ${what}, not ${typeName(v)}`, fix);
    },
  /** An array of one kind. */
  each:
    (kind: PropKind): PropKind =>
    (s, p, v) => {
      if (!Array.isArray(v)) invalid(s, p, v, `must be an array, not ${typeName(v)}`, 'pass a list, or leave the prop out');
      v.forEach((x, i) => kind(s, `${p}[${i}]`, x));
    },
  /** A nested options object with its own keys. */
  props:
    <T>(spec: PropSpec<T>): PropKind =>
    (s, p, v) =>
      checkProps(s, p, v, spec),
  envVariables: checkEnvVariables as PropKind,
  resources: checkResources as PropKind,
  duration: requireDuration as PropKind,
};

// --- Images ------------------------------------------------------------------------------------

/**
 * The subcommand each known plugin image must be given: their entrypoint is a cobra root
 * command without a `Run`, which prints its help and exits when no subcommand is named
 * (cnpg-i-hello-world main.go main at a6f35d3, the repository has no v0.1.0 tag: `plugin`;
 * plugin-barman-cloud v0.14.0 cmd/manager/main.go
 * main: `operator` for the plugin Deployment). Keyed by the last path component of the
 * repository, so mirrors and the `-testing` builds are known too.
 */
const SUBCOMMANDS: ReadonlyArray<[RegExp, string]> = [
  [/^cnpg-i-hello-world(-testing)?$/, 'plugin'],
  [/^plugin-barman-cloud(-testing)?$/, 'operator'],
];

/** The parts of an image reference: `repository[:tag][@digest]`. @internal */
export function imageParts(image: string): { repository: string; tag?: string; digest?: string } {
  const at = image.indexOf('@');
  const name = at >= 0 ? image.slice(0, at) : image;
  const digest = at >= 0 ? image.slice(at + 1) : undefined;
  const colon = name.lastIndexOf(':');
  const tagged = colon > name.lastIndexOf('/');
  return { repository: tagged ? name.slice(0, colon) : name, tag: tagged ? name.slice(colon + 1) : undefined, digest };
}

/**
 * An image reference pinned to a release: a tag other than `latest`, or a digest. An untagged
 * or `:latest` image changes under the Clusters with no change in Git (and the kubelet pulls it
 * again on every start with imagePullPolicy Always), so it is refused rather than warned about.
 * @internal
 */
export function checkImage(scope: ErrorScope, prop: string, value: unknown, example: string): string {
  const image = validateImage(scope, prop, value, example);
  const problem = imageTagProblem(image);
  if (problem !== undefined) invalid(scope, prop, image, problem, `pin a release tag or a digest, e.g. ${example}`);
  return image;
}

/**
 * Refuses a known plugin image run without the subcommand it needs (the container would print
 * its help and exit, in a restart loop). Unknown images, and a `command` that replaces the
 * entrypoint, are the user's to know.
 * @internal
 */
export function checkSubcommand(scope: ErrorScope, image: string, args: readonly string[], command: readonly string[] | undefined): void {
  if (command !== undefined) return;
  const last = imageParts(image).repository.split('/').pop() ?? '';
  const known = SUBCOMMANDS.find(([re]) => re.test(last));
  if (known !== undefined && !args.includes(known[1])) {
    invalid(
      scope,
      'args',
      [...args],
      `does not name the '${known[1]}' subcommand that image ${image} needs (without it, the plugin prints its help and exits)`,
      `start args with '${known[1]}', e.g. args: ['${known[1]}']`,
    );
  }
}

// --- Containers --------------------------------------------------------------------------------

/**
 * Whether Kubernetes accepts an environment variable name: printable ASCII without `=` (the
 * relaxed rule, on by default since Kubernetes 1.30).
 */
function isEnvName(name: string): boolean {
  return /^[\x20-\x7e]+$/.test(name) && !name.includes('=');
}

/** A map of environment variables as cdk8s-plus `EnvValue`s. @internal */
export function checkEnvVariables(scope: ErrorScope, prop: string, value: unknown): Record<string, kplus.EnvValue> {
  const fix = "use { LOG_LEVEL: EnvValue.fromValue('info') }";
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    invalid(scope, prop, value, `must be an object of kplus.EnvValues, not ${typeName(value)}`, fix);
  }
  for (const [name, v] of Object.entries(value)) {
    if (!isEnvName(name)) invalid(scope, prop, name, "is not an environment variable name (printable ASCII without '=')", fix);
    if (!(v instanceof kplus.EnvValue)) invalid(scope, `${prop}.${name}`, v, `must be a kplus.EnvValue, not ${typeName(v)}`, fix);
  }
  return value as Record<string, kplus.EnvValue>;
}

type ResourceKind = 'cpu' | 'memory' | 'ephemeralStorage';
const RESOURCE_NAMES: Record<ResourceKind, string> = { cpu: 'cpu', memory: 'memory', ephemeralStorage: 'ephemeral-storage' };

/** A cpu amount as cdk8s-plus writes it (`100m`, `1.5`) in millicores. */
function millicores(cpu: kplus.Cpu): number {
  const m = /^([0-9]+(?:\.[0-9]+)?)(m?)$/.exec(cpu.amount);
  return m === null ? NaN : Number(m[1]) * (m[2] === 'm' ? 1 : 1000);
}

const RESOURCE_SPEC: PropSpec<kplus.ContainerResources> = {
  cpu: Kind.any,
  memory: Kind.any,
  ephemeralStorage: Kind.any,
};

/**
 * cdk8s-plus `ContainerResources`: `kplus.Cpu` and cdk8s `Size` values with no other keys, each
 * request no larger than its limit (the API server refuses the pod otherwise: kubernetes
 * pkg/apis/core/validation/validation.go ValidateResourceRequirements).
 * @internal
 */
export function checkResources(scope: ErrorScope, prop: string, value: unknown): kplus.ContainerResources {
  checkProps(scope, prop, value, RESOURCE_SPEC);
  const r = value as Record<ResourceKind, { request?: unknown; limit?: unknown } | undefined>;
  for (const kind of Object.keys(RESOURCE_NAMES) as ResourceKind[]) {
    if (r[kind] === undefined) continue;
    const is =
      kind === 'cpu'
        ? (v: unknown) => v instanceof kplus.Cpu && Number.isFinite(millicores(v))
        : (v: unknown) => isSize(v) && Number.isFinite(v.toKibibytes({ rounding: SizeRoundingBehavior.NONE }));
    checkProps(scope, `${prop}.${kind}`, r[kind], { request: Kind.any, limit: Kind.any });
    const { request, limit } = r[kind]!;
    for (const [side, v] of [
      ['request', request],
      ['limit', limit],
    ] as const) {
      if (v !== undefined && !is(v))
        invalid(
          scope,
          `${prop}.${kind}.${side}`,
          v,
          `must be a ${kind === 'cpu' ? 'kplus.Cpu' : 'cdk8s Size'}`,
          kind === 'cpu' ? 'use kplus.Cpu.millis(100)' : 'use Size.mebibytes(128)',
        );
    }
    const amount = (v: unknown) => (kind === 'cpu' ? millicores(v as kplus.Cpu) : (v as Size).toKibibytes({ rounding: SizeRoundingBehavior.NONE }));
    if (request !== undefined && limit !== undefined && amount(request) > amount(limit)) {
      invalid(
        scope,
        `${prop}.${kind}.request`,
        renderResource(kind, request),
        `is more than the ${RESOURCE_NAMES[kind]} limit ${renderResource(kind, limit)}; the API server refuses a request above its limit`,
        `lower the request to ${renderResource(kind, limit)} or less, or raise the limit`,
      );
    }
  }
  return value as kplus.ContainerResources;
}

/** A resource amount as it is written in the manifest. */
function renderResource(kind: ResourceKind, v: unknown): string {
  return kind === 'cpu' ? (v as kplus.Cpu).amount : renderQuantity(v as Size);
}

/**
 * Container resources as Kubernetes JSON, rendered once for every container the plugin side
 * writes (cpu as cdk8s-plus gives it, sizes through {@link renderQuantity}). `quantity` wraps
 * each value for a generated L1 whose typed `toJson` reads quantities as `{ value }`.
 * @internal
 */
export function resourcesManifest(resources: kplus.ContainerResources, quantity: (q: string) => unknown = (q) => q): Record<string, unknown> | undefined {
  const out: Record<string, Record<string, unknown>> = {};
  for (const side of ['limit', 'request'] as const) {
    const key = side === 'limit' ? 'limits' : 'requests';
    for (const kind of Object.keys(RESOURCE_NAMES) as ResourceKind[]) {
      const v = resources[kind]?.[side];
      if (v !== undefined) (out[key] ??= {})[RESOURCE_NAMES[kind]] = quantity(renderResource(kind, v));
    }
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

/**
 * Tolerations as cdk8s-plus `NodeTaintQuery`s, whose key and value the API server checks as a
 * label key and value (kubernetes pkg/apis/core/validation/validation.go ValidateTolerations).
 * @internal
 */
export const tolerationKind: PropKind = Kind.each((s, p, v) => {
  const t = v instanceof kplus.NodeTaintQuery ? (v as unknown as { _toKube(): kplus.k8s.Toleration })._toKube() : undefined;
  if (t === undefined || (t.key !== undefined && !isLabelKey(t.key)) || (t.value !== undefined && !isLabelValue(t.value))) {
    invalid(
      s,
      p,
      t ?? v,
      t === undefined ? `must be a kplus.NodeTaintQuery, not ${typeName(v)}` : 'has a key or value that is not a label key or value',
      "use NodeTaintQuery.exists('dedicated'), NodeTaintQuery.is('dedicated', 'plugins') or NodeTaintQuery.any()",
    );
  }
});

/**
 * One rule of a construct: when `failed`, the library's error for `prop` and `value`, with the
 * problem and the fix. A construct lists its rules (the operator's, the cross-field ones) as a
 * table, in the order they are reported.
 * @internal
 */
export type Rule = readonly [failed: boolean, prop: string, value: unknown, problem: string, fix: string];

/**
 * Throws the library's error for the first rule of `rules` that failed. The conditions are
 * plain booleans, so each must be safe to compute on checked props.
 * @internal
 */
export function refuseFirst(scope: ErrorScope, rules: ReadonlyArray<Rule | false>): void {
  const failed = rules.find((r): r is Rule => r !== false && r[0]);
  if (failed !== undefined) invalid(scope, failed[1], failed[2], failed[3], failed[4]);
}

const GUARDED = new WeakSet<ApiObject>();

/**
 * The schema guard on an object that several constructs may touch (an operator Deployment loaded
 * from a manifest, then given sidecars): added once, so each problem is reported once.
 * @internal
 */
export function guardOnce(construct: Construct, apiObject: ApiObject): void {
  if (GUARDED.has(apiObject)) return;
  GUARDED.add(apiObject);
  addSchemaGuard(construct, apiObject);
}
