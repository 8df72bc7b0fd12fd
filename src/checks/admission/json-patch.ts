/*
 * RFC 6902 JSON patches as the CloudNativePG operator decodes and applies the `cnpg.io/podPatch`
 * annotation (evanphx/json-patch v5.9.11 DecodePatch and Patch.Apply, which cloudnative-pg
 * v1.30.0 pkg/specs/pods.go buildInstance calls), applied to a partial document: what is known
 * of the Pod the operator builds (./instance-pod.ts). An operation whose outcome depends on what
 * the model does not know makes the result unknown, so the check never refuses a patch that
 * might apply; the texts of the failures are the library's.
 *
 * Not followed (the result is unknown): an operation on the whole document (path `""`), a path
 * with an empty segment (the library's own quirks there), and a `test` whose values hold `null`
 * or what the model does not know.
 */
import { goAtoi } from '../../manifests/go-numbers';
import { GoJson, goCompact, goJsonKind, goJsonString, readGoJson } from './go-json';

/**
 * A node of a partially known JSON document.
 * - `object`: `keys` are present; `maybe` keys may be present (value unknown); any other key is
 *   absent, unless `open` (then it may be present).
 * - `array`: `items` when its length is known.
 * - `scalar`: a string, number, boolean or null; `raw` its JSON text when known (a scalar of
 *   unknown text is not null).
 * - `unknown`: present, but of unknown value (even of unknown type).
 * @internal
 */
export type DocNode =
  | { readonly t: 'object'; readonly keys: Map<string, DocNode>; readonly maybe: Set<string>; readonly open: boolean }
  | { readonly t: 'array'; items?: DocNode[] }
  | { readonly t: 'scalar'; readonly raw?: string }
  | { readonly t: 'unknown' };

/** An object node with these present keys (and, optionally, keys that may be present). @internal */
export function objectNode(keys: Record<string, DocNode>, options: { readonly maybe?: readonly string[]; readonly open?: boolean } = {}): DocNode {
  return { t: 'object', keys: new Map(Object.entries(keys)), maybe: new Set(options.maybe ?? []), open: options.open ?? false };
}

/** One decoded operation: the keys of its JSON object (the last of a repeated key wins). @internal */
type Operation = ReadonlyMap<string, GoJson> | null;

/** What decoding a patch gives: the operations, or the library's error text. @internal */
export type DecodedPatch = { readonly ok: true; readonly operations: readonly Operation[] } | { readonly ok: false; readonly error: string };

/** ErrMissing, ErrInvalid and ErrInvalidIndex of the library, as they end its messages. */
const MISSING = 'missing value';
const INVALID = 'invalid state detected';
const INVALID_INDEX = 'invalid index referenced';

/**
 * evanphx/json-patch DecodePatch: valid JSON, an array (or `null`) of objects (or `null`s), each
 * with a known `op`, a string `path`, a `value` for add and replace and a string `from` for move
 * and copy.
 * @internal
 */
export function decodePatch(text: string): DecodedPatch {
  const json = readGoJson(text);
  if (json === undefined) return { ok: false, error: INVALID };
  if (json.kind === 'null') return { ok: true, operations: [] };
  if (json.kind !== 'array') return { ok: false, error: `json: cannot unmarshal ${goJsonKind(json)} into Go value of type jsonpatch.Patch` };
  const operations: Operation[] = [];
  for (const item of json.items) {
    if (item.kind === 'null') operations.push(null);
    else if (item.kind === 'object') operations.push(new Map(item.entries));
    else return { ok: false, error: `json: cannot unmarshal ${goJsonKind(item)} into Go value of type jsonpatch.Operation` };
  }
  for (const op of operations) {
    const problem = operationProblem(op);
    if (problem !== undefined) return { ok: false, error: `invalid operation ${operationJson(op)}: ${problem}` };
  }
  return { ok: true, operations };
}

/** A member of an operation that is present and not `null` (the library reads `null` as absent). */
function member(op: Operation, key: string): GoJson | undefined {
  const v = op?.get(key);
  return v === undefined || v.kind === 'null' ? undefined : v;
}

function kindOf(op: Operation): string {
  const v = member(op, 'op');
  return v?.kind === 'string' ? v.value : 'unknown';
}

/** A string member (`path`, `from`), or the library's error text. */
function stringMember(op: Operation, key: 'path' | 'from'): { value: string } | { error: string } {
  const v = member(op, key);
  if (v === undefined) return { error: key === 'path' ? `operation missing path field: ${MISSING}` : `operation, missing from field: ${MISSING}` };
  return v.kind === 'string' ? { value: v.value } : { error: `json: cannot unmarshal ${goJsonKind(v)} into Go value of type string` };
}

function operationProblem(op: Operation): string | undefined {
  switch (kindOf(op)) {
    case 'add':
    case 'replace':
      if (op?.get('value') === undefined) return `failed to decode 'value': operation, missing value field: ${MISSING}`;
      break;
    case 'move':
    case 'copy': {
      const from = stringMember(op, 'from');
      if ('error' in from) return `failed to decode 'from': ${from.error}`;
      break;
    }
    case 'remove':
    case 'test':
      break;
    default:
      return 'unsupported operation';
  }
  const path = stringMember(op, 'path');
  return 'error' in path ? `failed to decode 'path': ${path.error}` : undefined;
}

/** An operation as Go's json.Marshal writes it in the error: keys sorted, values compacted. */
function operationJson(op: Operation): string {
  if (op === null) return 'null';
  const keys = [...op.keys()].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
  return `{${keys.map((k) => `${goJsonString(k)}:${goCompact(op.get(k)!.raw)}`).join(',')}}`;
}

/** The outcome of applying a patch: it applies, it fails (with the library's error), or it depends on the unknown. @internal */
export type PatchOutcome = { readonly applies: true } | { readonly applies: false; readonly error: string } | { readonly applies: 'unknown' };

const UNKNOWN = { applies: 'unknown' } as const;

class Unknown {}
class Failure {
  constructor(readonly error: string) {}
}

/** Go strconv.Atoi, or its error text. */
function atoi(key: string): bigint | Failure {
  const n = goAtoi(key);
  return typeof n === 'bigint' ? n : new Failure(`strconv.Atoi: parsing ${goJsonString(key)}: ${n}`);
}

const invalidIndex = (i: bigint) => new Failure(`Unable to access invalid index: ${i}: ${INVALID_INDEX}`);

/** A container of the document and the operations the library runs on it. */
type Container = Extract<DocNode, { t: 'object' } | { t: 'array' }>;

/** The position of `key` in an array of known length, as partialArray.get checks it. */
function arrayIndex(items: readonly DocNode[], key: string): number | Failure {
  const n = atoi(key);
  if (n instanceof Failure) return n;
  const len = BigInt(items.length);
  let i = n;
  if (i < 0n) {
    if (i < -len) return invalidIndex(i);
    i += len;
  }
  return i >= len ? invalidIndex(i) : Number(i);
}

/** partialDoc.get / partialArray.get: the node, absent (an object's missing key), or a failure. */
function get(con: Container, key: string): DocNode | 'absent' | Failure | Unknown {
  if (con.t === 'object') {
    if (key === '') return new Unknown();
    const v = con.keys.get(key);
    if (v !== undefined) return v;
    return con.maybe.has(key) || con.open ? new Unknown() : 'absent';
  }
  if (con.items === undefined) {
    const n = atoi(key);
    return n instanceof Failure ? n : new Unknown();
  }
  const i = arrayIndex(con.items, key);
  return i instanceof Failure ? i : con.items[i];
}

/** partialDoc.add (set) / partialArray.add. */
function add(con: Container, key: string, value: DocNode): undefined | Failure | Unknown {
  if (con.t === 'object') {
    if (key === '') return new Unknown();
    con.keys.set(key, value);
    con.maybe.delete(key);
    return undefined;
  }
  if (key === '-') {
    con.items?.push(value);
    return undefined;
  }
  const n = atoi(key);
  if (n instanceof Failure) return new Failure(`value was not a proper array index: '${key}': ${n.error}`);
  if (con.items === undefined) return new Unknown();
  const size = BigInt(con.items.length + 1);
  let i = n;
  if (i >= size) return invalidIndex(i);
  if (i < 0n) {
    if (i < -size) return invalidIndex(i);
    i += size;
  }
  con.items.splice(Number(i), 0, value);
  return undefined;
}

/** partialDoc.remove / partialArray.remove. */
function remove(con: Container, key: string): undefined | Failure | Unknown {
  if (con.t === 'object') {
    if (key === '') return new Unknown();
    if (con.keys.delete(key)) return undefined;
    return con.maybe.has(key) || con.open ? new Unknown() : new Failure(`unable to remove nonexistent key: ${key}: ${MISSING}`);
  }
  const n = atoi(key);
  if (n instanceof Failure) return n;
  if (con.items === undefined) return new Unknown();
  const len = BigInt(con.items.length);
  let i = n;
  if (i >= len) return invalidIndex(i);
  if (i < 0n) {
    if (i < -len) return invalidIndex(i);
    i += len;
  }
  con.items.splice(Number(i), 1);
  return undefined;
}

const decodeKey = (k: string) => k.replace(/~[01]/g, (m) => (m === '~1' ? '/' : '~'));

/**
 * findObject: the container of the path's last segment and that segment (decoded), `missing`
 * when a segment on the way is not there or not a container. The first segment is skipped
 * whatever it is (the library splits on `/` and never checks the leading one).
 */
function findObject(root: Container, path: string): { readonly con: Container; readonly key: string } | 'missing' | Unknown {
  if (path === '') return new Unknown();
  const split = path.split('/');
  if (split.length < 2) return 'missing';
  let doc: Container = root;
  for (const part of split.slice(1, -1)) {
    const next = get(doc, decodeKey(part));
    if (next instanceof Unknown) return next;
    if (next === 'absent' || next instanceof Failure) return 'missing';
    if (next.t === 'unknown') return new Unknown();
    if (next.t === 'scalar') return 'missing';
    doc = next;
  }
  const key = decodeKey(split[split.length - 1]);
  return key === '' ? new Unknown() : { con: doc, key };
}

/** A value of a patch as a document node (everything in it known). */
function nodeOf(v: GoJson): DocNode {
  switch (v.kind) {
    case 'object':
      return { t: 'object', keys: new Map(v.entries.map(([k, x]) => [k, nodeOf(x)])), maybe: new Set(), open: false };
    case 'array':
      return { t: 'array', items: v.items.map(nodeOf) };
    default:
      return { t: 'scalar', raw: v.raw };
  }
}

function copyNode(n: DocNode): DocNode {
  switch (n.t) {
    case 'object':
      return { t: 'object', keys: new Map([...n.keys].map(([k, v]) => [k, copyNode(v)])), maybe: new Set(n.maybe), open: n.open };
    case 'array':
      return { t: 'array', items: n.items?.map(copyNode) };
    default:
      return n;
  }
}

/** Whether a value is JSON null, or no value (a `test` without one). */
const isNull = (n: DocNode | undefined) => n === undefined || (n.t === 'scalar' && n.raw === 'null');

/** lazyNode.equal on known values; undefined when a value is unknown or holds `null` (where the library's comparison is erratic). */
function equal(a: DocNode, b: DocNode): boolean | undefined {
  if (a.t === 'unknown' || b.t === 'unknown') return undefined;
  if (a.t === 'scalar' || b.t === 'scalar') {
    if (isNull(a) || isNull(b)) return undefined;
    if (a.t !== 'scalar' || b.t !== 'scalar') return false;
    if (a.raw === undefined || b.raw === undefined) return undefined;
    // Strings compare by value, anything else by its compacted text (1 and 1.0 differ).
    if (a.raw.startsWith('"') && b.raw.startsWith('"')) return JSON.parse(a.raw) === JSON.parse(b.raw);
    return a.raw === b.raw;
  }
  if (a.t === 'object' && b.t === 'object') {
    if (a.open || b.open || a.maybe.size > 0 || b.maybe.size > 0) return undefined;
    if (a.keys.size !== b.keys.size) return false;
    let result: boolean | undefined = true;
    for (const [k, v] of a.keys) {
      const w = b.keys.get(k);
      if (w === undefined) return false;
      const e = equal(v, w);
      if (e === false) return false;
      if (e === undefined) result = undefined;
    }
    return result;
  }
  if (a.t === 'array' && b.t === 'array') {
    if (a.items === undefined || b.items === undefined) return undefined;
    if (a.items.length !== b.items.length) return false;
    let result: boolean | undefined = true;
    for (let i = 0; i < a.items.length; i++) {
      const e = equal(a.items[i], b.items[i]);
      if (e === false) return false;
      if (e === undefined) result = undefined;
    }
    return result;
  }
  return false;
}

/** Runs one operation; a Failure or Unknown ends the patch. */
function run(root: Container, op: Operation): undefined | Failure | Unknown {
  const path = (stringMember(op, 'path') as { value: string }).value;
  const value = op?.get('value');
  const kind = kindOf(op);
  if (kind === 'move' || kind === 'copy') return moveOrCopy(root, op, kind === 'move', path);
  const found = findObject(root, path);
  if (found instanceof Unknown) return found;
  switch (kind) {
    case 'add': {
      if (found === 'missing') return new Failure(`add operation does not apply: doc is missing path: "${path}": ${MISSING}`);
      const r = add(found.con, found.key, nodeOf(value!));
      return r instanceof Failure ? new Failure(`error in add for path: '${path}': ${r.error}`) : r;
    }
    case 'remove': {
      if (found === 'missing') return new Failure(`remove operation does not apply: doc is missing path: "${path}": ${MISSING}`);
      const r = remove(found.con, found.key);
      return r instanceof Failure ? new Failure(`error in remove for path: '${path}': ${r.error}`) : r;
    }
    case 'replace': {
      if (found === 'missing') return new Failure(`replace operation does not apply: doc is missing path: ${path}: ${MISSING}`);
      const current = get(found.con, found.key);
      if (current instanceof Unknown) return current;
      if (current === 'absent' || current instanceof Failure) return new Failure(`replace operation does not apply: doc is missing key: ${path}: ${MISSING}`);
      if (found.con.t === 'object') found.con.keys.set(found.key, nodeOf(value!));
      else found.con.items![arrayIndex(found.con.items!, found.key) as number] = nodeOf(value!);
      return undefined;
    }
    default: {
      // test
      if (found === 'missing') return new Failure(`test operation does not apply: is missing path: ${path}: ${MISSING}`);
      const current = get(found.con, found.key);
      if (current instanceof Unknown) return current;
      if (current instanceof Failure) return new Failure(`error in test for path: '${path}': ${current.error}`);
      const expected = value === undefined ? undefined : nodeOf(value);
      const failed = new Failure(`testing value ${path} failed: test failed`);
      // A missing key, or one holding null (which the library reads as no node), passes a test
      // for null; any other value fails it.
      if (current === 'absent' || isNull(current)) return isNull(expected) ? undefined : failed;
      if (isNull(expected)) return failed;
      const same = equal(current, expected!);
      return same === undefined ? new Unknown() : same ? undefined : failed;
    }
  }
}

function moveOrCopy(root: Container, op: Operation, move: boolean, path: string): undefined | Failure | Unknown {
  const from = (stringMember(op, 'from') as { value: string }).value;
  if (move && from === '') return new Failure(`unable to move entire document to another path: ${INVALID}`);
  const source = findObject(root, from);
  if (source instanceof Unknown) return source;
  if (source === 'missing') {
    return new Failure(
      move
        ? `move operation does not apply: doc is missing from path: ${from}: ${MISSING}`
        : `copy operation does not apply: doc is missing from path: "${from}": ${MISSING}`,
    );
  }
  const value = get(source.con, source.key);
  if (value instanceof Unknown) return value;
  if (value === 'absent' || value instanceof Failure) {
    const error = value === 'absent' ? `unable to get nonexistent key: ${source.key}: ${MISSING}` : value.error;
    return new Failure(move ? `error in move for path: '${source.key}': ${error}` : `error in copy for from: '${from}': ${error}`);
  }
  if (move) {
    const r = remove(source.con, source.key);
    if (r !== undefined) return r;
  }
  // A move looks its destination up after the removal.
  const target = findObject(root, path);
  if (target instanceof Unknown) return target;
  if (target === 'missing') return new Failure(`${move ? 'move' : 'copy'} operation does not apply: doc is missing destination path: ${path}: ${MISSING}`);
  const a = add(target.con, target.key, move ? value : copyNode(value));
  if (!(a instanceof Failure)) return a;
  return new Failure(move ? `error in move for path: '${path}': ${a.error}` : `error while adding value during copy: ${a.error}`);
}

/**
 * Applies decoded operations, in order, to `document` (changed in place), until one fails or
 * its outcome depends on what the document does not know.
 * @internal
 */
export function applyPatch(document: DocNode, operations: readonly Operation[]): PatchOutcome {
  if (document.t !== 'object') return UNKNOWN;
  for (const op of operations) {
    const r = run(document, op);
    if (r instanceof Failure) return { applies: false, error: r.error };
    if (r instanceof Unknown) return UNKNOWN;
  }
  return { applies: true };
}
