/*
 * YAML as kubectl reads it. `kubectl apply -f` reads a file through k8s.io/cli-runtime v0.36.2
 * pkg/resource/visitor.go StreamVisitor.Visit: k8s.io/apimachinery v0.36.3 pkg/util/yaml/decoder.go
 * NewYAMLOrJSONDecoder (a stream that starts with `{` is read as JSON values, else YAMLReader.Read
 * cuts it into documents at every line that starts with `---`), and each YAML document becomes JSON
 * through sigs.k8s.io/yaml v1.6.0 yaml.go Unmarshal (yamlToJSONTarget: go.yaml.in/yaml/v2 v2.4.3
 * Unmarshal into an interface{}, convertToJSONableObject, encoding/json Marshal). Kubernetes 1.36
 * pins these versions (kubectl, apimachinery and cli-runtime go.mod at v0.36.x).
 *
 * The `yaml` package only parses (failsafe schema, known tags left unresolved: every scalar is its
 * text; `src/manifests/load.ts` loads it on first use and passes it in); this file
 * decides what each node means as go-yaml v2 does (YAML 1.1 scalars, merge keys, aliases) and
 * what JSON sigs.k8s.io/yaml makes of it.
 */
import type * as YAML from 'yaml';
import { goParseIntBase0, goParseUintBase0 } from './go-numbers';

/** Input kubectl refuses, at an offset of the text it was given. @internal */
export class KubectlYamlError extends Error {
  constructor(
    message: string,
    public readonly offset: number,
  ) {
    super(message);
  }
}

// ------------------------------------------------------------------------------------------------
// Documents: apimachinery pkg/util/yaml/decoder.go YAMLReader.Read and LineReader.Read

/** One document of a stream as kubectl cuts it. @internal */
export interface KubectlChunk {
  /** The document's lines, each ended by `\n` (a `\r\n` line end becomes `\n`), as go-yaml gets them. */
  readonly text: string;
  /** Offset of its first character in the stream. */
  readonly offset: number;
  /** 1-based line of its first character in the stream. */
  readonly line: number;
}

/**
 * Cuts a YAML stream into documents as kubectl does: a line that starts with `---` ends the
 * document before it, whatever YAML would make of it; after the three dashes only spaces and a
 * comment may follow (`--- {a: 1}`, `--- |`, `---x` are refused). Documents of blank lines only
 * are kept (they read as null); nothing between two separators gives no document. `...` is no
 * separator here: go-yaml reads the first document of a piece and ignores what follows it.
 * @internal
 */
export function splitAsKubectl(text: string): KubectlChunk[] {
  const chunks: KubectlChunk[] = [];
  const crlf = text.includes('\r\n');
  let start = -1; // offset of the current document's first line
  let startLine = 0;
  const flush = (end: number) => {
    if (start < 0) return;
    let body = text.slice(start, end);
    if (crlf) body = body.replace(/\r\n/g, '\n');
    if (!body.endsWith('\n')) body += '\n';
    chunks.push({ text: body, offset: start, line: startLine });
    start = -1;
  };
  let line = 1;
  for (let at = 0; at < text.length; line++) {
    const nl = text.indexOf('\n', at);
    const end = nl < 0 ? text.length : nl + 1;
    if (text.startsWith('---', at)) {
      let rest = text.slice(at + 3, nl < 0 ? text.length : nl);
      if (rest.endsWith('\r') && nl >= 0) rest = rest.slice(0, -1);
      rest = rest.replace(GO_SPACE_EDGES, '');
      if (rest.length > 0 && rest[0] !== '#') {
        throw new KubectlYamlError(
          `kubectl reads a line that starts with --- as a document separator, and refuses "${rest}" after it ("invalid Yaml document separator"); put the content on the next line`,
          at,
        );
      }
      flush(at);
    } else if (start < 0) {
      start = at;
      startLine = line;
    }
    at = end;
  }
  flush(text.length);
  return chunks;
}

/** Go's `strings.TrimSpace` (unicode.IsSpace at both ends). */
const GO_SPACE_EDGES =
  /^[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+|[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+$/g;
/** Go's `unicode.IsSpace` run at the start of a stream (a byte order mark is no space). */
const GO_LEADING_SPACE = /^[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]*/;

// ------------------------------------------------------------------------------------------------
// JSON streams: decoder.go NewYAMLOrJSONDecoder and YAMLOrJSONDecoder.Decode

/** A JSON value of a JSON stream, as kubectl keeps it. @internal */
export interface JsonStreamValue {
  readonly value: unknown;
  readonly offset: number;
}

/** What a stream that starts with `{` gives: its JSON values, and where YAML takes over, if it does. @internal */
export interface JsonStream {
  readonly values: JsonStreamValue[];
  /** The offset where the rest of the stream is read as YAML; undefined when it is all JSON. */
  readonly yamlFrom?: number;
}

/** The offset just past the JSON value that starts at `at`, found by its brackets and strings (not validated). */
function jsonValueEnd(text: string, at: number): number {
  let depth = 0;
  let i = at;
  const first = text[i];
  if (first !== '{' && first !== '[' && first !== '"') {
    // a number, true, false or null ends at a delimiter
    while (i < text.length && !/[\s,\]}{["]/.test(text[i])) i++;
    return i;
  }
  for (; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      for (i++; i < text.length && text[i] !== '"'; i++) if (text[i] === '\\') i++;
      if (depth === 0) return i + 1;
    } else if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') {
      depth--;
      if (depth === 0) return i + 1;
    }
  }
  return text.length;
}

/** The deepest nesting of brackets outside strings in `text`. */
function jsonDepth(text: string): { depth: number; at: number } {
  let depth = 0;
  let max = 0;
  let at = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      for (i++; i < text.length && text[i] !== '"'; i++) if (text[i] === '\\') i++;
    } else if (c === '{' || c === '[') {
      depth++;
      if (depth > max) [max, at] = [depth, i];
    } else if (c === '}' || c === ']') depth--;
  }
  return { depth: max, at };
}

/**
 * A stream whose first non-space character is `{` is read as JSON values, one after another;
 * when the first or the second value does not parse, kubectl reads the stream from there on as
 * YAML (after the spaces up to the first line end), and a later one that does not parse is an
 * error. Undefined for a stream that does not start with `{` (read as YAML).
 * @param maxDepth values nested deeper are refused
 * @internal
 */
export function readJsonStream(text: string, maxDepth: number): JsonStream | undefined {
  let at = GO_LEADING_SPACE.exec(text)![0].length;
  if (text[at] !== '{') return undefined;
  const values: JsonStreamValue[] = [];
  let consumed = 0; // where the last value that parsed ends
  for (;;) {
    const end = jsonValueEnd(text, at);
    const raw = text.slice(at, end);
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch (e) {
      if (values.length <= 1) return { values, yamlFrom: skipToLineEnd(text, consumed) };
      const pos = /at position (\d+)/.exec((e as Error).message);
      throw new KubectlYamlError(`the stream is read as JSON, and this value does not parse: ${(e as Error).message}`, at + (pos ? Number(pos[1]) : 0));
    }
    const deep = jsonDepth(raw);
    if (deep.depth > maxDepth)
      throw new KubectlYamlError(`collections nested more than ${maxDepth} levels deep; a Kubernetes manifest is never this deep`, at + deep.at);
    values.push({ value, offset: at });
    consumed = end;
    // encoding/json skips JSON's own white space between values
    JSON_SPACE.lastIndex = end;
    at = end + JSON_SPACE.exec(text)![0].length;
    if (at >= text.length) return { values };
  }
}

const JSON_SPACE = /[ \t\r\n]*/y;

/** After the spaces up to and including the first line end from `at` (decoder.go consumeWhitespace). */
function skipToLineEnd(text: string, at: number): number {
  const ws = /^[\t\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]*\n?/.exec(text.slice(at))!;
  return at + ws[0].length;
}

// ------------------------------------------------------------------------------------------------
// Scalars: go.yaml.in/yaml/v2 v2.4.3 resolve.go resolve, decode.go decoder.scalar

const TAG = 'tag:yaml.org,2002:';
const STR = `${TAG}str`;
const BOOL = `${TAG}bool`;
const INT = `${TAG}int`;
const FLOAT = `${TAG}float`;
const NULL = `${TAG}null`;
const TIMESTAMP = `${TAG}timestamp`;
const BINARY = `${TAG}binary`;
const MERGE = `${TAG}merge`;

/** A scalar as go-yaml v2 decodes it into an interface{}: its Go type and value. @internal */
export type GoScalar =
  | { readonly type: 'string'; readonly value: string }
  | { readonly type: 'int'; readonly value: bigint }
  | { readonly type: 'uint64'; readonly value: bigint }
  | { readonly type: 'float64'; readonly value: number }
  | { readonly type: 'bool'; readonly value: boolean }
  | { readonly type: 'nil' };

const NIL: GoScalar = { type: 'nil' };

/** The words go-yaml v2 resolves by a table (YAML 1.1 booleans, nulls, infinities, NaN). */
const RESOLVE_MAP: ReadonlyMap<string, [string, GoScalar]> = (() => {
  const m = new Map<string, [string, GoScalar]>();
  const add = (words: string[], tag: string, value: GoScalar) => words.forEach((w) => m.set(w, [tag, value]));
  add(['y', 'Y', 'yes', 'Yes', 'YES', 'true', 'True', 'TRUE', 'on', 'On', 'ON'], BOOL, { type: 'bool', value: true });
  add(['n', 'N', 'no', 'No', 'NO', 'false', 'False', 'FALSE', 'off', 'Off', 'OFF'], BOOL, { type: 'bool', value: false });
  add(['', '~', 'null', 'Null', 'NULL'], NULL, NIL);
  add(['.nan', '.NaN', '.NAN'], FLOAT, { type: 'float64', value: NaN });
  add(['.inf', '.Inf', '.INF', '+.inf', '+.Inf', '+.INF'], FLOAT, { type: 'float64', value: Infinity });
  add(['-.inf', '-.Inf', '-.INF'], FLOAT, { type: 'float64', value: -Infinity });
  add(['<<'], MERGE, { type: 'string', value: '<<' });
  return m;
})();

/** The first characters that make go-yaml v2 try more than a string (resolve.go resolveTable). */
function hintOf(c: string | undefined): 'S' | 'D' | 'M' | '.' | 'N' | undefined {
  if (c === undefined) return 'N';
  if (c === '+' || c === '-') return 'S';
  if (c >= '0' && c <= '9') return 'D';
  if ('yYnNtTfFoO~'.includes(c)) return 'M';
  if (c === '.') return '.';
  return undefined;
}

const YAML_STYLE_FLOAT = /^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$/;
const DOT_FLOAT = /^\.[0-9]+([eE][-+]?[0-9]+)?$/;

/** Go `strconv.ParseFloat(text, 64)` on text of one of the decimal forms above: undefined on overflow. */
function parseDecimalFloat(text: string): number | undefined {
  const v = Number(text);
  return Number.isFinite(v) ? v : undefined;
}

function intScalar(v: bigint): GoScalar {
  return { type: 'int', value: v };
}

/** Whether `text` is a date or time of the layouts go-yaml v2 tries (resolve.go parseTimestamp). */
function isGoTimestamp(text: string): boolean {
  const m = /^(\d{4})-(\d{1,2})-(\d{1,2})(?:([Tt ])(\d{1,2}):(\d{1,2}):(\d{1,2})(\.\d+)?(Z|[+-]\d{2}:\d{2})?)?$/.exec(text);
  if (!m) return false;
  const [, y, mo, d, sep, h, mi, s, , zone] = m;
  const month = Number(mo);
  const days = new Date(Date.UTC(Number(y), month, 0)).getUTCDate();
  if (month < 1 || month > 12 || Number(d) < 1 || Number(d) > days) return false;
  if (sep === undefined) return true;
  if (Number(h) > 23 || Number(mi) > 59 || Number(s) > 59) return false;
  // `T` and `t` need a zone; a space takes none
  return sep === ' ' ? zone === undefined : zone !== undefined;
}

/** resolve.go resolve: the tag and value of a plain (or tagged) scalar; throws as go-yaml fails. */
function resolve(tag: string, text: string): [string, GoScalar] {
  if (!(tag === '' || tag === STR || tag === BOOL || tag === INT || tag === FLOAT || tag === NULL || tag === TIMESTAMP)) {
    return [tag, { type: 'string', value: text }];
  }
  const [rtag, out] = resolveUnchecked(tag, text);
  if (tag === '' || tag === rtag || tag === STR) return [rtag, out];
  if (tag === FLOAT && rtag === INT && out.type === 'int') return [FLOAT, { type: 'float64', value: Number(out.value) }];
  throw new Error(`cannot decode !!${rtag.slice(TAG.length)} \`${text}\` as a !!${tag.slice(TAG.length)}`);
}

function resolveUnchecked(tag: string, text: string): [string, GoScalar] {
  const hint = hintOf(text[0]);
  if (hint !== undefined && tag !== STR) {
    const known = RESOLVE_MAP.get(text);
    if (known) return known;
    if (hint === '.') {
      const f = DOT_FLOAT.test(text) ? parseDecimalFloat(text) : undefined;
      if (f !== undefined) return [FLOAT, { type: 'float64', value: f }];
    } else if (hint === 'D' || hint === 'S') {
      if ((tag === '' || tag === TIMESTAMP) && isGoTimestamp(text)) return [TIMESTAMP, { type: 'string', value: text }];
      const plain = text.replace(/_/g, '');
      const i = goParseIntBase0(plain);
      if (i !== undefined) return [INT, intScalar(i)];
      const u = goParseUintBase0(plain);
      if (u !== undefined) return [INT, { type: 'uint64', value: u }];
      if (YAML_STYLE_FLOAT.test(plain)) {
        const f = parseDecimalFloat(plain);
        if (f !== undefined) return [FLOAT, { type: 'float64', value: f }];
      }
    }
  }
  return [STR, { type: 'string', value: text }];
}

/** Go `base64.StdEncoding.DecodeString` (line ends ignored), as a UTF-8 string; undefined for bad data. */
function decodeBase64(text: string): string | undefined {
  const s = text.replace(/[\r\n]/g, '');
  if (s.length % 4 !== 0 || !/^[A-Za-z0-9+/]*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(s)) return undefined;
  return Buffer.from(s, 'base64').toString('utf8');
}

/**
 * What go-yaml v2 decodes a scalar into (decode.go decoder.scalar): a quoted or block scalar
 * without a tag is a string; a plain one, or one with a tag, is resolved.
 * @param text the scalar's value (escapes and folding applied)
 * @param plain whether it is written without quotes and not as a block
 * @param tag its tag as a full name (`tag:yaml.org,2002:int`, `!foo`, `!`), or '' for none
 * @internal
 */
export function goScalar(text: string, plain: boolean, tag: string): GoScalar {
  const implicit = (tag === '' && plain) || tag === '!';
  if (tag === '' && !implicit) return { type: 'string', value: text };
  const [rtag, out] = resolve(tag, text);
  if (rtag === BINARY) {
    const decoded = decodeBase64(text);
    if (decoded === undefined) throw new Error('!!binary value contains invalid base64 data');
    return { type: 'string', value: decoded };
  }
  return out;
}

/**
 * A float64 key as sigs.k8s.io/yaml writes it: Go `strconv.FormatFloat(f, 'g', -1, 32)`, the
 * shortest digits that read back as the same float32, with `.inf`, `-.inf` and `.nan`.
 */
function formatFloat32Key(x: number): string {
  const f = Math.fround(x);
  if (Number.isNaN(f)) return '.nan';
  if (f === Infinity) return '.inf';
  if (f === -Infinity) return '-.inf';
  if (f === 0) return Object.is(f, -0) ? '-0' : '0';
  let mantissa = '';
  let exp = 0;
  for (let p = 1; p <= 9; p++) {
    const s = f.toExponential(p - 1);
    if (Math.fround(Number(s)) === f || p === 9) {
      const [m, e] = s.split('e');
      mantissa = m;
      exp = Number(e);
      break;
    }
  }
  const neg = mantissa.startsWith('-');
  const digits = mantissa.replace(/[-.]/g, '');
  let out: string;
  if (exp < -4 || exp >= 6) {
    const e = Math.abs(exp);
    out = `${digits[0]}${digits.length > 1 ? `.${digits.slice(1)}` : ''}e${exp < 0 ? '-' : '+'}${e < 10 ? `0${e}` : e}`;
  } else if (exp < 0) {
    out = `0.${'0'.repeat(-exp - 1)}${digits}`;
  } else {
    const whole = digits.slice(0, exp + 1).padEnd(exp + 1, '0');
    const frac = digits.slice(exp + 1);
    out = frac ? `${whole}.${frac}` : whole;
  }
  return neg ? `-${out}` : out;
}

/**
 * A key as sigs.k8s.io/yaml v1.6.0 yaml.go convertToJSONableObject turns it into a JSON key, or
 * the error it gives (a null or uint64 key).
 * @internal
 */
export function jsonKeyOf(key: GoScalar): string | { error: string } {
  switch (key.type) {
    case 'string':
      return key.value;
    case 'int':
      return key.value.toString();
    case 'float64':
      return formatFloat32Key(key.value);
    case 'bool':
      return key.value ? 'true' : 'false';
    case 'uint64':
      return { error: `the key ${key.value} is beyond int64, and sigs.k8s.io/yaml refuses a uint64 key ("unsupported map key of type: uint64"); quote it` };
    case 'nil':
      return { error: 'a null key (empty, ~ or null): sigs.k8s.io/yaml refuses it ("unsupported map key of type: <nil>"); quote it or give it a name' };
  }
}

/** The JSON value of a scalar, or the error encoding/json gives (NaN and infinities). @internal */
export function jsonValueOf(s: GoScalar): unknown {
  switch (s.type) {
    case 'string':
    case 'bool':
      return s.value;
    case 'int':
    case 'uint64':
      return Number(s.value);
    case 'float64':
      if (!Number.isFinite(s.value)) return { error: `json: unsupported value: ${Number.isNaN(s.value) ? 'NaN' : s.value > 0 ? '+Inf' : '-Inf'}` };
      return s.value;
    case 'nil':
      return null;
  }
}

/** The identity of a key in go-yaml's map[interface{}]interface{} (type and value; NaN is no key twice). */
function goKeyIdentity(key: GoScalar, nanCount: { n: number }): string {
  switch (key.type) {
    case 'nil':
      return 'n';
    case 'float64':
      return Number.isNaN(key.value) ? `f:NaN#${nanCount.n++}` : `f:${key.value === 0 ? 0 : key.value}`;
    default:
      return `${key.type[0]}:${String(key.value)}`;
  }
}

// ------------------------------------------------------------------------------------------------
// Documents: decode.go decoder (mapping, merge, alias) and the JSON conversion

const ALIAS_RATIO_LOW = 400_000;
const ALIAS_RATIO_HIGH = 4_000_000;

/** decode.go allowedAliasRatio. */
function allowedAliasRatio(decodes: number): number {
  if (decodes <= ALIAS_RATIO_LOW) return 0.99;
  if (decodes >= ALIAS_RATIO_HIGH) return 0.1;
  return 0.99 - (0.89 * (decodes - ALIAS_RATIO_LOW)) / (ALIAS_RATIO_HIGH - ALIAS_RATIO_LOW);
}

type Node = YAML.Node | YAML.Pair | null | undefined;

/** A mapping's entries in the order go-yaml sets them: identity -> JSON key source and value. */
interface GoMap {
  readonly entries: Map<string, { readonly key: GoScalar; readonly at: number; value: unknown; jsonError?: KubectlYamlError }>;
}

interface Converted {
  readonly value: unknown;
  /**
   * Why sigs.k8s.io/yaml refuses the value once decoded (a NaN or an infinity, a null or uint64
   * key), found in what is left of it: a value that a later key replaces is never converted.
   */
  readonly jsonError?: KubectlYamlError;
  /** Unmarshal calls go-yaml makes to decode this node (decode.go decoder.unmarshal), aliases expanded. */
  readonly cost: number;
  /** The entries of a mapping, for a merge. */
  readonly map?: GoMap;
}

/**
 * Converts the first document of a piece as sigs.k8s.io/yaml YAMLToJSON reads it, into the value
 * JSON.parse would give of its JSON. Aliases share the converted value of their anchor (go-yaml
 * copies it; the values are equal and never changed).
 * @throws KubectlYamlError where sigs.k8s.io/yaml returns an error
 * @internal
 */
export function convertDocument(Y: typeof YAML, doc: YAML.Document.Parsed): unknown {
  const anchors = resolveAliases(Y, doc);
  const done = new Map<YAML.Node, Converted>();
  const inProgress = new Set<YAML.Node>();
  let decodes = 0;
  let aliased = 0;
  const offsetOf = (n: Node): number => (n && 'range' in n && n.range ? n.range[0] : (doc.range?.[0] ?? 0));
  const fail = (message: string, n: Node): never => {
    throw new KubectlYamlError(message, offsetOf(n));
  };
  const step = (count: number, viaAlias: boolean, n: Node) => {
    decodes += count;
    if (viaAlias) aliased += count;
    if (aliased > 100 && decodes > 1000 && aliased / decodes > allowedAliasRatio(decodes)) {
      fail('document contains excessive aliasing (go-yaml refuses a document that is mostly expanded aliases, as an alias bomb is)', n);
    }
  };

  const convert = (n: Node, asKey = false): Converted => {
    if (Y.isAlias(n)) {
      step(1, false, n);
      const target = anchors.get(n)!;
      if (inProgress.has(target)) fail(`anchor '${n.source}' value contains itself`, n);
      // an anchor on a merge key is never decoded on its own
      const c = done.get(target) ?? convert(target);
      step(c.cost, true, n);
      return {
        value: c.value,
        cost: 1 + c.cost,
        map: c.map,
        jsonError: c.jsonError && !asKey ? new KubectlYamlError(c.jsonError.message, offsetOf(n)) : undefined,
      };
    }
    step(1, false, n);
    const anchored = n && (Y.isScalar(n) || Y.isCollection(n)) && n.anchor ? n : undefined;
    if (anchored) inProgress.add(anchored);
    let c: Converted;
    if (Y.isMap(n)) c = convertMap(n);
    else if (Y.isSeq(n)) {
      let cost = 1;
      let jsonError: KubectlYamlError | undefined;
      const value = n.items.map((item) => {
        const e = convert(item as Node);
        cost += e.cost;
        jsonError ??= e.jsonError;
        return e.value;
      });
      c = { value, cost, jsonError };
    } else {
      const v = jsonValueOf(scalarOf(n));
      if (v !== null && typeof v === 'object') {
        const message = (v as { error: string }).error;
        c = { value: undefined, cost: 1, jsonError: asKey ? undefined : new KubectlYamlError(message, offsetOf(n)) };
      } else c = { value: v, cost: 1 };
    }
    if (anchored) {
      inProgress.delete(anchored);
      done.set(anchored, c);
    }
    return c;
  };

  const scalarOf = (n: Node): GoScalar => {
    if (!n) return NIL; // an empty node
    const s = n as YAML.Scalar;
    try {
      return goScalar(s.source ?? String(s.value ?? ''), s.type === 'PLAIN' || s.type === undefined, s.tag ?? '');
    } catch (e) {
      return fail((e as Error).message, n);
    }
  };

  /** decode.go decoder.mapping into a map[interface{}]interface{}; merges set keys in order. */
  const convertMap = (n: YAML.YAMLMap): Converted => {
    const map: GoMap = { entries: new Map() };
    const nans = { n: 0 };
    let cost = 1;
    const set = (key: GoScalar, at: number, value: unknown, jsonError: KubectlYamlError | undefined) => {
      const id = goKeyIdentity(key, nans);
      const e = map.entries.get(id);
      if (e) [e.value, e.jsonError] = [value, jsonError];
      else map.entries.set(id, { key, at, value, jsonError });
    };
    const mergeFrom = (from: Converted, where: Node) => {
      if (!from.map) fail('map merge requires map or sequence of maps as the value', where);
      for (const e of from.map!.entries.values()) set(e.key, e.at, e.value, e.jsonError);
    };
    for (const pair of n.items) {
      const k = pair.key as Node;
      if (isMergeKey(Y, k)) {
        const v = pair.value as Node;
        if (Y.isSeq(v)) {
          // decode.go decoder.merge: from the last to the first, so that earlier maps win
          const parts = v.items.map((item) => {
            if (!Y.isMap(item) && !(Y.isAlias(item) && Y.isMap(anchors.get(item))))
              fail('map merge requires map or sequence of maps as the value', item as Node);
            return [convert(item as Node), item] as const;
          });
          for (let i = parts.length - 1; i >= 0; i--) {
            cost += parts[i][0].cost;
            mergeFrom(parts[i][0], parts[i][1] as Node);
          }
        } else {
          if (!Y.isMap(v) && !(Y.isAlias(v) && Y.isMap(anchors.get(v)))) fail('map merge requires map or sequence of maps as the value', v ?? k);
          const from = convert(v);
          cost += from.cost;
          mergeFrom(from, v);
        }
        continue;
      }
      if (Y.isCollection(k) || (Y.isAlias(k) && Y.isCollection(anchors.get(k)))) {
        fail('a mapping key is a sequence or a mapping; Kubernetes accepts only scalar keys', k);
      }
      const keyNode = Y.isAlias(k) ? (anchors.get(k) as Node) : k;
      const kc = convert(k, true);
      const key = scalarOf(keyNode);
      const vc = convert(pair.value as Node);
      cost += kc.cost + vc.cost;
      set(key, offsetOf(k ?? n), vc.value, vc.jsonError);
    }
    // sigs.k8s.io/yaml convertToJSONableObject: every key becomes a string
    const value: Record<string, unknown> = {};
    const from = new Map<string, GoScalar>();
    let keyError: KubectlYamlError | undefined;
    let valueError: KubectlYamlError | undefined;
    for (const e of map.entries.values()) {
      valueError ??= e.jsonError;
      const jk = jsonKeyOf(e.key);
      if (typeof jk !== 'string') {
        keyError ??= new KubectlYamlError(jk.error, e.at);
        continue;
      }
      const before = from.get(jk);
      if (before && !sameJson(value[jk], e.value)) {
        keyError ??= new KubectlYamlError(
          `the keys ${describeKey(before)} and ${describeKey(e.key)} of one mapping both become the JSON key "${jk}", and kubectl keeps either one at random; keep one of them`,
          e.at,
        );
        continue;
      }
      if (before) continue; // equal values: whichever kubectl keeps, the object is the same
      from.set(jk, e.key);
      if (jk === '__proto__') Object.defineProperty(value, jk, { value: e.value, writable: true, enumerable: true, configurable: true });
      else value[jk] = e.value;
    }
    return { value, cost, map, jsonError: keyError ?? valueError };
  };

  step(1, false, doc.contents); // the document node
  const top = convert(doc.contents as Node);
  if (top.jsonError) throw top.jsonError;
  return top.value;
}

/** Whether two converted values are the same JSON (-0 and 0 apart, as encoding/json writes them). */
function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return Object.is(a, b);
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  return ka.every((k) => Object.prototype.hasOwnProperty.call(b, k) && sameJson((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}

function describeKey(k: GoScalar): string {
  return k.type === 'string' ? JSON.stringify(k.value) : `${String((k as { value: unknown }).value)} (${k.type})`;
}

/** decode.go isMerge: a `<<` key written plain (or tagged `!` or `!!merge`). */
function isMergeKey(Y: typeof YAML, k: Node): boolean {
  if (!Y.isScalar(k) || (k.source ?? k.value) !== '<<') return false;
  const tag = k.tag ?? '';
  return (tag === '' && k.type === 'PLAIN') || tag === '!' || tag === MERGE;
}

/**
 * The node each alias names: the last node with that anchor before it in document order (the
 * order go-yaml's parser registers anchors, at the start of a node), in one pass.
 */
function resolveAliases(Y: typeof YAML, doc: YAML.Document.Parsed): Map<YAML.Alias, YAML.Node> {
  const anchors = new Map<string, YAML.Node>();
  const out = new Map<YAML.Alias, YAML.Node>();
  const stack: Node[] = [doc.contents as Node];
  while (stack.length > 0) {
    const n = stack.pop();
    if (!n) continue;
    if (Y.isAlias(n)) {
      const target = anchors.get(n.source);
      if (!target) throw new KubectlYamlError(`unknown anchor '${n.source}' referenced`, n.range?.[0] ?? 0);
      out.set(n, target);
      continue;
    }
    if (Y.isPair(n)) {
      stack.push(n.value as Node, n.key as Node);
      continue;
    }
    const node = n as YAML.Node;
    if ((Y.isScalar(node) || Y.isCollection(node)) && node.anchor) anchors.set(node.anchor, node);
    if (Y.isCollection(node)) for (let i = node.items.length - 1; i >= 0; i--) stack.push(node.items[i] as Node);
  }
  return out;
}
