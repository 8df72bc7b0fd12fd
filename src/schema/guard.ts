import { ApiObject } from 'cdk8s';
import { Construct, IConstruct } from 'constructs';
import { CnpgIValidationError, describeValue } from '../manifests/errors';
import { isDnsLabel } from '../manifests/k8s-names';
import { compareQuantities, parseQuantity } from '../manifests/quantity';
import type { SchemaIssue } from './index';

type SchemaModule = typeof import('./index');

let schemaModule: SchemaModule | undefined;

/** The schema layer, loaded on the first validation, so loading the library stays as fast as before. */
function schema(): SchemaModule {
  schemaModule ??= require('./index') as SchemaModule;
  return schemaModule;
}

function isRecord(x: unknown): x is Record<string, unknown> {
  return x !== null && typeof x === 'object' && !Array.isArray(x);
}

/**
 * Kinds whose name becomes the name (and host name) of Pods: the API server accepts a
 * subdomain but warns that a DNS label is recommended (kubernetes v1.32.13
 * pkg/registry/apps/deployment/strategy.go deploymentStrategy.WarningsOnCreate, and the same
 * check in the strategies of StatefulSet, DaemonSet, ReplicaSet, Job, CronJob, Pod and
 * ReplicationController).
 */
const WORKLOAD_KINDS = new Set([
  'apps/Deployment',
  'apps/StatefulSet',
  'apps/DaemonSet',
  'apps/ReplicaSet',
  'batch/Job',
  'batch/CronJob',
  '/Pod',
  '/ReplicationController',
]);

function groupOf(apiVersion: unknown): string {
  if (typeof apiVersion !== 'string') return '';
  const slash = apiVersion.indexOf('/');
  return slash < 0 ? '' : apiVersion.slice(0, slash);
}

/**
 * Everything this library knows the API server (and the CloudNativePG webhook) would refuse in
 * one rendered object, without an API server:
 * - the schema layer's checks ({@link import('./index').validateObject}): for a pinned CRD kind
 *   the OpenAPI schema after pruning and defaulting (a pruned field is an issue, with the nearest
 *   declared name) and the CEL rules; for every kind the object metadata (name per kind, labels,
 *   annotations, finalizers, owner references) and a Service's ports;
 * - a workload name that is not a DNS label (the API server warns);
 * - any `resources` with `requests` or `limits` (containers anywhere, sidecar configurations):
 *   a request above its limit, quantities compared exactly; a negative quantity; for huge pages
 *   and extended resources a request without an equal limit (kubernetes v1.32.13
 *   pkg/apis/core/validation/validation.go ValidateResourceRequirements; in a Cluster a zero limit
 *   means none, as CloudNativePG reads it); and, in a kind without a pinned CRD, a value that is
 *   not a quantity at all. A Cluster's own `spec.resources` is the Cluster webhook's
 *   (validateResources), which the constructs run through the admission checks
 *   (src/checks/admission), not here.
 * @internal
 */
export function apiServerIssues(obj: unknown): SchemaIssue[] {
  const s = schema();
  const out = s.validateObject(obj).filter((i) => i.kind !== 'cel-not-evaluated');
  if (!isRecord(obj)) return out;
  const group = groupOf(obj.apiVersion);
  const name = isRecord(obj.metadata) ? obj.metadata.name : undefined;
  if (typeof name === 'string' && WORKLOAD_KINDS.has(`${group}/${String(obj.kind)}`) && !out.some((i) => i.path === 'metadata.name') && !isDnsLabel(name)) {
    out.push(
      s.issue(
        ['metadata', 'name'],
        'invalid-name',
        name,
        `is not a DNS label, which a ${String(obj.kind)} name should be (it becomes Pod host names; the API server warns)`,
        "a lowercase RFC 1123 label (at most 63 characters of a-z, 0-9 and '-')",
        "use '-' instead of '.' and '_'",
      ),
    );
  }
  const isCluster = group === 'postgresql.cnpg.io' && obj.kind === 'Cluster';
  resourceIssues(obj, [], { checkFormat: !s.hasCrdSchema(obj.apiVersion, obj.kind), zeroLimitUnset: isCluster, skipSpecResources: isCluster }, out, s);
  return out;
}

interface ResourceWalk {
  /** Report values that are not quantities (kinds whose schema does not already). */
  readonly checkFormat: boolean;
  /** A zero limit means "no limit" (CloudNativePG's webhook). */
  readonly zeroLimitUnset: boolean;
  /** Leave `spec.resources` out: the admission checks judge a Cluster's. */
  readonly skipSpecResources: boolean;
}

function resourceIssues(x: unknown, path: (string | number)[], walk: ResourceWalk, out: SchemaIssue[], s: SchemaModule): void {
  // `path` is one array pushed and popped along the walk (a copy is made only for a problem
  // found), so the walk allocates nothing per node: it runs over every object at synth.
  if (Array.isArray(x)) {
    for (let i = 0; i < x.length; i++) {
      const v = x[i];
      if (v === null || typeof v !== 'object') continue;
      path.push(i);
      resourceIssues(v, path, walk, out, s);
      path.pop();
    }
    return;
  }
  if (!isRecord(x)) return;
  for (const k of Object.keys(x)) {
    const v = x[k];
    if (v === null || typeof v !== 'object') continue;
    if (k === 'resources' && walk.skipSpecResources && path.length === 1 && path[0] === 'spec') continue;
    if (k === 'resources' && isRecord(v) && (isRecord(v.requests) || isRecord(v.limits))) {
      requirementIssues(v, [...path, k], walk, out, s);
    } else {
      path.push(k);
      resourceIssues(v, path, walk, out, s);
      path.pop();
    }
  }
}

/**
 * Whether a resource may be requested below its limit: native resources (no domain, or a
 * `kubernetes.io/` one) except huge pages (kubernetes v1.32.13 pkg/apis/core/helper/helpers.go
 * IsOvercommitAllowed, IsNativeResource, IsHugePageResourceName).
 */
function overcommitAllowed(name: string): boolean {
  const native = !name.includes('/') || name.includes('kubernetes.io/');
  return native && !name.startsWith('hugepages-');
}

function requirementIssues(r: Record<string, unknown>, path: (string | number)[], walk: ResourceWalk, out: SchemaIssue[], s: SchemaModule): void {
  const requests = isRecord(r.requests) ? r.requests : {};
  const limits = isRecord(r.limits) ? r.limits : {};
  if (walk.checkFormat) {
    for (const [side, map] of [
      ['requests', requests],
      ['limits', limits],
    ] as const) {
      for (const [name, v] of Object.entries(map)) {
        if (parseQuantity(v) === undefined) {
          out.push(
            s.issue(
              [...path, side, name],
              'format',
              v,
              'is not a Kubernetes quantity',
              "a quantity such as '500m', '2', '128Mi' or '1Gi'",
              "write e.g. '500m' or '1Gi'",
            ),
          );
        }
      }
    }
  }
  for (const [side, map] of [
    ['requests', requests],
    ['limits', limits],
  ] as const) {
    for (const [name, v] of Object.entries(map)) {
      const q = parseQuantity(v);
      if (q !== undefined && q.num < 0n) {
        out.push(s.issue([...path, side, name], 'min', v, 'is negative', 'a quantity of 0 or more', 'write a positive quantity'));
      }
    }
  }
  for (const [name, requested] of Object.entries(requests)) {
    const req = parseQuantity(requested);
    const lim = parseQuantity(limits[name]);
    if (req === undefined) continue;
    if (!overcommitAllowed(name)) {
      // Huge pages and extended resources (example.com/gpu) cannot be overcommitted: the request
      // needs a limit, and the same one.
      if (limits[name] === undefined) {
        out.push(
          s.issue(
            [...path, 'limits', name],
            'required',
            undefined,
            `is not set; ${name} cannot be overcommitted, so a request needs an equal limit`,
            `a limit equal to the request ${describeValue(requested)}`,
            `set limits.${name} to ${describeValue(requested)}`,
          ),
        );
      } else if (lim !== undefined && compareQuantities(req, lim) !== 0) {
        out.push(
          s.issue(
            [...path, 'requests', name],
            'schema',
            requested,
            `differs from the ${name} limit ${describeValue(limits[name])}; ${name} cannot be overcommitted`,
            `exactly ${describeValue(limits[name])}`,
            'make the request and the limit equal',
          ),
        );
      }
      continue;
    }
    if (lim === undefined) continue;
    if (walk.zeroLimitUnset && lim.num === 0n) continue;
    if (compareQuantities(req, lim) > 0) {
      out.push(
        s.issue(
          [...path, 'requests', name],
          'max',
          requested,
          `is above the ${name} limit ${describeValue(limits[name])}; a request must be less than or equal to its limit`,
          `at most ${describeValue(limits[name])}`,
          `lower the request or raise the limit`,
        ),
      );
    }
  }
  // Anything else under `resources` (claims) holds no quantities.
}

/**
 * One line per issue, as the schema guard reports them:
 * `<JSON path>: <problem>; value <v>; allowed <...>` (without the value part for a missing value).
 * @internal
 */
export function formatIssue(i: SchemaIssue): string {
  const value = i.value === undefined ? '' : `; value ${describeValue(i.value)}`;
  return `${i.path}: ${i.problem}${value}; allowed ${i.allowed}`;
}

/**
 * One outermost `App.synth()` or `App.synthYaml()` call in progress on an app. Inside it, cdk8s
 * runs the validations of the whole app once, and again before each chart it renders, then
 * renders each object (cdk8s v2.70.106 src/app.ts App.synth, App.synthYaml, App._synthChart, which
 * Chart.toJson calls): only cdk8s itself, validations and lazy values run in between, no user
 * code that could change an object. So the schema guard checks each object once per call, and
 * the synth writes the JSON the guard rendered and checked, instead of rendering it again.
 */
interface SynthCall {
  /** Objects whose guard rendered them in this call, with the JSON the synth has not taken yet. */
  readonly rendered: Map<ApiObject, unknown>;
}

/** The synth call in progress on each app (by its root construct). */
const synthCalls = new WeakMap<IConstruct, SynthCall>();

/**
 * The `App.synth()` / `App.synthYaml()` call of `root` under way, if any: a token that stays the
 * same for every validation of that call, so that a check comparing the constructs of an app
 * can read them once per call.
 * @internal
 */
export function currentSynthCall(root: IConstruct): object | undefined {
  return synthCalls.get(root);
}
const watchedRoots = new WeakSet<IConstruct>();
const sharedRenders = new WeakSet<ApiObject>();
/** How each guarded object renders itself (its own `toJson`, before {@link shareRender} replaced it). */
const renderers = new WeakMap<ApiObject, () => unknown>();

/**
 * The JSON of `apiObject` for a check that reads it at synth. Inside an `App.synth()` /
 * `App.synthYaml()` call, for an object with a schema guard, it is the one rendering of the call
 * that the guard checks and the synth writes (made now if it is not yet): reading it does not use
 * it up, where `apiObject.toJson()` would hand it over and make the synth render the object again.
 * Otherwise it is a fresh `toJson()`. The JSON is shared: read it, never change it.
 * @internal
 */
export function synthJson(apiObject: ApiObject): unknown {
  const call = synthCalls.get(apiObject.node.root);
  const render = renderers.get(apiObject);
  if (call === undefined || render === undefined) return apiObject.toJson();
  if (call.rendered.has(apiObject)) return call.rendered.get(apiObject);
  const json = render();
  call.rendered.set(apiObject, json);
  return json;
}

/**
 * Makes the app's own `synth` and `synthYaml` (own properties calling the app's methods) mark
 * the call in progress, for {@link addSchemaGuard}. A root that is not an App (no synth) is left
 * alone; so are `chart.toJson()` and `Testing.synth(chart)`, which keep rendering every time.
 */
function watchSynthCalls(root: IConstruct): void {
  if (watchedRoots.has(root)) return;
  watchedRoots.add(root);
  const app = root as unknown as Record<string, unknown>;
  for (const method of ['synth', 'synthYaml']) {
    if (typeof app[method] !== 'function') continue;
    // The method is looked up at each call (a subclass's override, a test's spy), unless the
    // app already had one of its own.
    const own = Object.getOwnPropertyDescriptor(app, method)?.value as ((...a: unknown[]) => unknown) | undefined;
    const original = (): ((...a: unknown[]) => unknown) => own ?? (Object.getPrototypeOf(app) as Record<string, (...a: unknown[]) => unknown>)[method];
    Object.defineProperty(app, method, {
      configurable: true,
      enumerable: false,
      writable: true,
      value: function (this: unknown, ...args: unknown[]): unknown {
        // A synth started inside another (synthYaml from a lazy value) joins the outer call.
        if (synthCalls.has(root)) return original().apply(this, args);
        const call: SynthCall = { rendered: new Map() };
        synthCalls.set(root, call);
        try {
          return original().apply(this, args);
        } finally {
          synthCalls.delete(root);
          // What a failed synth rendered and did not write is not kept alive by the guards.
          call.rendered.clear();
        }
      },
    });
  }
}

/**
 * Makes `apiObject.toJson()` hand out, once, the JSON its guard rendered in the synth call in
 * progress; any other call renders as before. Returns the rendering function the guard uses.
 */
function shareRender(root: IConstruct, apiObject: ApiObject): () => unknown {
  const render: () => unknown = apiObject.toJson;
  if (sharedRenders.has(apiObject)) return () => render.call(apiObject);
  sharedRenders.add(apiObject);
  renderers.set(apiObject, () => render.call(apiObject));
  apiObject.toJson = function (this: ApiObject): unknown {
    const call = synthCalls.get(root);
    if (call?.rendered.has(apiObject)) {
      const json = call.rendered.get(apiObject);
      call.rendered.delete(apiObject);
      return json;
    }
    return render.call(apiObject);
  };
  return () => render.call(apiObject);
}

/**
 * Adds a validation to `construct` that renders `apiObject` at synth and reports, one line each,
 * every problem {@link apiServerIssues} finds in it, so that one `App.synth()` lists all the
 * objects of the app an API server would refuse, with the construct path (cdk8s adds it). When
 * the guard sits on another construct than the ApiObject (an L2 with several objects), each line
 * starts with the object's kind and name. The schema layer is loaded at the first validation,
 * not when the library loads.
 *
 * Within one `App.synth()` or `App.synthYaml()` call the object is rendered and checked once:
 * cdk8s validates the app again before each chart, and those validations return the first one's
 * result; the synth then writes the JSON that was checked. A `toJson()` outside the call, or a
 * second one inside it, renders afresh; `chart.toJson()` and `Testing.synth()` check and render
 * every time, as before.
 * @internal
 */
export function addSchemaGuard(construct: Construct, apiObject: ApiObject): void {
  const root = construct.node.root;
  const render = shareRender(root, apiObject);
  addOncePerSynth(construct, (target, call) => {
    // A check that read the object in this call (synthJson) has rendered it already.
    const json = call?.rendered.has(apiObject) ? call.rendered.get(apiObject) : render();
    const issues = apiServerIssues(json);
    const prefix = issues.length === 0 || (target as unknown) === apiObject ? '' : `${apiObject.kind} ${describeValue(apiObject.name)} `;
    // The synth of this call writes the JSON that was checked.
    call?.rendered.set(apiObject, json);
    return issues.map((i) => `${prefix}${formatIssue(i)}`);
  });
}

/**
 * Adds `validate` as a validation of the construct its problems are reported on
 * ({@link reportedOn}), run once per `App.synth()` / `App.synthYaml()` call (later validations
 * of the call return its messages) and at every validation otherwise. A `CnpgIValidationError`
 * it throws becomes its message; any other error propagates (a bug, not bad input).
 */
function addOncePerSynth(construct: Construct, validate: (target: Construct, call: SynthCall | undefined) => string[]): void {
  const target = reportedOn(construct);
  const root = construct.node.root;
  watchSynthCalls(root);
  let checked: { readonly call: SynthCall; readonly messages: string[] } | undefined;
  target.node.addValidation({
    validate: () => {
      const call = synthCalls.get(root);
      if (call !== undefined && checked?.call === call) return checked.messages;
      let messages: string[];
      try {
        messages = validate(target, call);
      } catch (e) {
        const own = ownMessage(e, target);
        if (own === undefined) throw e;
        messages = [own];
      }
      if (call !== undefined) checked = { call, messages };
      return messages;
    },
  });
}

/**
 * The message of this library's error, also when cdk8s wrapped it: `ApiObject.toJson` rethrows
 * anything a lazy value throws as `Failed serializing construct at path '...' with name '...':
 * CnpgIValidationError: <message>`. cdk8s starts each validation line with `[<construct path>]`,
 * so the message loses its own leading path when it is that construct's (no
 * `[apps/store] apps/store: ...`); an error about another construct keeps its path.
 */
function ownMessage(e: unknown, construct: Construct): string | undefined {
  const m =
    e instanceof Error && !(e instanceof CnpgIValidationError)
      ? /^Failed serializing construct at path '[^']*' with name '[^']*': CnpgIValidationError: ([\s\S]*)$/.exec(e.message)
      : null;
  const message = e instanceof CnpgIValidationError ? e.message : m?.[1];
  const own = `${construct.node.path}: `;
  return message?.startsWith(own) ? message.slice(own.length) : message;
}

/**
 * Adds a validation to `construct` that runs `check` at synth: a `CnpgIValidationError` it
 * throws becomes the validation's message, so cdk8s reports the errors of every construct of the
 * app at once (`Validation failed with the following errors: [path] message ...`); any other
 * error propagates as is (a bug, not bad input). Like the schema guard, the check runs once per
 * `App.synth()` or `App.synthYaml()` call (cdk8s validates the app once per chart as well), and
 * at every validation otherwise.
 * @internal
 */
export function addChecks(construct: Construct, check: () => void): void {
  addOncePerSynth(construct, () => {
    check();
    return [];
  });
}

/** The ids of the children each construct of the library makes for itself (see {@link internalChild}). */
const INTERNAL_CHILDREN = new WeakMap<IConstruct, Set<string>>();

/**
 * Marks the child `id` of `parent` as the library's own (a preset's StandalonePlugin, a plugin's
 * certificates), before or after it is made, and returns `id`: the schema guard and
 * {@link addChecks} then report its problems on the nearest ancestor the user created, under
 * the path the user wrote (`system/barman`, not `system/barman/Plugin`).
 * @internal
 */
export function internalChild(parent: IConstruct, id: string): string {
  INTERNAL_CHILDREN.set(parent, (INTERNAL_CHILDREN.get(parent) ?? new Set()).add(id));
  return id;
}

/** The construct a validation of `construct` is reported on: itself, or the user's construct it was made for. */
function reportedOn(construct: Construct): Construct {
  let c: IConstruct = construct;
  while (c.node.scope !== undefined && INTERNAL_CHILDREN.get(c.node.scope)?.has(c.node.id)) c = c.node.scope;
  return c as Construct;
}
