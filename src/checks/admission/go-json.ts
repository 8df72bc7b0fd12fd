/*
 * JSON as the CloudNativePG webhook reads the JSON it finds inside strings (an annotation, a
 * decoded promotion token): Go's encoding/json, which keeps the source text of each value where
 * it matters (a number decoded into an `int`, a raw value re-encoded into an error message),
 * decodes an object into a struct by case-insensitive field name, and answers a value of the
 * wrong type with an `UnmarshalTypeError` whose text the webhook passes on.
 */
import { goAtoi } from '../../manifests/go-numbers';

/** A JSON value, with the exact source text of every value. @internal */
export type GoJson =
  | { readonly kind: 'null'; readonly raw: string }
  | { readonly kind: 'bool'; readonly value: boolean; readonly raw: string }
  | { readonly kind: 'number'; readonly raw: string }
  | { readonly kind: 'string'; readonly value: string; readonly raw: string }
  | { readonly kind: 'array'; readonly items: readonly GoJson[]; readonly raw: string }
  | { readonly kind: 'object'; readonly entries: ReadonlyArray<readonly [string, GoJson]>; readonly raw: string };

/** Go's limit on nesting (encoding/json maxNestingDepth): deeper input is a syntax error. */
const MAX_DEPTH = 10000;

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
// A string with only the escapes JSON allows (raw control characters are refused by `string`).
const STRING = /"(?:[^"\\]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*"/y;
const WHITESPACE = /[ \t\n\r]*/y;

/** The string literal at `at` (JSON: no raw control character), or undefined. */
function stringAt(text: string, at: number): string | undefined {
  STRING.lastIndex = at;
  const m = STRING.exec(text);
  if (m === null) return undefined;
  for (let i = 0; i < m[0].length; i++) if (m[0].charCodeAt(i) < 0x20) return undefined;
  return m[0];
}

interface Open {
  readonly kind: 'array' | 'object';
  readonly start: number;
  readonly items: GoJson[];
  readonly keys: string[];
}

/**
 * Parses `text` as RFC 8259 JSON (what Go's decoder accepts), without recursion, so that no
 * nesting makes it throw; `undefined` when it is not JSON.
 * @internal
 */
export function readGoJson(text: string): GoJson | undefined {
  let at = 0;
  const skip = () => {
    WHITESPACE.lastIndex = at;
    WHITESPACE.exec(text);
    at = WHITESPACE.lastIndex;
  };
  const stack: Open[] = [];
  let done: GoJson | undefined;
  // Each turn reads one value (opening a container pushes it) and then closes what it can.
  for (;;) {
    skip();
    let value: GoJson | undefined;
    const c = text[at];
    if (c === '{' || c === '[') {
      if (stack.length >= MAX_DEPTH) return undefined;
      const open: Open = { kind: c === '{' ? 'object' : 'array', start: at, items: [], keys: [] };
      at++;
      skip();
      const close = c === '{' ? '}' : ']';
      if (text[at] === close) {
        at++;
        value = c === '{' ? { kind: 'object', entries: [], raw: text.slice(open.start, at) } : { kind: 'array', items: [], raw: text.slice(open.start, at) };
      } else {
        stack.push(open);
        if (open.kind === 'object' && !readKey(open)) return undefined;
        continue;
      }
    } else {
      value = scalar();
      if (value === undefined) return undefined;
    }
    // Attach the value, closing every container that ends here.
    for (;;) {
      const top = stack[stack.length - 1];
      if (top === undefined) {
        done = value;
        break;
      }
      top.items.push(value);
      skip();
      if (text[at] === ',') {
        at++;
        if (top.kind === 'object' && !readKey(top)) return undefined;
        break;
      }
      if (text[at] !== (top.kind === 'object' ? '}' : ']')) return undefined;
      at++;
      stack.pop();
      const raw = text.slice(top.start, at);
      value =
        top.kind === 'array' ? { kind: 'array', items: top.items, raw } : { kind: 'object', entries: top.keys.map((k, i) => [k, top.items[i]] as const), raw };
    }
    if (done !== undefined) break;
  }
  skip();
  return at === text.length ? done : undefined;

  function readKey(open: Open): boolean {
    skip();
    const literal = stringAt(text, at);
    if (literal === undefined) return false;
    at += literal.length;
    open.keys.push(JSON.parse(literal) as string);
    skip();
    if (text[at] !== ':') return false;
    at++;
    return true;
  }

  function scalar(): GoJson | undefined {
    const start = at;
    for (const [word, value] of [
      ['true', { kind: 'bool', value: true, raw: 'true' }],
      ['false', { kind: 'bool', value: false, raw: 'false' }],
      ['null', { kind: 'null', raw: 'null' }],
    ] as const) {
      if (text.startsWith(word, at)) {
        at += word.length;
        return value;
      }
    }
    if (text[at] === '"') {
      const literal = stringAt(text, at);
      if (literal === undefined) return undefined;
      at += literal.length;
      return { kind: 'string', value: JSON.parse(literal) as string, raw: literal };
    }
    NUMBER.lastIndex = at;
    const m = NUMBER.exec(text);
    if (m === null || m[0] === '') return undefined;
    at = NUMBER.lastIndex;
    return { kind: 'number', raw: text.slice(start, at) };
  }
}

/** The word Go's `UnmarshalTypeError` uses for a JSON value. @internal */
export function goJsonKind(v: GoJson): string {
  return v.kind === 'bool' ? 'bool' : v.kind;
}

/** One field of a Go struct that JSON decodes into. @internal */
export interface GoField {
  /** The JSON name of the field (its `json` tag). */
  readonly json: string;
  readonly type: 'string' | 'bool' | 'int';
}

/** What decoding into a struct gives: the fields set (by JSON name), and Go's error, if any. @internal */
export interface GoDecoded {
  readonly values: Readonly<Record<string, string | boolean | bigint>>;
  readonly error?: string;
}

/** Go's case-insensitive name match (Unicode simple folding, which also maps ſ to s and K to k). */
const fold = (s: string) => s.toLowerCase().toUpperCase();

/**
 * Decodes `value` into a Go struct named `struct` (`package.Type`) with `fields`, as
 * encoding/json's Unmarshal does: `null` leaves everything unset; another non-object is an
 * error; a key matches a field exactly or else case-insensitively, the last one wins; a `null`
 * field value is skipped; unknown keys are ignored; a value of the wrong type is an error (the
 * first one is returned, decoding goes on).
 * @internal
 */
export function decodeGoStruct(value: GoJson, struct: string, fields: readonly GoField[]): GoDecoded {
  const values: Record<string, string | boolean | bigint> = {};
  if (value.kind === 'null') return { values };
  if (value.kind !== 'object') return { values, error: `json: cannot unmarshal ${goJsonKind(value)} into Go value of type ${struct}` };
  const typeName = struct.slice(struct.lastIndexOf('.') + 1);
  let error: string | undefined;
  for (const [key, v] of value.entries) {
    const field = fields.find((f) => f.json === key) ?? fields.find((f) => fold(f.json) === fold(key));
    if (field === undefined || v.kind === 'null') continue;
    const decoded = decodeScalar(v, field.type);
    if (decoded === undefined) {
      const what = field.type === 'int' && v.kind === 'number' ? `number ${v.raw}` : goJsonKind(v);
      error ??= `json: cannot unmarshal ${what} into Go struct field ${typeName}.${field.json} of type ${field.type}`;
      continue;
    }
    values[field.json] = decoded;
  }
  return error === undefined ? { values } : { values, error };
}

function decodeScalar(v: GoJson, type: GoField['type']): string | boolean | bigint | undefined {
  if (type === 'string') return v.kind === 'string' ? v.value : undefined;
  if (type === 'bool') return v.kind === 'bool' ? v.value : undefined;
  // An int takes an integer literal within 64 bits (strconv.ParseInt): no fraction, no exponent.
  if (v.kind !== 'number') return undefined;
  const n = goAtoi(v.raw);
  return typeof n === 'bigint' ? n : undefined;
}

/**
 * A string as Go's json.Marshal writes it: HTML-safe (`<`, `>`, `&` escaped), U+2028 and U+2029
 * escaped, control characters as `\n`, `\r`, `\t`, `\b`, `\f` or `\u00XX`.
 * @internal
 */
export function goJsonString(s: string): string {
  let out = '"';
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    if (ch === '"' || ch === '\\') out += `\\${ch}`;
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (ch === '\b') out += '\\b';
    else if (ch === '\f') out += '\\f';
    else if (c < 0x20 || ch === '<' || ch === '>' || ch === '&' || c === 0x2028 || c === 0x2029) out += `\\u${c.toString(16).padStart(4, '0')}`;
    else out += ch;
  }
  return `${out}"`;
}

/**
 * The source text of a value as Go re-encodes a `json.RawMessage`: whitespace outside strings
 * dropped, and inside strings `<`, `>`, `&`, U+2028 and U+2029 escaped (encoding/json compact
 * with HTML escaping); everything else as written.
 * @internal
 */
export function goCompact(raw: string): string {
  let out = '';
  let inString = false;
  for (let i = 0; i < raw.length; i++) {
    const ch = raw[i];
    if (inString) {
      if (ch === '\\') {
        out += ch + raw[++i];
        continue;
      }
      if (ch === '"') inString = false;
      const c = ch.charCodeAt(0);
      out += ch === '<' || ch === '>' || ch === '&' || c === 0x2028 || c === 0x2029 ? `\\u${c.toString(16).padStart(4, '0')}` : ch;
    } else if (ch === '"') {
      inString = true;
      out += ch;
    } else if (!' \t\n\r'.includes(ch)) {
      out += ch;
    }
  }
  return out;
}
