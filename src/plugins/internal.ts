/*
 * The plugin side's prop kinds: one declaration per props interface says what each key holds,
 * so that a JavaScript caller gets this library's error (never a TypeError, never wrong YAML)
 * for a value TypeScript would have refused, and an unknown key is refused with the nearest
 * declared one. The shape of the objects written is checked again at synth by the schema guard;
 * what stays here is what no schema sees: the type of a prop before it is rendered, and the
 * cdk8s / cdk8s-plus classes.
 */
import { ApiObject } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import { refuseUnknownKeys } from '../common/keys';
import { requireDuration } from '../common/render';
import { ALL_RESOURCE_KEYS, resourcesOf } from '../common/resources';
import {
  INT32_MAX,
  imageTagProblem,
  validateInteger,
  validateLabels,
  validateOptionalBoolean,
  validateOptionalEnum,
  validatePluginName,
  validateImage,
  validateStringArray,
  validateStringMap,
} from '../common/validate';
import { ErrorScope, Problem, invalid, refuseProblem, wrongType } from '../manifests/errors';
import { isLabelValue, isLabelKey, isDnsSubdomain } from '../manifests/k8s-names';
import { knownPluginImage } from '../manifests/known-plugins';
import { addSchemaGuard } from '../schema/guard';

/**
 * Judges one defined value of a prop; `prop` is the path the user wrote (`securityContext.user`).
 * A kind returns the {@link Problem} of a value it refuses and `undefined` for one it accepts;
 * a kind built on one of the library's validators of `src/common` ({@link throwing}) lets that
 * validator throw.
 * @internal
 */
export type PropKind = (scope: ErrorScope, prop: string, value: unknown) => Problem | undefined;

/** A kind made of a validator of `src/common`, which throws the library's error itself. */
function throwing(validate: (scope: ErrorScope, prop: string, value: unknown) => unknown): PropKind {
  return (s, p, v) => {
    validate(s, p, v);
    return undefined;
  };
}

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
      renamed === undefined ? wrongType('an object', value) : `is not a key of ${prop}: it was renamed`,
      renamed === undefined ? `pass e.g. ${options.example}` : `use '${options.renamed![renamed]}' (the cdk8s-plus name)`,
    );
  }
  refuseUnknownKeys(scope, prop, value, sortedKeys(spec), { required: options.required });
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
    if (given[key] !== undefined) checkValue(scope, prop === 'props' || prop === 'options' ? key : `${prop}.${key}`, given[key], kind);
  }
}

const SORTED_KEYS = new WeakMap<object, readonly string[]>();

/** The keys of a spec in sorted order, computed once per spec. */
function sortedKeys(spec: object): readonly string[] {
  let keys = SORTED_KEYS.get(spec);
  if (keys === undefined) {
    keys = Object.keys(spec).sort();
    SORTED_KEYS.set(spec, keys);
  }
  return keys;
}

/**
 * Runs one kind on a value and throws the library's error for the {@link Problem} it returns:
 * the one place the kinds' problems become errors.
 * @internal
 */
export function checkValue(scope: ErrorScope, prop: string, value: unknown, kind: PropKind): void {
  refuseProblem(scope, kind(scope, prop, value));
}

/** A kind that refuses, with `problem` and `fix`, every value for which `accepts` is false. */
function test(accepts: (v: unknown) => boolean, problem: string | ((v: unknown) => string), fix: string): PropKind {
  return (_s, p, v) => (accepts(v) ? undefined : { prop: p, value: v, problem: typeof problem === 'string' ? problem : problem(v), fix });
}

/** The kinds of value the plugin props hold. @internal */
export const Kind = {
  /** Anything: checked where it is used (a union-like class, a cross-field rule). */
  any: (): undefined => undefined,
  /** A non-empty string. */
  string: (fix: string): PropKind =>
    test(
      (v) => typeof v === 'string' && v.trim() !== '',
      (v) => (typeof v === 'string' ? 'must not be empty' : wrongType('a string', v)),
      fix,
    ),
  strings: throwing(validateStringArray),
  boolean: throwing(validateOptionalBoolean),
  integer: (min: number, max = INT32_MAX): PropKind => throwing((s, p, v) => validateInteger(s, p, v, min, max)),
  enumOf: (values: Record<string, string>, name: string): PropKind => throwing((s, p, v) => validateOptionalEnum(s, p, v, values, name)),
  labels: throwing(validateLabels),
  /** Labels that select pods: an empty map would select every pod of the namespace. */
  selector:
    (effect: string, fix: string): PropKind =>
    (s, p, v) =>
      Object.keys(validateLabels(s, p, v)).length === 0
        ? { prop: p, value: v, problem: `is empty, which would ${effect} every pod in the namespace`, fix }
        : undefined,
  stringMap: throwing(validateStringMap),
  pluginName: throwing(validatePluginName),
  /**
   * An image reference pinned to a release: a tag other than `latest`, or a digest. An untagged
   * or `:latest` image changes under the Clusters with no change in Git (and the kubelet pulls it
   * again on every start with imagePullPolicy Always), so it is refused rather than warned about.
   */
  image:
    (example: string): PropKind =>
    (s, p, v) => {
      const problem = imageTagProblem(validateImage(s, p, v, example));
      return problem === undefined ? undefined : { prop: p, value: v, problem, fix: `pin a release tag or a digest, e.g. ${example}` };
    },
  /** A DNS subdomain written outside `metadata` (a server name, a PriorityClass), where no guard sees it. */
  dnsName: (what: string, example: string): PropKind =>
    test((v) => typeof v === 'string' && isDnsSubdomain(v), `is not ${what} (a lower-case DNS subdomain)`, `use a name such as '${example}'`),
  /** Any other plain test of the value (`problem` says what the value is not). */
  test,
  /** An instance of a class of this library, cdk8s or cdk8s-plus, or a value of its shape. */
  instance: (is: (v: unknown) => boolean, what: string, fix: string): PropKind => test(is, (v) => wrongType(what, v), fix),
  /** An array of one kind. */
  each:
    (kind: PropKind): PropKind =>
    (s, p, v) =>
      Array.isArray(v)
        ? void v.forEach((x, i) => checkValue(s, `${p}[${i}]`, x, kind))
        : { prop: p, value: v, problem: wrongType('an array', v), fix: 'pass a list, or leave the prop out' },
  /** A nested options object with its own keys. */
  props: <T>(spec: PropSpec<T>): PropKind => throwing((s, p, v) => checkProps(s, p, v, spec)),
  envVariables: throwing(checkEnvVariables),
  resources: throwing((s, p, v) => resourcesOf(s, p, v, ALL_RESOURCE_KEYS, ZERO_SIZES)),
  duration: throwing(requireDuration),
};

// --- Images ------------------------------------------------------------------------------------

/**
 * The rule that a known plugin image is run with the subcommand it needs (without it the
 * container prints its help and exits, in a restart loop), for a construct's rule list. Unknown
 * images, and a `command` that replaces the entrypoint, are the user's to know.
 * @internal
 */
export function subcommandRule(image: string, args: readonly string[], command: readonly string[] | undefined): Rule | false {
  const known = command === undefined ? knownPluginImage(image) : undefined;
  return (
    known !== undefined && [
      !args.includes(known.subcommand),
      'args',
      [...args],
      `does not name the '${known.subcommand}' subcommand that image ${image} needs (without it, the plugin prints its help and exits)`,
      `start args with '${known.subcommand}', e.g. args: ['${known.subcommand}']`,
    ]
  );
}

/**
 * The rule that a known plugin image is installed under the name it reports about itself: the
 * operator dials the Service by its `cnpg.io/pluginName` label, then keys the plugin by the name
 * GetPluginMetadata returns (cloudnative-pg v1.30.0 internal/cnpi/plugin/connection/connection.go
 * newPluginDataFromConnection; internal/cnpi/plugin/client/client.go getPlugin), so Clusters that
 * name the label get nothing. The doctor's CNPGI105 is the same rule on written manifests.
 * @internal
 */
export function reportedNameRule(image: string, pluginName: string): Rule | false {
  const known = knownPluginImage(image);
  return (
    known !== undefined && [
      known.pluginName !== pluginName,
      'pluginName',
      pluginName,
      `differs from the name image ${image} reports about itself ('${known.pluginName}'); the operator would find no plugin named '${pluginName}', so Clusters naming it get no sidecar and no archiving`,
      `use pluginName: '${known.pluginName}'${known.repository === 'plugin-barman-cloud' ? ', or the BarmanCloudPlugin preset' : ', or the HelloWorldPlugin preset'}`,
    ]
  );
}

// --- Containers --------------------------------------------------------------------------------

/**
 * Whether Kubernetes accepts an environment variable name: printable ASCII without `=` (the
 * relaxed rule, on by default since Kubernetes 1.30).
 */
function isEnvName(name: string): boolean {
  return /^[\x20-\x7e]+$/.test(name) && !name.includes('=');
}

/**
 * A map of environment variables as cdk8s-plus `EnvValue`s: the map, each name and each value
 * are judged in turn, and the first wrong one is refused.
 * @internal
 */
export function checkEnvVariables(scope: ErrorScope, prop: string, value: unknown): Record<string, kplus.EnvValue> {
  const map = value !== null && typeof value === 'object' && !Array.isArray(value);
  // EnvValue.fromValue(undefined) from JavaScript has neither a value nor a source.
  const empty = (v: unknown) => v instanceof kplus.EnvValue && v.value === undefined && v.valueFrom === undefined;
  const wrong: Array<[string, unknown, string]> = !map
    ? [[prop, value, wrongType('an object of kplus.EnvValues', value)]]
    : Object.entries(value).flatMap(([name, v]): Array<[string, unknown, string]> => [
        ...(isEnvName(name) ? [] : [[prop, name, "is not an environment variable name (printable ASCII without '=')"] as [string, unknown, string]]),
        ...(v instanceof kplus.EnvValue && !empty(v)
          ? []
          : [[`${prop}.${name}`, v, empty(v) ? 'has no value and no source' : wrongType('a kplus.EnvValue', v)] as [string, unknown, string]]),
      ]);
  if (wrong.length > 0) invalid(scope, wrong[0][0], wrong[0][1], wrong[0][2], "use { LOG_LEVEL: EnvValue.fromValue('info') }");
  return value as Record<string, kplus.EnvValue>;
}

/**
 * Container resources as Kubernetes JSON, rendered once for every container the plugin side
 * writes, through the one resources reader of the library ({@link resourcesOf}, which the props
 * check already ran on). `quantity` wraps each value for a generated L1 whose typed `toJson`
 * reads quantities as `{ value }`.
 * @internal
 */
export function resourcesManifest(resources: kplus.ContainerResources, quantity: (q: string) => unknown = (q) => q): Record<string, unknown> | undefined {
  const r = resourcesOf('resources', 'resources', resources, ALL_RESOURCE_KEYS, ZERO_SIZES);
  const out: Record<string, Record<string, unknown>> = {};
  for (const side of ['limits', 'requests'] as const) {
    for (const [name, q] of Object.entries(r?.[side] ?? {})) (out[side] ??= {})[name] = quantity(q);
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

/** A plugin container may request or limit zero of a resource. */
const ZERO_SIZES = { allowZero: true };

/**
 * Tolerations as cdk8s-plus `NodeTaintQuery`s, whose key and value the API server checks as a
 * label key and value (kubernetes pkg/apis/core/validation/validation.go ValidateTolerations).
 * @internal
 */
export const tolerationKind: PropKind = Kind.each((_s, p, v) => {
  const t = v instanceof kplus.NodeTaintQuery ? (v as unknown as { _toKube(): kplus.k8s.Toleration })._toKube() : undefined;
  const fix = "use NodeTaintQuery.exists('dedicated'), NodeTaintQuery.is('dedicated', 'plugins') or NodeTaintQuery.any()";
  if (t === undefined) return { prop: p, value: v, problem: wrongType('a kplus.NodeTaintQuery', v), fix };
  const labelLike = (t.key === undefined || isLabelKey(t.key)) && (t.value === undefined || isLabelValue(t.value));
  return labelLike ? undefined : { prop: p, value: t, problem: 'has a key or value that is not a label key or value', fix };
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
