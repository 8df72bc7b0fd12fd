/*
 * Flux post-build substitution (`spec.postBuild` of a `kustomize.toolkit.fluxcd.io` Kustomization),
 * as kustomize-controller v1.9.4 does it through github.com/fluxcd/pkg/kustomize v1.35.4 and
 * github.com/fluxcd/pkg/envsubst v1.7.0 (the versions its go.mod pins):
 *
 * - fluxcd/pkg kustomize/v1.35.4 kustomize/kustomize_varsub.go SubstituteVariables: each resource
 *   of the kustomize build is written as YAML (`Resource.AsYAML`, kyaml, which keeps the scalar
 *   styles and comments of the source), its text is substituted, and the result is read back with
 *   sigs.k8s.io/yaml `YAMLToJSON`: so `instances: ${N}` with N=2 becomes the integer 2, while
 *   `"${N}"` stays the string "2". A resource labelled or annotated
 *   `kustomize.toolkit.fluxcd.io/substitute: disabled` is left alone. Nothing is substituted when
 *   no variable is defined, unless `postBuild.substituteStrategy` is `Always`.
 * - same file, varSubstitution: every variable name must match `^[_[:alpha:]][_[:alpha:][:digit:]]*$`
 *   (ASCII), else the whole build fails. Non-strict mode gives an unset variable the value ''
 *   (defined); strict mode (kustomize-controller's feature gate `StrictPostBuildSubstitutions`, on
 *   by default from v1.9: internal/features/features.go) fails the build on an unset variable
 *   that has no default.
 * - same file, LoadVariables: `substituteFrom` ConfigMaps and Secrets are read in order (a later
 *   one overrides an earlier one), then `substitute` overrides them all; every value loses its
 *   '\n' characters. A missing reference fails the build unless it is `optional`.
 * - fluxcd/pkg envsubst/v1.7.0 envsubst/parse/parse.go, parse/scan.go, template.go, funcs.go,
 *   path/match.go: the grammar implemented below.
 *
 * This module is the ground layer: it imports nothing of the library but the YAML reader.
 */
import type * as YAML from 'yaml';
import { Json, asObject, asString, dig } from './json';
import { InputError, parseManifestText } from './load';

/** Flux's check of a variable name (`varsubRegex`): ASCII letters, digits and `_`, not starting with a digit. */
export const FLUX_VARIABLE_NAME = /^[_A-Za-z][_A-Za-z0-9]*$/;

/** The annotation (or label) that keeps Flux from substituting an object, and its value. */
export const SUBSTITUTE_ANNOTATION = 'kustomize.toolkit.fluxcd.io/substitute';
export const SUBSTITUTE_DISABLED = 'disabled';

// ---------------------------------------------------------------------------------------------
// the grammar (envsubst/parse)

/** Why a text does not parse, with envsubst's own words (`bad substitution`, ...). */
export class SubstitutionSyntaxError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SubstitutionSyntaxError';
  }
}

const BAD_SUBSTITUTION = 'bad substitution';
const MISSING_CLOSING_BRACE = 'missing closing brace';
const BAD_VARIABLE_NAME = 'unable to parse variable name';
const BAD_FUNC_SUBSTITUTION = 'unable to parse substitution within function';
const BAD_DEFAULT = 'unable to parse default function';

interface TextNode {
  readonly type: 'text';
  readonly value: string;
}

interface RefNode {
  readonly type: 'ref';
  /** The variable. */
  readonly name: string;
  /** The operator: '' for `${X}`, `:=`, `:-`, `=`, `:?`, `:+`, `#`, `##`, `%`, `%%`, `/`, `//`, `/#`, `/%`, `:`, `,`, `,,`, `^`, `^^`. */
  readonly op: string;
  readonly args: Node[];
  /** Where the reference is in the source text: [start, end) in UTF-16 units. */
  readonly start: number;
  readonly end: number;
}

type Node = TextNode | RefNode;

const EOF = '\0';
const IDENT = 1;
const LBRACK = 2;
const RBRACK = 4;
const ESCAPE = 8;
const DOLLAR = 1;
const BACKSLASH = 2;

type Accept = (r: string, i: number) => boolean;

const LETTER_OR_DIGIT = /^[\p{L}\p{Nd}_]$/u;
const acceptRune: Accept = () => true;
const acceptIdent: Accept = (r) => LETTER_OR_DIGIT.test(r);
const acceptColon: Accept = (r) => r === ':';
const acceptOneHash: Accept = (r, i) => r === '#' && i === 1;
const acceptNotClosing: Accept = (r) => r !== '}';
const acceptHashFunc: Accept = (r, i) => r === '#' && i < 3;
const acceptPercentFunc: Accept = (r, i) => r === '%' && i < 3;
const acceptDefaultFunc: Accept = (r, i) => (i === 1 && r === ':') || (i === 2 && '=-?+'.includes(r));
const acceptReplaceFunc: Accept = (r, i) => (i === 1 && r === '/') || (i === 2 && '/#%'.includes(r));
const acceptOneEqual: Accept = (r, i) => i === 1 && r === '=';
const acceptOneColon: Accept = (r, i) => i === 1 && r === ':';
const rejectColonClose: Accept = (r) => r !== ':' && r !== '}';
const acceptSlash: Accept = (r) => r === '/';
const acceptNotSlash: Accept = (r) => r !== '/';
const acceptCasingFunc: Accept = (r, i) => (r === ',' || r === '^') && i < 3;

/**
 * envsubst's scanner, over code points. Go's scanner deletes an escape character from its buffer
 * (`$$` reads as `$`); here the buffer is an array that keeps, for each code point, its offset in
 * the source, so that a reference knows its own source text.
 */
class Scanner {
  private readonly buf: string[] = [];
  private readonly at: number[] = [];
  private readonly sourceLength: number;
  private pos = 0;
  private start = 0;
  private width = 0;
  public mode = 0;
  public escapeChars = 0;
  public accept: Accept = acceptRune;

  constructor(source: string) {
    let offset = 0;
    for (const c of source) {
      this.buf.push(c);
      this.at.push(offset);
      offset += c.length;
    }
    this.sourceLength = source.length;
  }

  /** The source offset of the next code point (of the end when there is none). */
  public offset(): number {
    return this.pos < this.at.length ? this.at[this.pos] : this.sourceLength;
  }

  public read(): string {
    if (this.pos >= this.buf.length) {
      this.width = 0;
      return EOF;
    }
    this.width = 1;
    return this.buf[this.pos++];
  }

  public unread(): void {
    this.pos -= this.width;
  }

  public peek(): string {
    const r = this.read();
    this.unread();
    return r;
  }

  private skip(): void {
    this.buf.splice(this.pos - 1, 1);
    this.at.splice(this.pos - 1, 1);
  }

  public text(): string {
    return this.buf.slice(this.start, this.pos).join('');
  }

  public scan(): 'eof' | 'ident' | 'lbrack' | 'rbrack' | 'illegal' {
    this.start = this.pos;
    const r = this.read();
    if (r === EOF) return 'eof';
    if (this.scanLbrack(r)) return 'lbrack';
    if (this.scanRbrack(r)) return 'rbrack';
    if (this.scanIdent(r)) return 'ident';
    return 'illegal';
  }

  private scanIdent(first: string): boolean {
    if ((this.mode & IDENT) === 0) return false;
    if (this.scanEscaped(first)) this.skip();
    else if (!this.accept(first, this.pos - this.start)) return false;
    for (;;) {
      const r = this.read();
      if (r === EOF) {
        this.unread();
        break;
      }
      if (this.scanLbrack(r)) {
        this.unread();
        this.unread();
        break;
      }
      if (this.scanEscaped(r)) {
        this.skip();
        continue;
      }
      if (!this.accept(r, this.pos - this.start)) {
        this.unread();
        break;
      }
    }
    return true;
  }

  private scanLbrack(r: string): boolean {
    if ((this.mode & LBRACK) === 0 || r !== '$') return false;
    if (this.read() === '{') return true;
    this.unread();
    return false;
  }

  private scanRbrack(r: string): boolean {
    return (this.mode & RBRACK) !== 0 && r === '}';
  }

  private scanEscaped(r: string): boolean {
    if ((this.mode & ESCAPE) === 0) return false;
    if (r === '$' && (this.escapeChars & DOLLAR) !== 0 && this.peek() === '$') return true;
    if (r === '\\' && (this.escapeChars & BACKSLASH) !== 0) {
      const next = this.peek();
      return next === '/' || next === '\\';
    }
    return false;
  }
}

class Parser {
  private readonly s: Scanner;

  constructor(source: string) {
    this.s = new Scanner(source);
  }

  /** The whole text: a list of text and references (envsubst's parseAny, as a loop). */
  public parse(): Node[] {
    const nodes: Node[] = [];
    for (;;) {
      const s = this.s;
      s.accept = acceptRune;
      s.mode = IDENT | LBRACK | ESCAPE;
      s.escapeChars = DOLLAR;
      const start = s.offset();
      const token = s.scan();
      if (token === 'eof') return nodes;
      if (token === 'ident') nodes.push({ type: 'text', value: s.text() });
      else if (token === 'lbrack') nodes.push(this.parseFunc(start));
      else throw new SubstitutionSyntaxError(BAD_SUBSTITUTION);
    }
  }

  private ref(name: string, op: string, args: Node[], start: number): RefNode {
    return { type: 'ref', name, op, args, start, end: this.s.offset() };
  }

  /** After `${`, which starts at `start`. */
  private parseFunc(start: number): RefNode {
    const s = this.s;
    s.escapeChars = DOLLAR | BACKSLASH;
    if (s.peek() === '#') return this.parseLenFunc(start);
    s.accept = acceptIdent;
    s.mode = IDENT;
    if (s.scan() !== 'ident') throw new SubstitutionSyntaxError(BAD_VARIABLE_NAME);
    const name = s.text();
    switch (s.peek()) {
      case ':':
        return this.parseDefaultOrSubstr(name, start);
      case '=':
        return this.parseDefaultFunc(name, start);
      case ',':
      case '^':
        return this.parseCasingFunc(name, start);
      case '/':
        return this.parseReplaceFunc(name, start);
      case '#':
        return this.parseRemoveFunc(name, acceptHashFunc, start);
      case '%':
        return this.parseRemoveFunc(name, acceptPercentFunc, start);
    }
    s.accept = acceptIdent;
    s.mode = RBRACK;
    if (s.scan() !== 'rbrack') throw new SubstitutionSyntaxError(MISSING_CLOSING_BRACE);
    return this.ref(name, '', [], start);
  }

  private parseParam(accept: Accept, mode: number): Node {
    const s = this.s;
    s.accept = accept;
    s.mode = mode | LBRACK;
    const start = s.offset();
    const token = s.scan();
    if (token === 'lbrack') return this.parseFunc(start);
    if (token === 'ident' || token === 'rbrack') return { type: 'text', value: s.text() };
    throw new SubstitutionSyntaxError(BAD_FUNC_SUBSTITUTION);
  }

  private parseDefaultOrSubstr(name: string, start: number): RefNode {
    const s = this.s;
    s.read();
    const r = s.peek();
    s.unread();
    return '=-?+'.includes(r) && r !== EOF ? this.parseDefaultFunc(name, start) : this.parseSubstrFunc(name, start);
  }

  private parseSubstrFunc(name: string, start: number): RefNode {
    const s = this.s;
    s.accept = acceptOneColon;
    s.mode = IDENT;
    if (s.scan() !== 'ident') throw new SubstitutionSyntaxError(BAD_SUBSTITUTION);
    const op = s.text();
    const args = [this.parseParam(rejectColonClose, IDENT)];
    s.accept = acceptColon;
    s.mode = IDENT | RBRACK;
    const token = s.scan();
    if (token === 'rbrack') return this.ref(name, op, args, start);
    if (token !== 'ident') throw new SubstitutionSyntaxError(BAD_SUBSTITUTION);
    args.push(this.parseParam(acceptNotClosing, IDENT));
    this.consumeRbrack();
    return this.ref(name, op, args, start);
  }

  private parseRemoveFunc(name: string, accept: Accept, start: number): RefNode {
    const s = this.s;
    s.accept = accept;
    s.mode = IDENT;
    if (s.scan() !== 'ident') throw new SubstitutionSyntaxError(BAD_SUBSTITUTION);
    const op = s.text();
    const args = [this.parseParam(acceptNotClosing, IDENT)];
    this.consumeRbrack();
    return this.ref(name, op, args, start);
  }

  private parseReplaceFunc(name: string, start: number): RefNode {
    const s = this.s;
    s.accept = acceptReplaceFunc;
    s.mode = IDENT;
    if (s.scan() !== 'ident') throw new SubstitutionSyntaxError(BAD_SUBSTITUTION);
    const op = s.text();
    const args = [this.parseParam(acceptNotSlash, IDENT | ESCAPE)];
    s.accept = acceptSlash;
    s.mode = IDENT;
    if (s.scan() !== 'ident') throw new SubstitutionSyntaxError(BAD_SUBSTITUTION);
    if (s.peek() !== '}') args.push(this.parseParam(acceptNotClosing, IDENT | ESCAPE));
    this.consumeRbrack();
    return this.ref(name, op, args, start);
  }

  private parseDefaultFunc(name: string, start: number): RefNode {
    const s = this.s;
    s.accept = s.peek() === '=' ? acceptOneEqual : acceptDefaultFunc;
    s.mode = IDENT;
    if (s.scan() !== 'ident') throw new SubstitutionSyntaxError(BAD_DEFAULT);
    const op = s.text();
    const args: Node[] = [];
    while (s.peek() !== '}') args.push(this.parseParam(acceptNotClosing, IDENT));
    this.consumeRbrack();
    return this.ref(name, op, args, start);
  }

  private parseCasingFunc(name: string, start: number): RefNode {
    const s = this.s;
    s.accept = acceptCasingFunc;
    s.mode = IDENT;
    if (s.scan() !== 'ident') throw new SubstitutionSyntaxError(BAD_SUBSTITUTION);
    const op = s.text();
    this.consumeRbrack();
    return this.ref(name, op, [], start);
  }

  private parseLenFunc(start: number): RefNode {
    const s = this.s;
    s.accept = acceptOneHash;
    s.mode = IDENT;
    if (s.scan() !== 'ident') throw new SubstitutionSyntaxError(BAD_SUBSTITUTION);
    const op = s.text();
    s.accept = acceptIdent;
    s.mode = IDENT;
    if (s.scan() !== 'ident') throw new SubstitutionSyntaxError(BAD_SUBSTITUTION);
    const name = s.text();
    this.consumeRbrack();
    return this.ref(name, op, [], start);
  }

  private consumeRbrack(): void {
    this.s.mode = RBRACK;
    if (this.s.scan() !== 'rbrack') throw new SubstitutionSyntaxError(BAD_SUBSTITUTION);
  }
}

/** Operators that supply a value for an unset variable (envsubst template.go isDefaultOp). */
const DEFAULT_OPERATORS = new Set(['-', '+', '=', '?', ':-', ':+', ':=', ':?']);

/** One `${...}` reference of a text, as Flux's envsubst parses it. */
export interface VariableReference {
  /** The variable's name (as envsubst reads it: Unicode letters, digits and `_`; Flux refuses a defined variable whose name is not ASCII). */
  readonly name: string;
  /**
   * The operator after the name: `''` for `${X}`, `:=` / `:-` / `=` / `:?` / `:+` for a default,
   * `#` (also `${#X}`, the length), `##`, `%`, `%%`, `/`, `//`, `/#`, `/%`, `:` (substring),
   * `,`, `,,`, `^`, `^^`.
   */
  readonly operator: string;
  /**
   * The value used when the variable is unset or empty, for the default operators (`:=`, `:-`,
   * `=`, `:?`, `:+`: envsubst v1.7.0 treats them all alike), as written: nested references are
   * kept as their source text, escapes are resolved. Undefined for the other operators.
   */
  readonly default?: string;
  /** The reference's source text, `${` to `}`. */
  readonly text: string;
  /** Where it starts in the text (a UTF-16 offset). */
  readonly start: number;
  /** Where it ends (exclusive). */
  readonly end: number;
}

function sourceOf(node: Node, text: string): string {
  return node.type === 'text' ? node.value : text.slice(node.start, node.end);
}

/**
 * The variable references of `text`, in source order, as Flux's envsubst (fluxcd/pkg envsubst
 * v1.7.0 parse/parse.go) reads them. The contract:
 *
 * - a reference is `${NAME}` or `${NAME<operator>...}`; `$NAME` without braces is text, and
 *   `$$` is an escaped `$` (so `$${X}` is the text `${X}` and no reference);
 * - references nested in another's arguments (`${A:=${B}}`) are listed after the one holding
 *   them, each once;
 * - a text that envsubst refuses (`${}`, `${X`, `${X!}`) gives `[]` from this function: Flux
 *   fails on it, and {@link parseSubstitution} says why;
 * - a text without `${` gives `[]` at once.
 */
export function variableReferences(text: string): VariableReference[] {
  if (!text.includes('${')) return [];
  let nodes: Node[];
  try {
    nodes = new Parser(text).parse();
  } catch (e) {
    if (e instanceof SubstitutionSyntaxError) return [];
    throw e;
  }
  const out: VariableReference[] = [];
  const stack: Node[] = [...nodes].reverse();
  while (stack.length > 0) {
    const n = stack.pop()!;
    if (n.type !== 'ref') continue;
    const isDefault = DEFAULT_OPERATORS.has(n.op);
    out.push({
      name: n.name,
      operator: n.op,
      ...(isDefault ? { default: n.args.map((a) => sourceOf(a, text)).join('') } : {}),
      text: text.slice(n.start, n.end),
      start: n.start,
      end: n.end,
    });
    for (let i = n.args.length - 1; i >= 0; i--) stack.push(n.args[i]);
  }
  return out;
}

/** Whether `text` parses as envsubst reads it; the error message when it does not. */
export function parseSubstitution(text: string): { readonly ok: true } | { readonly ok: false; readonly error: string } {
  try {
    new Parser(text).parse();
    return { ok: true };
  } catch (e) {
    if (e instanceof SubstitutionSyntaxError) return { ok: false, error: e.message };
    throw e;
  }
}

// ---------------------------------------------------------------------------------------------
// evaluation (envsubst/template.go, funcs.go, path/match.go)

const utf8 = (s: string): Buffer => Buffer.from(s, 'utf8');

/** Go's strconv.Atoi on a 64-bit machine; undefined where it fails. */
function atoi(s: string): number | undefined {
  if (!/^[+-]?[0-9]+$/.test(s)) return undefined;
  const n = BigInt(s);
  if (n > 9223372036854775807n || n < -9223372036854775808n) return undefined;
  return Number(n);
}

function toSubstr(s: string, args: readonly string[]): string {
  if (args.length === 0) return s;
  const b = utf8(s);
  let pos = atoi(args[0]);
  if (pos === undefined) return s;
  if (pos < 0) pos = Math.max(0, b.length + pos);
  if (args.length === 1) return pos < b.length ? b.subarray(pos).toString('utf8') : '';
  const length = atoi(args[1]);
  if (length === undefined) return s;
  if (pos + length >= b.length) return pos < b.length ? b.subarray(pos).toString('utf8') : '';
  return b.subarray(pos, pos + length).toString('utf8');
}

function replaceFirst(s: string, from: string, to: string): string {
  // Go's strings.Replace with an empty `from` inserts before the first rune
  if (from === '') return to + s;
  const i = s.indexOf(from);
  return i < 0 ? s : s.slice(0, i) + to + s.slice(i + from.length);
}

function replaceEvery(s: string, from: string, to: string): string {
  // Go's strings.Replace with an empty `from` puts `to` before every rune and at the end
  if (from === '')
    return (
      to +
      Array.from(s)
        .map((c) => c + to)
        .join('')
    );
  return s.split(from).join(to);
}

/** A string of bytes (each char one byte, latin1), as Go's strings are for the trimming functions. */
const bytesOf = (s: string): string => utf8(s).toString('latin1');
const fromBytes = (b: string): string => Buffer.from(b, 'latin1').toString('utf8');

/** Go's utf8.DecodeRuneInString on a byte string: the code point and its width (U+FFFD and 1 for a bad byte). */
function decodeRune(s: string): [number, number] {
  const b0 = s.charCodeAt(0);
  const need = b0 < 0x80 ? 1 : b0 >= 0xc2 && b0 < 0xe0 ? 2 : b0 >= 0xe0 && b0 < 0xf0 ? 3 : b0 >= 0xf0 && b0 < 0xf5 ? 4 : 0;
  if (need === 0) return [0xfffd, 1];
  if (need === 1) return [b0, 1];
  if (s.length < need) return [0xfffd, 1];
  const decoded = fromBytes(s.slice(0, need));
  const cp = decoded.codePointAt(0)!;
  if (cp === 0xfffd || bytesOf(String.fromCodePoint(cp)) !== s.slice(0, need)) return [0xfffd, 1];
  return [cp, need];
}

type Chunk = { readonly ok: boolean; readonly rest: string; readonly bad?: boolean };

function escapedRune(chunk: string): { r: number; rest: string } | undefined {
  if (chunk.length === 0 || chunk[0] === '-' || chunk[0] === ']') return undefined;
  if (chunk[0] === '\\') {
    chunk = chunk.slice(1);
    if (chunk.length === 0) return undefined;
  }
  const [r, w] = decodeRune(chunk);
  const rest = chunk.slice(w);
  // an invalid byte, or a class that never closes, is a bad pattern
  if ((r === 0xfffd && w === 1) || rest.length === 0) return undefined;
  return { r, rest };
}

function matchChunk(chunk: string, s: string): Chunk {
  while (chunk.length > 0) {
    if (s.length === 0) return { ok: false, rest: s };
    const c = chunk[0];
    if (c === '[') {
      const [r, w] = decodeRune(s);
      s = s.slice(w);
      chunk = chunk.slice(1);
      let negated = false;
      if (chunk.length > 0 && chunk[0] === '^') {
        negated = true;
        chunk = chunk.slice(1);
      }
      let match = false;
      for (let ranges = 0; ; ranges++) {
        if (chunk.length > 0 && chunk[0] === ']' && ranges > 0) {
          chunk = chunk.slice(1);
          break;
        }
        const lo = escapedRune(chunk);
        if (!lo) return { ok: false, rest: s, bad: true };
        chunk = lo.rest;
        let hi = lo.r;
        if (chunk[0] === '-') {
          const h = escapedRune(chunk.slice(1));
          if (!h) return { ok: false, rest: s, bad: true };
          hi = h.r;
          chunk = h.rest;
        }
        if (lo.r <= r && r <= hi) match = true;
      }
      if (match === negated) return { ok: false, rest: s };
    } else if (c === '?') {
      s = s.slice(decodeRune(s)[1]);
      chunk = chunk.slice(1);
    } else {
      if (c === '\\') {
        chunk = chunk.slice(1);
        if (chunk.length === 0) return { ok: false, rest: s, bad: true };
      }
      if (chunk[0] !== s[0]) return { ok: false, rest: s };
      s = s.slice(1);
      chunk = chunk.slice(1);
    }
  }
  return { ok: true, rest: s };
}

function scanChunk(pattern: string): { star: boolean; chunk: string; rest: string } {
  let star = false;
  while (pattern.length > 0 && pattern[0] === '*') {
    pattern = pattern.slice(1);
    star = true;
  }
  let inRange = false;
  let i = 0;
  for (; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '\\') {
      if (i + 1 < pattern.length) i++;
    } else if (c === '[') inRange = true;
    else if (c === ']') inRange = false;
    else if (c === '*' && !inRange) break;
  }
  return { star, chunk: pattern.slice(0, i), rest: pattern.slice(i) };
}

/**
 * A shell pattern match of byte strings as envsubst's path.Match (a copy of an old Go
 * path.Match): `*` any run of bytes (`/` included), `?` one code point, `[...]` / `[^...]` a
 * class, `\\` an escape; `'bad'` for a malformed pattern.
 */
function globMatch(pattern: string, name: string): boolean | 'bad' {
  outer: while (pattern.length > 0) {
    const { star, chunk, rest } = scanChunk(pattern);
    pattern = rest;
    if (star && chunk === '') return true;
    const first = matchChunk(chunk, name);
    if (first.ok && (first.rest.length === 0 || pattern.length > 0)) {
      name = first.rest;
      continue;
    }
    if (first.bad) return 'bad';
    if (star) {
      for (let i = 0; i < name.length; i++) {
        const m = matchChunk(chunk, name.slice(i + 1));
        if (m.ok) {
          if (pattern.length === 0 && m.rest.length > 0) continue;
          name = m.rest;
          continue outer;
        }
        if (m.bad) return 'bad';
      }
    }
    return false;
  }
  return name.length === 0;
}

/** envsubst funcs.go trimShortest / trimLongest: strip the shortest or longest prefix matching `pattern` (byte strings). */
function trimPrefixBytes(s: string, pattern: string, longest: boolean): string {
  let shortest = '';
  for (let i = 0; i < s.length; i++) {
    const prefix = s.slice(0, s.length - i);
    const m = globMatch(pattern, prefix);
    if (m === 'bad') return s;
    if (m) {
      if (longest) return s.slice(prefix.length);
      shortest = prefix;
    }
  }
  return shortest !== '' ? s.slice(shortest.length) : s;
}

/** Reverses the code points of a text, as envsubst's reverse does with runes. */
function reverse(s: string): string {
  return Array.from(s).reverse().join('');
}

function trimPrefix(s: string, pattern: string, longest: boolean): string {
  return fromBytes(trimPrefixBytes(bytesOf(s), bytesOf(pattern), longest));
}

function trimSuffix(s: string, pattern: string, longest: boolean): string {
  return reverse(trimPrefix(reverse(s), reverse(pattern), longest));
}

function applyOperator(op: string, v: string, args: readonly string[]): string {
  switch (op) {
    case ',':
      return v === '' ? v : Array.from(v)[0].toLowerCase() + v.slice(Array.from(v)[0].length);
    case ',,':
      return v.toLowerCase();
    case '^':
      return v === '' ? v : Array.from(v)[0].toUpperCase() + v.slice(Array.from(v)[0].length);
    case '^^':
      return v.toUpperCase();
    case '#':
      if (args.length === 0) return String(utf8(v).length);
      return trimPrefix(v, args[0], false);
    case '##':
      return args.length === 0 ? v : trimPrefix(v, args[0], true);
    case '%':
      return args.length === 0 ? v : trimSuffix(v, args[0], false);
    case '%%':
      return args.length === 0 ? v : trimSuffix(v, args[0], true);
    case ':':
      return toSubstr(v, args);
    case '/#':
      return args.length === 2 && v.startsWith(args[0]) ? replaceFirst(v, args[0], args[1]) : v;
    case '/%':
      return args.length === 2 && v.endsWith(args[0]) ? v.slice(0, v.length - args[0].length) + args[1] : v;
    case '/':
      return args.length === 0 ? v : replaceFirst(v, args[0], args[1] ?? '');
    case '//':
      return args.length === 0 ? v : replaceEvery(v, args[0], args[1] ?? '');
    default:
      // '' and the default operators: the arguments joined, when the value is empty
      return v === '' && args.length > 0 ? args.join('') : v;
  }
}

/**
 * What a variable's lookup gives: its value, or `undefined` for a variable that has none.
 */
export type VariableLookup = (name: string) => string | undefined;

/** How a variable without a value is treated. */
export type UnsetVariables =
  /** Flux without strict mode: its value is `''`. */
  | 'empty'
  /** Flux in strict mode: the substitution fails, unless the reference has a default. */
  | 'fail'
  /**
   * The doctor: the reference stays as its source text (the value may come from the cluster);
   * a default applies, as in Flux.
   */
  | 'keep'
  /** The doctor when the variables known are not all there are: the reference stays as text, default or not. */
  | 'keep-all';

/** A variable that strict mode refuses: no value and no default. */
export class UnsetVariableError extends Error {
  constructor(public readonly variable: string) {
    super(`variable not set (strict mode): "${variable}"`);
    this.name = 'UnsetVariableError';
  }
}

/**
 * Substitutes the references of `text` as Flux's envsubst does (fluxcd/pkg envsubst v1.7.0
 * template.go Execute), with the lookup `vars` and the treatment `unset` of a variable without a
 * value. Throws a {@link SubstitutionSyntaxError} for a text envsubst refuses and an
 * {@link UnsetVariableError} for `unset: 'fail'`.
 */
export function substituteText(text: string, vars: VariableLookup, unset: UnsetVariables): string {
  if (!text.includes('$')) return text;
  const nodes = new Parser(text).parse();
  const evaluate = (n: Node): string => {
    if (n.type === 'text') return n.value;
    const args = n.args.map(evaluate);
    const value = vars(n.name);
    if (value === undefined) {
      const isDefault = DEFAULT_OPERATORS.has(n.op);
      if (unset === 'fail' && !isDefault) throw new UnsetVariableError(n.name);
      if (unset === 'keep-all' || (unset === 'keep' && !isDefault)) return text.slice(n.start, n.end);
      return applyOperator(n.op, '', args);
    }
    return applyOperator(n.op, value, args);
  };
  return nodes.map(evaluate).join('');
}

// ---------------------------------------------------------------------------------------------
// documents

let yamlModule: typeof YAML | undefined;

/**
 * The YAML text kustomize gives a resource before Flux substitutes it: kustomize api v0.21.1
 * resource/resource.go `Resource.AsYAML` writes the object as JSON and turns that into YAML
 * (sigs.k8s.io/yaml `JSONToYAML`), so the source's quotes and comments are gone: a string is
 * written plain where YAML allows it (`${N}`, and so `"${N}"` too, becomes the integer 2 when N
 * is 2), and quoted only where a plain scalar would read as something else.
 *
 * Here every string that holds a `$` is written plain where the `yaml` package can (it quotes it
 * otherwise, as go-yaml does), and every other string double-quoted, so that reading the text
 * back gives those values unchanged.
 */
export function fluxResourceYaml(value: unknown): string {
  yamlModule ??= require('yaml') as typeof YAML;
  const Y = yamlModule;
  const doc = new Y.Document(value);
  Y.visit(doc, {
    Scalar(_, node) {
      if (typeof node.value !== 'string') return;
      if (!node.value.includes('$')) node.type = 'QUOTE_DOUBLE';
      else if (node.value.includes('\n')) node.type = 'BLOCK_LITERAL';
      else node.type = 'PLAIN';
    },
  });
  return doc.toString({ lineWidth: 0, minContentWidth: 0 });
}

/** Whether an object asks Flux not to substitute it (label or annotation `kustomize.toolkit.fluxcd.io/substitute: disabled`). */
export function substitutionDisabled(value: unknown): boolean {
  return (
    asString(dig(value, 'metadata', 'labels', SUBSTITUTE_ANNOTATION)) === SUBSTITUTE_DISABLED ||
    asString(dig(value, 'metadata', 'annotations', SUBSTITUTE_ANNOTATION)) === SUBSTITUTE_DISABLED
  );
}

/** The outcome of substituting one document. */
export type DocumentSubstitution =
  /** Nothing to do: no `${`, or the object disables substitution. */
  | { readonly status: 'unchanged' }
  /** The rendered value. */
  | { readonly status: 'rendered'; readonly value: unknown }
  /** Flux would fail the build on this document; `error` says why, in the doctor's words. */
  | { readonly status: 'failed'; readonly error: string };

/**
 * Substitutes one object as kustomize-controller does with one resource of its build: nothing
 * when the object is labelled or annotated `kustomize.toolkit.fluxcd.io/substitute: disabled`;
 * otherwise its YAML as kustomize writes it ({@link fluxResourceYaml}) is substituted and read
 * back with `parseManifestText` (Flux reads it with sigs.k8s.io/yaml `YAMLToJSON`): a value that
 * becomes `2` is the integer 2, `true` a boolean, `a: b` a YAML error.
 */
export function substituteDocument(value: unknown, vars: VariableLookup, unset: UnsetVariables): DocumentSubstitution {
  if (value === null || typeof value !== 'object' || substitutionDisabled(value)) return { status: 'unchanged' };
  const source = fluxResourceYaml(value);
  if (!source.includes('$')) return { status: 'unchanged' };
  let out: string;
  try {
    out = substituteText(source, vars, unset);
  } catch (e) {
    if (e instanceof SubstitutionSyntaxError || e instanceof UnsetVariableError) return { status: 'failed', error: e.message };
    throw e;
  }
  if (out === source) return { status: 'unchanged' };
  let docs;
  try {
    docs = parseManifestText(out, 'substituted');
  } catch (e) {
    if (e instanceof InputError) return { status: 'failed', error: `the substituted YAML does not parse (${e.message.replace(/^substituted:\d+:\d+: /, '')})` };
    throw e;
  }
  if (docs.length !== 1) return { status: 'failed', error: `the substituted YAML holds ${docs.length} documents` };
  return { status: 'rendered', value: docs[0].value };
}

// ---------------------------------------------------------------------------------------------
// variables from objects

/** Flux's treatment of a value: every '\n' removed (kustomize_varsub.go LoadVariables, SubstituteVariables). */
export function fluxValue(value: string): string {
  return value.split('\n').join('');
}

/**
 * The variables a ConfigMap or Secret manifest gives `substituteFrom`: a ConfigMap's `data`; a
 * Secret's `data` (base64, decoded) with `stringData` over it, as the API server stores them.
 * Values keep their text but for '\n', which Flux removes. A value that is not a string, or
 * `data` that is not base64, gives an error naming the key.
 */
export function variablesOfObject(object: Json): { readonly vars: Map<string, string>; readonly errors: string[] } {
  const vars = new Map<string, string>();
  const errors: string[] = [];
  const kind = asString(object.kind);
  const take = (field: string, decode: boolean) => {
    const map = asObject(object[field]);
    if (!map) return;
    for (const key of Object.keys(map).sort()) {
      const v = map[key];
      if (typeof v !== 'string') {
        errors.push(`${field}.${key} is not a string`);
        continue;
      }
      if (decode) {
        const compact = v.replace(/\s+/g, '');
        if (!/^[A-Za-z0-9+/]*={0,2}$/.test(compact) || compact.length % 4 === 1) {
          errors.push(`data.${key} is not base64`);
          continue;
        }
        vars.set(key, fluxValue(Buffer.from(compact, 'base64').toString('utf8')));
      } else {
        vars.set(key, fluxValue(v));
      }
    }
  };
  if (kind === 'Secret') {
    take('data', true);
    take('stringData', false);
  } else {
    take('data', false);
  }
  return { vars, errors };
}

/**
 * The variables of a `--vars-from` file: the ConfigMaps and Secrets of a manifest file (as
 * {@link variablesOfObject} reads them, in file order, a later one overriding), else a dotenv
 * file read as kustomize reads a generator's `envs` file (kustomize api v0.21.1 kv/kv.go
 * keyValuesFromLine: leading blanks trimmed, blank lines and `#` lines skipped, `KEY=VALUE` split
 * at the first `=`, the value kept as written, quotes included). Throws a plain `Error` saying
 * what is wrong; the caller names the flag.
 */
export function variablesFromText(text: string, file: string): Map<string, string> {
  let objects: Json[];
  try {
    objects = parseManifestText(text, file)
      .map((d) => asObject(d.value))
      .filter((o): o is Json => !!o);
  } catch {
    objects = [];
  }
  if (objects.length > 0) {
    const sources = objects.filter((o) => o.apiVersion === 'v1' && (o.kind === 'ConfigMap' || o.kind === 'Secret'));
    if (sources.length === 0) throw new Error('holds no ConfigMap or Secret (kind: ConfigMap or Secret, apiVersion: v1)');
    const vars = new Map<string, string>();
    for (const o of sources) {
      if (o.sops !== undefined) throw new Error('is SOPS-encrypted; decrypt it first (sops -d FILE > plain.yaml)');
      const read = variablesOfObject(o);
      if (read.errors.length > 0) throw new Error(`${String(o.kind)} ${read.errors[0]}`);
      for (const [k, v] of read.vars) vars.set(k, v);
    }
    return vars;
  }
  const vars = new Map<string, string>();
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  lines.forEach((raw, i) => {
    const line = raw.replace(/^\s+/, '');
    if (line === '' || line.startsWith('#')) return;
    const eq = line.indexOf('=');
    const key = eq < 0 ? line : line.slice(0, eq);
    if (eq < 0) throw new Error(`line ${i + 1} '${line}' is not KEY=VALUE`);
    if (!FLUX_VARIABLE_NAME.test(key))
      throw new Error(`line ${i + 1}: '${key}' is not a variable name Flux accepts (letters, digits and _, not starting with a digit)`);
    vars.set(key, fluxValue(line.slice(eq + 1)));
  });
  return vars;
}
