import * as fs from 'fs';
import * as path from 'path';
import type * as YAML from 'yaml';
import { KubectlYamlError, convertDocument, readJsonStream, splitAsKubectl } from './yaml-kubernetes';

let yamlModule: typeof YAML | undefined;

/**
 * The `yaml` package, loaded at the first manifest read: the constructs load this module (a
 * `PluginManifest` reads a release manifest), and `require('cdk8s-cnpg-i')` does not pay for a
 * YAML parser an app may never use (docs/development/performance.md).
 */
function yaml(): typeof YAML {
  yamlModule ??= require('yaml') as typeof YAML;
  return yamlModule;
}

/** One parsed document and where it came from. */
export interface LoadedDocument {
  readonly value: unknown;
  /** The file as the user named it (`<stdin>` for `-`). */
  readonly file: string;
  /** 1-based position of the document in its file. */
  readonly document: number;
  /** 1-based line where the document starts. */
  readonly line: number;
  /** 1-based column where the document starts. */
  readonly column: number;
}

/**
 * Why input is unusable, for a caller that acts on one case rather than on the message (the
 * plan takes an output folder without manifests for a first synth).
 *
 * - `usage`: the command line asks for something impossible (a bad flag or value).
 * - `not-found`: a path that does not exist.
 * - `no-manifests`: a directory without `.yaml`, `.yml` or `.json` files.
 * - `unreadable`: a file or directory that exists but cannot be read.
 * - `syntax`: a document that does not parse, or that no Kubernetes object can be.
 */
export type InputErrorReason = 'usage' | 'not-found' | 'no-manifests' | 'unreadable' | 'syntax';

/** Where in a file the input is unusable (1-based). */
export interface InputLocation {
  readonly file: string;
  readonly line: number;
  readonly column: number;
}

/** Input the doctor cannot read: a missing file, a YAML syntax error. Exit code 2. */
export class InputError extends Error {
  /** Why the input is unusable. */
  public readonly reason: InputErrorReason;
  /** Where the input is unusable, when it is a place in a file. */
  public readonly location?: InputLocation;

  /**
   * @param message what is wrong, for the user
   * @param details why (`usage` unless given), and where, when it is a place in a file; the
   * message then starts with `file:line:column: `
   */
  constructor(message: string, details: { readonly reason?: InputErrorReason; readonly location?: InputLocation } = {}) {
    const { reason = 'usage', location } = details;
    super(location ? `${location.file}:${location.line}:${location.column}: ${message}` : message);
    this.name = 'InputError';
    this.reason = reason;
    if (location) this.location = location;
  }
}

/**
 * Files cdk8s writes beside the manifests, which are not manifests: `cdk8s synth` with
 * validations writes `construct-metadata.json` into the output folder.
 */
export const CDK8S_METADATA_FILES: ReadonlySet<string> = new Set(['construct-metadata.json']);

const MANIFEST_FILE = /\.(ya?ml|json)$/i;

/** Whether a file of a folder is read as manifests: `.yaml`, `.yml` or `.json`, and not a file cdk8s writes beside them. */
export function isManifestFileName(name: string): boolean {
  return MANIFEST_FILE.test(name) && !CDK8S_METADATA_FILES.has(name);
}

/** One entry of a folder as the input's walk sees it: a symlink is taken as what it points to. */
export interface FolderEntry {
  readonly name: string;
  /** The path to open (the folder's path joined with the name). */
  readonly full: string;
  /** The path as messages show it (the shown folder joined with the name). */
  readonly shown: string;
  readonly isDirectory: boolean;
  readonly isFile: boolean;
}

/**
 * The entries of a folder, sorted by name, for the walks that expand the command line's folders
 * (`collectFiles` here, `collectInputs` in kustomize.ts): a symlink is followed (a dangling one
 * is left out), and a folder already listed in this walk (`seen`, by real path: a symlink loop)
 * or one that vanished gives undefined. A folder that cannot be read throws an `InputError`
 * (`unreadable`) that names it.
 */
export function listFolder(dir: string, shown: string, seen: Set<string>): FolderEntry[] | undefined {
  let real: string;
  try {
    real = fs.realpathSync(dir);
  } catch {
    return undefined;
  }
  if (seen.has(real)) return undefined; // a symlink loop
  seen.add(real);
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch (e) {
    // as for an unreadable file: the input is unusable, which is not an internal error
    throw new InputError(`${shown}: cannot read this directory (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`, { reason: 'unreadable' });
  }
  entries.sort((a, b) => a.name.localeCompare(b.name));
  const out: FolderEntry[] = [];
  for (const e of entries) {
    const full = path.join(dir, e.name);
    let isDirectory = e.isDirectory();
    let isFile = e.isFile();
    if (e.isSymbolicLink()) {
      try {
        const st = fs.statSync(full);
        isDirectory = st.isDirectory();
        isFile = st.isFile();
      } catch {
        continue;
      }
    }
    out.push({ name: e.name, full, shown: path.join(shown, e.name), isDirectory, isFile });
  }
  return out;
}

/** Whether the walk goes into a folder entry: hidden folders and `node_modules` are skipped. */
export function isWalkedFolder(e: FolderEntry): boolean {
  return e.isDirectory && !e.name.startsWith('.') && e.name !== 'node_modules';
}

/**
 * Expands the command line's paths: files as given, directories recursively (`*.yaml`, `*.yml`,
 * `*.json`, sorted, hidden directories skipped), `-` for stdin.
 */
export function collectFiles(paths: readonly string[], cwd: string): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  const walk = (dir: string, shown: string) => {
    for (const e of listFolder(dir, shown, seen) ?? []) {
      if (isWalkedFolder(e)) walk(e.full, e.shown);
      else if (e.isFile && isManifestFileName(e.name)) out.push(e.shown);
    }
  };
  for (const p of paths) {
    if (p === '-') {
      out.push('-');
      continue;
    }
    const full = path.resolve(cwd, p);
    let st: fs.Stats;
    try {
      st = fs.statSync(full);
    } catch {
      throw new InputError(`${p}: no such file or directory`, { reason: 'not-found' });
    }
    if (st.isDirectory()) {
      const before = out.length;
      walk(full, p);
      if (out.length === before) throw new InputError(`${p}: no .yaml, .yml or .json files in this directory`, { reason: 'no-manifests' });
    } else {
      out.push(p);
    }
  }
  return out;
}

/**
 * Collections nested deeper than this are refused before they are composed. The `yaml` composer
 * recurses once per level and only catches the stack overflow that a few thousand levels cause;
 * in Node 20 that overflow can leave V8's regexp compiler broken, so that the next parse in the
 * same process aborts it ("RegExpCompiler Allocation failed"). Real manifests stay far below
 * the limit: the deepest upstream CRD schemas nest about 40 levels.
 */
export const MAX_NESTING_DEPTH = 200;

function isCollection(t: YAML.CST.Token | null | undefined): t is YAML.CST.BlockMap | YAML.CST.BlockSequence | YAML.CST.FlowCollection {
  return !!t && (t.type === 'block-map' || t.type === 'block-seq' || t.type === 'flow-collection');
}

/** The offset of the first collection nested deeper than `limit` in a CST token, if any. */
function tooDeepAt(token: YAML.CST.Token, limit: number): number | undefined {
  // iterative and in document order, so that the check itself cannot overflow the stack
  const stack: Array<[YAML.CST.Token | null | undefined, number]> = [[token, 0]];
  while (stack.length > 0) {
    const [t, depth] = stack.pop()!;
    if (!t) continue;
    if (t.type === 'document') {
      stack.push([t.value, depth]);
    } else if (isCollection(t)) {
      if (depth >= limit) return t.offset;
      for (let i = t.items.length - 1; i >= 0; i--) {
        const item = t.items[i];
        stack.push([item.value, depth + 1], [item.key, depth + 1]);
      }
    }
  }
  return undefined;
}

/**
 * The parser's tokens, document by document, and the offset of the first collection nested
 * deeper than `limit` if there is one. The parser is driven one lexeme at a time and stopped as
 * soon as its stack of open collections is too deep: a megabyte of `[` would otherwise build a
 * CST of about a gigabyte before any check could run.
 */
function parseTokens(text: string, lineCounter: YAML.LineCounter, limit: number): { tokens: YAML.CST.Token[]; deep?: number } {
  const Y = yaml();
  const parser = new Y.Parser(lineCounter.addNewLine);
  const tokens: YAML.CST.Token[] = [];
  const tooDeep = (): number | undefined => {
    if (parser.stack.length <= limit) return undefined;
    const open = parser.stack.filter(isCollection);
    return open.length > limit ? open[limit].offset : undefined;
  };
  lineCounter.addNewLine(0);
  for (const lexeme of new Y.Lexer().lex(text)) {
    for (const token of parser.next(lexeme)) tokens.push(token);
    const deep = tooDeep();
    if (deep !== undefined) return { tokens, deep };
  }
  for (const token of parser.end()) tokens.push(token);
  // collections closed before the stack grew too deep may still nest too deep in the CST
  for (let i = 0; i < tokens.length; i++) {
    const deep = tooDeepAt(tokens[i], limit);
    if (deep !== undefined) return { tokens: tokens.slice(0, i), deep };
  }
  return { tokens };
}

/** 1-based line and column of each offset of a text, from a table of line starts made once. */
function positionsOf(text: string): (offset: number) => { line: number; col: number } {
  let starts: number[] | undefined;
  return (offset) => {
    if (!starts) {
      starts = [0];
      for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
    }
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid] <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo + 1, col: offset - starts[lo] + 1 };
  };
}

/**
 * Parses a multi-document YAML (or JSON) text as kubectl reads it (see
 * `src/manifests/yaml-kubernetes.ts`: documents cut at `---` lines, YAML 1.1 scalars, merge keys,
 * the JSON that sigs.k8s.io/yaml makes); documents that are empty or null are left out, as
 * kubectl skips them. Input that kubectl refuses, or that does not parse, throws an `InputError`
 * that reads `file:line:column: message`.
 */
export function parseManifestText(text: string, file: string): LoadedDocument[] {
  const Y = yaml();
  const out: LoadedDocument[] = [];
  const positionInText = positionsOf(text);
  const refuse = (message: string, line: number, column: number): never => {
    // a piece is given the line end kubectl adds to its last line: an error found there is at the end of the text
    const last = positionInText(text.length);
    if (line > last.line) [line, column] = [last.line, last.col];
    throw new InputError(message, { reason: 'syntax', location: { file, line, column } });
  };
  let n = 0;
  let yamlFrom = 0;
  try {
    // decoder.go NewYAMLOrJSONDecoder: a stream that starts with `{` is JSON values first
    const json = readJsonStream(text, MAX_NESTING_DEPTH);
    if (json) {
      for (const v of json.values) {
        n++;
        const at = positionInText(v.offset);
        if (v.value !== null) out.push({ value: v.value, file, document: n, line: at.line, column: at.col });
      }
      if (json.yamlFrom === undefined) return out;
      yamlFrom = json.yamlFrom;
    }
  } catch (e) {
    if (!(e instanceof KubectlYamlError)) throw e;
    const at = positionInText(e.offset);
    refuse(e.message, at.line, at.col);
  }
  const firstLine = positionInText(yamlFrom).line;
  let chunks: ReturnType<typeof splitAsKubectl>;
  try {
    chunks = splitAsKubectl(yamlFrom === 0 ? text : text.slice(yamlFrom));
  } catch (e) {
    if (!(e instanceof KubectlYamlError)) throw e;
    const at = positionInText(yamlFrom + e.offset);
    return refuse(e.message, at.line, at.col);
  }
  for (const chunk of chunks) {
    n++;
    const lineCounter = new Y.LineCounter();
    const where = (offset: number) => {
      const pos = lineCounter.linePos(offset);
      return { line: chunk.line + firstLine - 1 + pos.line - 1, col: pos.col };
    };
    // the documents before a deep one are still composed, so that an earlier error wins
    const { tokens, deep } = parseTokens(chunk.text, lineCounter, MAX_NESTING_DEPTH);
    // go-yaml reads the first document of a piece and nothing after it (a `...` line ends it)
    const complete = tokens.some((t) => t.type === 'document');
    if (deep !== undefined && !complete) {
      const at = where(deep);
      refuse(`collections nested more than ${MAX_NESTING_DEPTH} levels deep; a Kubernetes manifest is never this deep`, at.line, at.col);
    }
    const directive = tokens.find((t) => t.type === 'directive' || t.type === 'document');
    if (directive?.type === 'directive') {
      const at = where(directive.offset);
      refuse(
        'a directive (%YAML, %TAG) before a document: kubectl cuts the stream at the --- line after it and then finds no document start ("did not find expected <document start>"); remove the directive',
        at.line,
        at.col,
      );
    }
    // the CLI owns stderr: `yaml` must not print its own warnings there (an unknown tag is one)
    const composer = new Y.Composer({ logLevel: 'error', schema: 'failsafe', resolveKnownTags: false, uniqueKeys: false });
    const doc = composer.compose(tokens).next().value as YAML.Document.Parsed | undefined;
    if (!doc) continue; // comments and blank lines only
    const error = doc.errors[0];
    if (error) {
      const at = where(error.pos[0]);
      refuse(error.message.split('\n')[0], at.line, at.col);
    }
    let value: unknown;
    try {
      value = convertDocument(Y, doc);
    } catch (e) {
      if (!(e instanceof KubectlYamlError)) throw e;
      const at = where(e.offset);
      refuse(e.message, at.line, at.col);
    }
    if (value === null) continue;
    // the first line of content, not the `---` before it
    const start = (doc.contents as { range?: number[] } | null)?.range?.[0] ?? doc.range[0];
    const at = where(start);
    out.push({ value, file, document: n, line: at.line, column: at.col });
  }
  return out;
}

/**
 * The text of the manifest file `file` (as `collectFiles` lists it), taken from `cwd`; a file
 * that cannot be read throws an `InputError` (`unreadable`) that names it and says why.
 */
export function readManifestFile(file: string, cwd: string): string {
  try {
    return fs.readFileSync(path.resolve(cwd, file), 'utf8');
  } catch (e) {
    throw new InputError(`${file}: ${(e as NodeJS.ErrnoException).code === 'EISDIR' ? 'is a directory' : (e as Error).message}`, {
      reason: 'unreadable',
    });
  }
}

/** What a run could read of its files. */
export interface ReadManifests {
  /** The documents of every file that was read and parsed, in file order. */
  readonly documents: LoadedDocument[];
  /** The files that were read and parsed, as shown in messages (`<stdin>` for `-`). */
  readonly parsed: string[];
  /**
   * Why each other file could not be used (`reason` `unreadable` or `syntax`), in file order. A
   * file is used whole or not at all: one bad document leaves out the file it is in.
   */
  readonly failures: InputError[];
}

/**
 * Reads and parses each file of `files` (as `collectFiles` lists them; `-` is standard input,
 * read once and shown as `<stdin>`), going on past a file that cannot be read or parsed, so that
 * a caller can report on every file that parsed and list the others.
 * @param read gives the text of a file; it throws an `InputError` for a file it cannot read
 */
export async function readManifestFiles(files: readonly string[], read: (file: string) => string | Promise<string>): Promise<ReadManifests> {
  const documents: LoadedDocument[] = [];
  const parsed: string[] = [];
  const failures: InputError[] = [];
  let stdinRead = false;
  for (const file of files) {
    if (file === '-') {
      if (stdinRead) continue;
      stdinRead = true;
    }
    const shown = file === '-' ? '<stdin>' : file;
    try {
      documents.push(...parseManifestText(await read(file), shown));
      parsed.push(shown);
    } catch (e) {
      if (!(e instanceof InputError)) throw e;
      failures.push(e);
    }
  }
  return { documents, parsed, failures };
}
