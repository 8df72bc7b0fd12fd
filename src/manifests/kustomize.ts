/*
 * Folders with a kustomization file, read as kustomize renders them: `kustomize build DIR`, else
 * `kubectl kustomize DIR`, when one is on the PATH (or named by CNPG_I_KUSTOMIZE). Without
 * either, a folder's files are read one by one, except the patches its kustomization lists,
 * which are not whole objects. Runs a program only when asked: importing this module runs nothing.
 */
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { asArray, asObject, asString } from './json';
import { InputError, isManifestFileName, parseManifestText } from './load';

/** The file names kustomize reads as a folder's kustomization (kustomize api v0.21.1 konfig.RecognizedKustomizationFileNames). */
export const KUSTOMIZATION_FILE_NAMES: readonly string[] = ['kustomization.yaml', 'kustomization.yml', 'Kustomization'];

/** The environment variable that names the kustomize program to run (`none`: render nothing). */
export const KUSTOMIZE_ENV = 'CNPG_I_KUSTOMIZE';

/** How to render a folder: the program and the arguments before the folder. */
export interface KustomizeProgram {
  readonly command: string;
  readonly args: readonly string[];
  /** How messages name it: `kustomize build` or `kubectl kustomize`. */
  readonly shown: string;
}

function onPath(name: string, env: NodeJS.ProcessEnv): string | undefined {
  for (const dir of (env.PATH ?? '').split(path.delimiter)) {
    if (!dir) continue;
    const full = path.join(dir, name);
    try {
      fs.accessSync(full, fs.constants.X_OK);
      if (fs.statSync(full).isFile()) return full;
    } catch {
      // not there
    }
  }
  return undefined;
}

/**
 * The program that renders kustomize folders: `CNPG_I_KUSTOMIZE` when set (a kustomize binary;
 * `none` for no rendering), else `kustomize` on the PATH, else `kubectl` (its `kustomize`
 * subcommand), else undefined.
 */
export function findKustomize(env: NodeJS.ProcessEnv = process.env): KustomizeProgram | undefined {
  const chosen = env[KUSTOMIZE_ENV];
  if (chosen !== undefined && chosen !== '') {
    if (chosen === 'none') return undefined;
    return { command: chosen, args: ['build'], shown: 'kustomize build' };
  }
  const kustomize = onPath('kustomize', env);
  if (kustomize) return { command: kustomize, args: ['build'], shown: 'kustomize build' };
  const kubectl = onPath('kubectl', env);
  if (kubectl) return { command: kubectl, args: ['kustomize'], shown: 'kubectl kustomize' };
  return undefined;
}

/** The kustomization file of a folder, if it has one. */
export function kustomizationFile(dir: string): string | undefined {
  for (const name of KUSTOMIZATION_FILE_NAMES) {
    const full = path.join(dir, name);
    try {
      if (fs.statSync(full).isFile()) return full;
    } catch {
      // not this name
    }
  }
  return undefined;
}

/** What a kustomization names on this machine, as absolute paths. */
export interface KustomizationEntries {
  /**
   * The files it lists as patches (`patches[].path`, `patchesStrategicMerge`,
   * `patchesJson6902[].path`): partial objects, not objects to apply.
   */
  readonly patches: Set<string>;
  /** The local folders of its `resources` and `components` (other kustomizations it builds in). */
  readonly folders: Set<string>;
}

/** The patches and folders a kustomization file names; empty for a file that does not parse (it is read as a document too, and its error is reported there). */
export function kustomizationEntries(file: string): KustomizationEntries {
  const patches = new Set<string>();
  const folders = new Set<string>();
  let docs;
  try {
    docs = parseManifestText(fs.readFileSync(file, 'utf8'), file);
  } catch {
    return { patches, folders };
  }
  const dir = path.dirname(file);
  for (const d of docs) {
    const k = asObject(d.value);
    if (!k) continue;
    const add = (p: string | undefined) => {
      // an inline patch is YAML text, not a file name
      if (p && !p.includes('\n')) patches.add(path.resolve(dir, p));
    };
    for (const p of asArray(k.patchesStrategicMerge)) add(asString(p));
    for (const p of asArray(k.patches)) add(asString(asObject(p)?.path));
    for (const p of asArray(k.patchesJson6902)) add(asString(asObject(p)?.path));
    for (const r of [...asArray(k.resources), ...asArray(k.components), ...asArray(k.bases)]) {
      const entry = asString(r);
      // a remote base (a URL, `github.com/...?ref=`) is not on this machine
      if (!entry || entry.includes('://') || entry.includes('?')) continue;
      const full = path.resolve(dir, entry);
      try {
        if (fs.statSync(full).isDirectory()) folders.add(fs.realpathSync(full));
      } catch {
        // a file, or missing: kustomize says so when it builds
      }
    }
  }
  return { patches, folders };
}

/** The files a kustomization lists as patches, as absolute paths (see {@link kustomizationEntries}). */
export function kustomizationPatches(file: string): Set<string> {
  return kustomizationEntries(file).patches;
}

/** One input: a manifest file, or a kustomize folder to render. */
export type CollectedInput = { readonly kind: 'file'; readonly file: string } | { readonly kind: 'kustomize'; readonly dir: string; readonly shown: string };

/**
 * Expands the command line's paths as `collectFiles` does (files as given, folders recursively,
 * hidden folders and `node_modules` skipped, `-` for stdin), with kustomize folders: with a
 * `program`, a folder holding a kustomization file is one input to render (its subfolders are its
 * own business), unless another such folder of the input builds it in (a base of an overlay: it
 * is rendered as part of the overlay); without one, its files are listed but for the patches it
 * names.
 */
export function collectInputs(paths: readonly string[], cwd: string, program: KustomizeProgram | undefined): CollectedInput[] {
  const out: CollectedInput[] = [];
  const seen = new Set<string>();
  const walk = (dir: string, shown: string, excluded: ReadonlySet<string>): void => {
    let real: string;
    try {
      real = fs.realpathSync(dir);
    } catch {
      return;
    }
    if (seen.has(real)) return;
    seen.add(real);
    const kfile = kustomizationFile(dir);
    if (kfile && program) {
      out.push({ kind: 'kustomize', dir, shown });
      return;
    }
    const skip = kfile ? new Set([...excluded, ...kustomizationPatches(kfile)]) : excluded;
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch (e) {
      throw new InputError(`${shown}: cannot read this directory (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`, { reason: 'unreadable' });
    }
    entries.sort((a, b) => a.name.localeCompare(b.name));
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
      if (isDir && !e.name.startsWith('.') && e.name !== 'node_modules') walk(full, display, skip);
      else if (isFile && (isManifestFileName(e.name) || e.name === 'Kustomization') && !skip.has(full)) out.push({ kind: 'file', file: display });
    }
  };
  for (const p of paths) {
    if (p === '-') {
      out.push({ kind: 'file', file: '-' });
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
      walk(full, p, new Set());
      if (out.length === before) throw new InputError(`${p}: no .yaml, .yml or .json files in this directory`, { reason: 'no-manifests' });
    } else {
      out.push({ kind: 'file', file: p });
    }
  }
  // a folder that another rendered folder of the input builds in is rendered there
  const builtIn = new Set<string>();
  for (const i of out) {
    if (i.kind !== 'kustomize') continue;
    const file = kustomizationFile(i.dir);
    if (file) for (const f of kustomizationEntries(file).folders) builtIn.add(f);
  }
  return out.filter((i) => i.kind !== 'kustomize' || !builtIn.has(fs.realpathSync(i.dir)));
}

/** How a rendered folder is shown as a file: `apps/prod (kustomize build)`. */
export function renderedName(shown: string, program: KustomizeProgram): string {
  return `${shown} (${program.shown})`;
}

/** Runs the program on a folder and returns the YAML it prints; a failure is an `InputError` (`unreadable`) with kustomize's first line. */
export function renderKustomization(program: KustomizeProgram, dir: string, shown: string): string {
  try {
    return execFileSync(program.command, [...program.args, dir], {
      encoding: 'utf8',
      maxBuffer: 256 * 1024 * 1024,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, LC_ALL: 'C' },
    });
  } catch (e) {
    const err = e as NodeJS.ErrnoException & { stderr?: string | Buffer };
    const stderr = (typeof err.stderr === 'string' ? err.stderr : (err.stderr?.toString('utf8') ?? '')).trim();
    const why = err.code === 'ENOENT' ? `${program.command} is not there (${KUSTOMIZE_ENV} or the PATH names it)` : stderr.split('\n')[0] || err.message;
    throw new InputError(`${shown}: ${program.shown} failed: ${why}`, { reason: 'unreadable' });
  }
}

/**
 * A kustomization file read as a document: kustomize gives one without `apiVersion` or `kind`
 * its defaults (kustomize api v0.21.1 types/kustomization.go FixKustomization), so that the
 * doctor sees it for what it is.
 */
export function asKustomizationDocument(value: unknown): unknown {
  const o = asObject(value);
  if (!o) return value;
  const kind = asString(o.kind) || 'Kustomization';
  const apiVersion = asString(o.apiVersion) || (kind === 'Component' ? 'kustomize.config.k8s.io/v1alpha1' : 'kustomize.config.k8s.io/v1beta1');
  return o.kind === kind && o.apiVersion === apiVersion ? value : { ...o, apiVersion, kind };
}
