/*
 * Text that a GitOps tool renders before anything is applied (a Flux post-build variable such as
 * `${APP}`), left unrendered in the doctor's input because the doctor does not know its value.
 *
 * Judging such text as a value is judging something the API server never sees: a name
 * `${APP}-db` is not a DNS label, an integer `${PG_REPLICAS}` is not an integer, and a default
 * put in its place invents a value. So an object holding unrendered text is read through a
 * tracked view: every read of a field that holds unrendered text is recorded, and the doctor
 * withholds what a rule reported on an object after reading such a field of it. Reads that only
 * look at the shape (`Object.keys`, `in`, `hasOwnProperty`) are not recorded: a field's presence
 * is rendered text too.
 */
import { Json, PathSegments, formatPath } from './json';

/** What makes a text unrendered: the variables it names, or a value that is still encrypted. */
export interface UnrenderedText {
  /** The variables the text names, in order, each once (none for an encrypted value). */
  readonly variables: readonly string[];
  /** Whether the text is a value encrypted with SOPS, which Flux decrypts before applying. */
  readonly encrypted?: boolean;
}

/** A field of an object that holds unrendered text. */
export interface UnrenderedField extends UnrenderedText {
  /** The field path, as findings write it (`spec.instances`, `spec.plugins[0].name`). */
  readonly path: string;
  /** Whether the text is the field's key rather than its value. */
  readonly inKey?: boolean;
}

/**
 * What makes the text of a field unrendered (undefined: the text is rendered); `path` is where
 * the text is (the field's, or for a key, the key's).
 */
export type VariableFinder = (text: string, path: PathSegments) => UnrenderedText | undefined;

/** Which fields of a container hold unrendered text: leaves by key, and the containers below. */
interface TaintNode {
  readonly leaves: Set<string>;
  readonly children: Map<string, TaintNode>;
}

/** What the proxies of one run record into; undefined while nothing records. */
let recording: Set<object> | undefined;

/** The tracked view of each container, so that one container always reads as one object. */
const VIEWS = new WeakMap<object, object>();
/** Whether a tracked view was ever made in this process: until one is, no read can be recorded. */
let viewsMade = false;
/** What {@link recordingReads} returns as `read` while no tracked view exists. */
const NOTHING_READ: ReadonlySet<object> = new Set();
/** The fields of each tracked view (of an object the doctor judges), by the view. */
const FIELDS = new WeakMap<object, readonly UnrenderedField[]>();
/** The taint tree of each tracked view, to track a copy of it the same way. */
const TREES = new WeakMap<object, TaintNode>();

const MAX_DEPTH = 1000;

/**
 * The fields of `value` that hold unrendered text, and the tree of where they are; iterative, so
 * that any input (a container holding itself through a YAML alias) stays bounded.
 */
function scan(value: unknown, find: VariableFinder): { fields: UnrenderedField[]; tree: TaintNode } | undefined {
  const fields: UnrenderedField[] = [];
  const root: TaintNode = { leaves: new Set(), children: new Map() };
  const seen = new Set<object>();
  const stack: Array<{ value: unknown; path: Array<string | number>; node: TaintNode; chain: Array<[TaintNode, string]>; depth: number }> = [
    { value, path: [], node: root, chain: [], depth: 0 },
  ];
  // a field holding unrendered text: its container lists it, and each container above links down to it
  const taint = (chain: Array<[TaintNode, string]>, node: TaintNode, key: string) => {
    node.leaves.add(key);
    for (let i = 0; i < chain.length; i++) {
      const [parent, k] = chain[i];
      if (!parent.children.has(k)) parent.children.set(k, i + 1 < chain.length ? chain[i + 1][0] : node);
    }
  };
  while (stack.length > 0) {
    const { value: v, path, node, chain, depth } = stack.pop()!;
    if (v === null || typeof v !== 'object' || seen.has(v) || depth > MAX_DEPTH) continue;
    seen.add(v);
    const isArray = Array.isArray(v);
    const entries: Array<[string, unknown]> = isArray ? v.map((item, i) => [String(i), item]) : Object.entries(v as Json);
    for (let i = entries.length - 1; i >= 0; i--) {
      const [key, item] = entries[i];
      const segments = [...path, isArray ? Number(key) : key];
      // the path is written out only for a field that holds unrendered text (few do)
      if (!isArray) {
        const inKey = find(key, segments);
        if (inKey) {
          fields.push({ path: formatPath(segments), ...inKey, inKey: true });
          taint(chain, node, key);
        }
      }
      if (typeof item === 'string') {
        const text = find(item, segments);
        if (text) {
          fields.push({ path: formatPath(segments), ...text });
          taint(chain, node, key);
        }
      } else if (item !== null && typeof item === 'object') {
        const child: TaintNode = { leaves: new Set(), children: new Map() };
        stack.push({ value: item, path: segments, node: child, chain: [...chain, [node, key]], depth: depth + 1 });
      }
    }
  }
  if (fields.length === 0) return undefined;
  fields.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { fields, tree: root };
}

/** The tracked view of a container: reading a field that holds unrendered text records `owners`. */
function view<T extends object>(target: T, node: TaintNode, owners: readonly object[]): T {
  const known = VIEWS.get(target);
  if (known) return known as T;
  viewsMade = true;
  const handler: ProxyHandler<T> = {
    get(t, key, receiver) {
      const value = Reflect.get(t, key, receiver) as unknown;
      if (typeof key !== 'string') return value;
      if (node.leaves.has(key) && recording) {
        for (const o of owners) recording.add(o);
        recording.add(self);
      }
      const child = node.children.get(key);
      if (child && value !== null && typeof value === 'object') return view(value, child, [...owners, self]);
      return value;
    },
  };
  const self: T = new Proxy(target, handler);
  VIEWS.set(target, self);
  TREES.set(self, node);
  return self;
}

/**
 * `value` as the doctor reads it: itself when it holds no unrendered text, else a tracked view
 * (a `kind: ...List`'s items each a view of their own, since each is an object of its own), with
 * the fields that hold unrendered text available through {@link unrenderedFields}.
 */
export function trackUnrendered(value: unknown, finderFor: (object: Json) => VariableFinder | undefined): unknown {
  const o = value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : undefined;
  if (!o) return value;
  if (typeof o.kind === 'string' && /List$/.test(o.kind) && Array.isArray(o.items)) {
    let changed = false;
    const items = o.items.map((item: unknown) => {
      const tracked = trackUnrendered(item, finderFor);
      if (tracked !== item) changed = true;
      return tracked;
    });
    return changed ? { ...o, items } : o;
  }
  const find = finderFor(o);
  const found = find && scan(o, find);
  if (!found) return o;
  const tracked = view(o, found.tree, []);
  FIELDS.set(tracked, found.fields);
  return tracked;
}

/** The fields of a tracked object that hold unrendered text (none for any other value). */
export function unrenderedFields(value: unknown): readonly UnrenderedField[] {
  return value !== null && typeof value === 'object' ? (FIELDS.get(value) ?? []) : [];
}

/**
 * `copy`, a changed copy of the tracked object `original` whose fields stay at the same paths (a
 * defaulted copy), tracked as `original` is; `copy` itself when `original` is not tracked.
 */
export function trackLike<T extends object>(original: unknown, copy: T): T {
  const tree = original !== null && typeof original === 'object' ? TREES.get(original) : undefined;
  return tree ? view(copy, tree, []) : copy;
}

/**
 * A field path with every key written one way (`metadata.labels["a.b/c"]` and
 * `metadata.labels.a.b/c` both read `metadata.labels.a.b/c`), since rules write odd keys either way.
 */
function canonical(path: string): string {
  return path.replace(/\["((?:[^"\\]|\\.)*)"\]/g, (whole, key: string) => {
    try {
      return `.${JSON.parse(`"${key}"`) as string}`;
    } catch {
      return whole;
    }
  });
}

/** Whether a field path is the path of an unrendered field, above one, or below one. */
export function touchesUnrendered(fields: readonly UnrenderedField[], path: string | undefined): boolean {
  if (path === undefined || fields.length === 0) return false;
  const p = canonical(path);
  const within = (inner: string, outer: string) => inner === outer || inner.startsWith(`${outer}.`) || inner.startsWith(`${outer}[`);
  return fields.some((f) => {
    const u = canonical(f.path);
    return within(u, p) || within(p, u);
  });
}

/**
 * Runs `fn` and returns the tracked objects (and the tracked containers inside them) of which it
 * read a field holding unrendered text. Nested calls record for themselves only.
 */
export function recordingReads<T>(fn: () => T): { readonly result: T; readonly read: ReadonlySet<object> } {
  // Without a tracked view nothing can be read (the synth, and most doctor runs): no set to make
  // for each of the admission checks of each object.
  if (!viewsMade) return { result: fn(), read: NOTHING_READ };
  const outer = recording;
  const read = new Set<object>();
  recording = read;
  try {
    return { result: fn(), read };
  } finally {
    recording = outer;
  }
}

/** Records `read` (what an earlier run of shared work read) into the run that records now, if any. */
export function noteReads(read: ReadonlySet<object>): void {
  if (recording) for (const o of read) recording.add(o);
}
