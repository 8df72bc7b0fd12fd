import * as fs from 'fs';
import * as path from 'path';
import * as YAML from 'yaml';

/** One parsed document and where it came from. */
export interface LoadedDocument {
  readonly value: unknown;
  /** The file as the user named it (`<stdin>` for `-`). */
  readonly file: string;
  /** 1-based position of the document in its file. */
  readonly document: number;
  /** 1-based line where the document starts. */
  readonly line: number;
}

/** Input the doctor cannot read: a missing file, a YAML syntax error. Exit code 2. */
export class InputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InputError';
  }
}

const MANIFEST_FILE = /\.(ya?ml|json)$/i;

/**
 * Expands the command line's paths: files as given, directories recursively (`*.yaml`, `*.yml`,
 * `*.json`, sorted, hidden directories skipped), `-` for stdin.
 */
export function collectFiles(paths: readonly string[], cwd: string): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  const walk = (dir: string, shown: string) => {
    let real: string;
    try {
      real = fs.realpathSync(dir);
    } catch {
      return;
    }
    if (seen.has(real)) return; // a symlink loop
    seen.add(real);
    const entries = fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name));
    for (const e of entries) {
      const full = path.join(dir, e.name);
      const display = path.join(shown, e.name);
      let isDir = e.isDirectory();
      let isFile = e.isFile();
      if (e.isSymbolicLink()) {
        try {
          const st = fs.statSync(full);
          isDir = st.isDirectory();
          isFile = st.isFile();
        } catch {
          continue;
        }
      }
      if (isDir && !e.name.startsWith('.') && e.name !== 'node_modules') walk(full, display);
      else if (isFile && MANIFEST_FILE.test(e.name)) out.push(display);
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
      throw new InputError(`${p}: no such file or directory`);
    }
    if (st.isDirectory()) {
      const before = out.length;
      walk(full, p);
      if (out.length === before) throw new InputError(`${p}: no .yaml, .yml or .json files in this directory`);
    } else {
      out.push(p);
    }
  }
  return out;
}

/**
 * Parses a multi-document YAML (or JSON) text; a syntax error throws an `InputError` that reads
 * `file:line:column: message`.
 */
export function parseManifestText(text: string, file: string): LoadedDocument[] {
  const lineCounter = new YAML.LineCounter();
  const docs = YAML.parseAllDocuments(text, { lineCounter, prettyErrors: false });
  const out: LoadedDocument[] = [];
  let n = 0;
  for (const doc of docs) {
    n++;
    const error = doc.errors[0];
    if (error) {
      const pos = error.linePos?.[0] ?? lineCounter.linePos(error.pos[0]);
      throw new InputError(`${file}:${pos.line}:${pos.col}: ${error.message.split('\n')[0]}`);
    }
    let value: unknown;
    try {
      value = doc.toJS({ maxAliasCount: 1000 });
    } catch (e) {
      const pos = lineCounter.linePos(doc.range[0]);
      throw new InputError(`${file}:${pos.line}:${pos.col}: ${(e as Error).message}`);
    }
    // the first line of content, not the `---` before it
    const start = (doc.contents as { range?: number[] } | null)?.range?.[0] ?? doc.range[0];
    out.push({ value, file, document: n, line: lineCounter.linePos(start).line });
  }
  return out;
}
