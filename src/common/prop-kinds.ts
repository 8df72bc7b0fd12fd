/*
 * The kinds of value that props hold, for the specs of `props.ts`: each kind is built on the one
 * validator of `src/common` for that kind of value, so a construct states what a key holds and
 * the message is the library's one message for it.
 */
import * as kplus from 'cdk8s-plus-28';
import { imageTagProblem } from '../checks/image-policy';
import { ErrorScope, Problem, invalid, wrongType } from '../manifests/errors';
import { isDnsHostName, isDnsSubdomain, isEnvVarName, isLabelKey, isLabelValue, longDnsLabel } from '../manifests/k8s-names';
import { checkMetadata } from './metadata';
import { jsonProblem } from './plain-json';
import { CheckPropsOptions, FactoryClass, PropKind, PropSpec, anyValue, checkProps, checkValue, evenMissing, factoryProblem } from './props';
import { RequireAmountOptions, requireDuration, requireSize } from './render';
import { ALL_RESOURCE_KEYS, ResourceKey, resourcesOf } from './resources';
import {
  INT32_MAX,
  validateImage,
  validateInteger,
  validateLabels,
  validateOptionalBoolean,
  validateOptionalEnum,
  validatePluginName,
  validateStringArray,
  validateStringMap,
} from './validate';

/** A kind made of a validator of `src/common`, which throws the library's error itself. */
function throwing(validate: (scope: ErrorScope, prop: string, value: unknown) => unknown): PropKind {
  return (s, p, v) => {
    validate(s, p, v);
    return undefined;
  };
}

/** A kind that refuses, with `problem` and `fix`, every value for which `accepts` is false. */
function test(accepts: (v: unknown) => boolean, problem: string | ((v: unknown) => string), fix: string): PropKind {
  return (_s, p, v) => (accepts(v) ? undefined : { prop: p, value: v, problem: typeof problem === 'string' ? problem : problem(v), fix });
}

/** An array of one kind. */
function each(kind: PropKind): PropKind {
  return (s, p, v) =>
    Array.isArray(v)
      ? void v.forEach((x, i) => checkValue(s, `${p}[${i}]`, x, kind))
      : { prop: p, value: v, problem: wrongType('an array', v), fix: 'pass a list, or leave the prop out' };
}

/** A toleration as a cdk8s-plus `NodeTaintQuery`, whose key and value must be a label key and value. */
function toleration(_s: ErrorScope, p: string, v: unknown): Problem | undefined {
  const t = v instanceof kplus.NodeTaintQuery ? (v as unknown as { _toKube(): kplus.k8s.Toleration })._toKube() : undefined;
  const fix = "use NodeTaintQuery.exists('dedicated'), NodeTaintQuery.is('dedicated', 'plugins') or NodeTaintQuery.any()";
  if (t === undefined) return { prop: p, value: v, problem: wrongType('a kplus.NodeTaintQuery', v), fix };
  const labelLike = (t.key === undefined || isLabelKey(t.key)) && (t.value === undefined || isLabelValue(t.value));
  return labelLike ? undefined : { prop: p, value: t, problem: 'has a key or value that is not a label key or value', fix };
}

/** The kinds of value that props hold. @internal */
export const Kind = {
  /** Anything: checked where it is used (a cross-field rule, a value rendered and checked in one go), or by the schema guard. */
  any: anyValue,
  /** `kind`, also run on a missing value ({@link evenMissing}). */
  evenMissing,
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
  /** A map of string to string (plugin parameters, tags). */
  stringMap: throwing(validateStringMap),
  pluginName: throwing(validatePluginName),
  /**
   * An image reference pinned to a release: a tag with a version in it (not `latest`, `main` or
   * another branch or channel name), or a digest (the library's one image policy,
   * `src/checks/image-policy.ts`). A moving image changes under the Clusters with no change in
   * Git (and the kubelet pulls it again on every start with imagePullPolicy Always), so it is
   * refused rather than warned about.
   */
  image:
    (example: string): PropKind =>
    (s, p, v) => {
      const problem = imageTagProblem(validateImage(s, p, v, example));
      return problem === undefined ? undefined : { prop: p, value: v, problem, fix: `pin a release tag or a digest, e.g. ${example}` };
    },
  /** An object name or API group written outside `metadata` (a Secret, a PriorityClass), where no guard sees it: a DNS subdomain. */
  dnsName: (what: string, example: string): PropKind =>
    test((v) => typeof v === 'string' && isDnsSubdomain(v), `is not ${what} (a lower-case DNS subdomain)`, `use a name such as '${example}'`),
  /**
   * A name that DNS and TLS carry (a server name the operator verifies, a certificate's DNS
   * name): a DNS subdomain whose labels have at most 63 characters each ({@link isDnsHostName}).
   */
  hostName:
    (what: string, example: string): PropKind =>
    (_s, p, v) => {
      if (typeof v === 'string' && isDnsHostName(v)) return undefined;
      const long = typeof v === 'string' && isDnsSubdomain(v) ? longDnsLabel(v) : undefined;
      return {
        prop: p,
        value: v,
        problem:
          long === undefined
            ? `is not ${what} (a lower-case DNS subdomain)`
            : `is not ${what}: its label '${long}' has ${long.length} characters, and a DNS label holds at most 63`,
        fix: `use a name such as '${example}'`,
      };
    },
  /** Any other plain test of the value (`problem` says what the value is not). */
  test,
  /** An instance of a cdk8s or cdk8s-plus class, or a value of an interface's shape. */
  instance: (is: (v: unknown) => boolean, what: string, fix: string): PropKind => test(is, (v) => wrongType(what, v), fix),
  /** A value made by the static factories of a union-like class of this library, which names them. */
  factory:
    (cls: FactoryClass): PropKind =>
    (_s, p, v) =>
      factoryProblem(cls, p, v),
  /**
   * A value written as given (a CRD field, passed through): plain JSON, whose shape the schema
   * guard judges at synth. A missing one is the schema guard's too.
   */
  json: ((_s: ErrorScope, p: string, v: unknown) => (v === undefined ? undefined : jsonProblem(v, p))) satisfies PropKind,
  /** An array of one kind. */
  each,
  /** A nested object with its own keys. */
  props: <T>(spec: PropSpec<T>, options?: CheckPropsOptions<T>): PropKind => throwing((s, p, v) => checkProps(s, p, v, spec, options)),
  /** A nested object that may be left out, written as given: its own keys, and plain JSON as a whole. */
  jsonProps:
    <T>(spec: PropSpec<T>): PropKind =>
    (s, p, v) => {
      checkProps(s, p, v, spec, { optional: true });
      return v === undefined ? undefined : jsonProblem(v, p);
    },
  /** The `metadata` of the object a construct writes (`ApiObjectMetadata`). */
  metadata: checkMetadata satisfies PropKind,
  envVariables: throwing(checkEnvVariables),
  /** cdk8s-plus container resources of the given keys, written as quantities. */
  resources: (keys: readonly ResourceKey[] = ALL_RESOURCE_KEYS, sizes: RequireAmountOptions = {}): PropKind =>
    throwing((s, p, v) => resourcesOf(s, p, v, keys, sizes)),
  /** A cdk8s `Duration` of whole milliseconds; `example` is the fix. */
  duration: (example?: string): PropKind => throwing((s, p, v) => requireDuration(s, p, v, example)),
  /** A cdk8s `Size` of whole bytes; `example` is the fix. */
  size: (example?: string, options?: RequireAmountOptions): PropKind => throwing((s, p, v) => requireSize(s, p, v, example, options)),
  /**
   * Tolerations as cdk8s-plus `NodeTaintQuery`s, whose key and value the API server checks as a
   * label key and value (kubernetes pkg/apis/core/validation/validation.go ValidateTolerations).
   */
  tolerations: each(toleration),
};

// --- Containers --------------------------------------------------------------------------------

/**
 * A map of environment variables as cdk8s-plus `EnvValue`s: the map, each name and each value
 * are judged in turn, and the first wrong one is refused. A name must be one that the oldest
 * Kubernetes the output targets accepts (`isEnvVarName`: 1.30 refuses the relaxed names that
 * 1.32 accepts by default).
 */
function checkEnvVariables(scope: ErrorScope, prop: string, value: unknown): void {
  const map = value !== null && typeof value === 'object' && !Array.isArray(value);
  // EnvValue.fromValue(undefined) from JavaScript has neither a value nor a source.
  const empty = (v: unknown) => v instanceof kplus.EnvValue && v.value === undefined && v.valueFrom === undefined;
  const wrong: Array<[string, unknown, string]> = !map
    ? [[prop, value, wrongType('an object of kplus.EnvValues', value)]]
    : Object.entries(value).flatMap(([name, v]): Array<[string, unknown, string]> => [
        ...(isEnvVarName(name)
          ? []
          : [
              [prop, name, "is not an environment variable name that Kubernetes 1.30 accepts (letters, digits, '_', '-' and '.', not a digit first)"] as [
                string,
                unknown,
                string,
              ],
            ]),
        ...(v instanceof kplus.EnvValue && !empty(v)
          ? []
          : [[`${prop}.${name}`, v, empty(v) ? 'has no value and no source' : wrongType('a kplus.EnvValue', v)] as [string, unknown, string]]),
      ]);
  if (wrong.length > 0) invalid(scope, wrong[0][0], wrong[0][1], wrong[0][2], "use { LOG_LEVEL: EnvValue.fromValue('info') }");
}
