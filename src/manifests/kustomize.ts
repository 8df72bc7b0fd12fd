/*
 * Folders with a kustomization file, read as kustomize renders them: `kustomize build DIR`, else
 * `kubectl kustomize DIR`, when one is on the PATH (or named by CNPG_I_KUSTOMIZE). Without
 * either, a folder's files are read one by one, except the patches its kustomization lists,
 * which are not whole objects. Runs a program only when asked: importing this module runs nothing.
 */
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { asArray, asObject, asString, dig } from './json';
import { InputError, isManifestFileName, isWalkedFolder, listFolder, parseManifestText } from './load';
import type { PatchTarget, UnappliedPatch } from './unapplied-patches';

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
  /** `Kustomization` or `Component` (kustomize's default when the file names no kind). */
  readonly kind: string;
  /**
   * The files it reads that are not objects to apply: its patches (`patches[].path`,
   * `patchesStrategicMerge`, `patchesJson6902[].path`), the configurations of its
   * `transformers`, `generators` and `validators`, `configurations`, `crds`, `openapi.path`,
   * `replacements[].path`, the data files of `configMapGenerator` and `secretGenerator`
   * (`files`, `envs`, `env`) and the values files of `helmCharts`.
   */
  readonly patches: Set<string>;
  /** The files of its `resources` (objects it adds). */
  readonly resources: string[];
  /** The local folders of its `resources` and `components` (other kustomizations it builds in). */
  readonly folders: Set<string>;
  /** Its `namespace`: kustomize sets it on every object it builds (see `withKustomizeNamespace`). */
  readonly namespace?: string;
  /** Its patches (`patches`, `patchesStrategicMerge`, `patchesJson6902`), as the doctor could read them. */
  readonly objectPatches: readonly UnappliedPatch[];
  /** The local folders of its `components` (a subset of `folders`). */
  readonly components: Set<string>;
  /**
   * Whether it is a kustomize file that parsed (`kustomize.config.k8s.io`, or no apiVersion, as
   * kustomize accepts): then `resources` is all it builds from its folder's files.
   */
  readonly parsed: boolean;
}

/** Whether a kustomization entry names something on this machine (not a URL or a remote base). */
function isLocalEntry(entry: string | undefined): entry is string {
  return !!entry && !entry.includes('\n') && !entry.includes('://') && !entry.includes('?');
}

/**
 * The files and folders a kustomization file names (kustomize api v0.21.1
 * types/kustomization.go `Kustomization`); empty for a file that does not parse (it is read as
 * a document too, and its error is reported there).
 */
export function kustomizationEntries(file: string): KustomizationEntries {
  const patches = new Set<string>();
  const resources: string[] = [];
  const folders = new Set<string>();
  const objectPatches: UnappliedPatch[] = [];
  const components = new Set<string>();
  let docs;
  try {
    docs = parseManifestText(fs.readFileSync(file, 'utf8'), file);
  } catch {
    return { kind: 'Kustomization', patches, resources, folders, components, objectPatches, parsed: false };
  }
  let namespace: string | undefined;
  const dir = path.dirname(file);
  let kind = 'Kustomization';
  let parsed = false;
  const add = (p: string | undefined) => {
    // an inline patch or transformer is YAML text, not a file name
    if (isLocalEntry(p)) patches.add(path.resolve(dir, p));
  };
  for (const d of docs) {
    const k = asObject(d.value);
    if (!k) continue;
    kind = asString(k.kind) || kind;
    const apiVersion = asString(k.apiVersion);
    if (apiVersion === undefined || apiVersion.startsWith('kustomize.config.k8s.io/')) parsed = true;
    namespace = asString(k.namespace) || namespace;
    for (const p of asArray(k.patchesStrategicMerge)) {
      add(asString(p));
      const entry = asString(p);
      objectPatches.push(readPatch(file, isLocalEntry(entry) ? { path: entry } : { inline: entry }, undefined));
    }
    for (const p of [...asArray(k.patches), ...asArray(k.patchesJson6902)]) {
      const at = asString(asObject(p)?.path);
      add(at);
      objectPatches.push(readPatch(file, at !== undefined ? { path: at } : { inline: asString(asObject(p)?.patch) }, asObject(asObject(p)?.target)));
    }
    for (const p of asArray(k.replacements)) add(asString(asObject(p)?.path));
    for (const p of [...asArray(k.transformers), ...asArray(k.generators), ...asArray(k.validators), ...asArray(k.configurations), ...asArray(k.crds)]) {
      add(asString(p));
    }
    add(asString(dig(k, 'openapi', 'path')));
    for (const g of [...asArray(k.configMapGenerator), ...asArray(k.secretGenerator)]) {
      // `files` entries may be `key=path`
      for (const f of asArray(dig(g, 'files'))) add(asString(f)?.replace(/^[^=]*=/, ''));
      for (const f of asArray(dig(g, 'envs'))) add(asString(f));
      add(asString(dig(g, 'env')));
    }
    for (const h of asArray(k.helmCharts)) {
      add(asString(dig(h, 'valuesFile')));
      for (const f of asArray(dig(h, 'additionalValuesFiles'))) add(asString(f));
    }
    for (const r of [...asArray(k.resources), ...asArray(k.components), ...asArray(k.bases)]) {
      const entry = asString(r);
      // a remote base (a URL, `github.com/...?ref=`) is not on this machine
      if (!isLocalEntry(entry)) continue;
      const full = path.resolve(dir, entry);
      try {
        const st = fs.statSync(full);
        if (st.isDirectory()) {
          folders.add(fs.realpathSync(full));
          if (asArray(k.components).includes(r)) components.add(fs.realpathSync(full));
        } else if (st.isFile() && !asArray(k.components).includes(r)) resources.push(full);
      } catch {
        // missing: kustomize says so when it builds
      }
    }
  }
  return { kind, patches, resources, folders, components, objectPatches, parsed, ...(namespace ? { namespace } : {}) };
}

/**
 * One patch entry of a kustomization: `entry` is a file name or inline YAML, `target` its
 * selector (kustomize api v0.21.1 types/patch.go `Patch`, types/selector.go `Selector`). Without a
 * target a strategic-merge patch applies to the object of its own kind, name and namespace
 * (see `patchMayApply`); with one, to the objects the selector picks.
 */
function readPatch(
  kfile: string,
  entry: { readonly path: string } | { readonly inline: string | undefined },
  target: Record<string, unknown> | undefined,
): UnappliedPatch {
  const dir = path.dirname(kfile);
  const inline = !('path' in entry);
  const file = 'path' in entry ? path.resolve(dir, entry.path) : kfile;
  const shown = inline ? `an inline patch of ${file}` : file;
  const base = { shown, file, inline };
  let missing = false;
  let text = 'inline' in entry ? entry.inline : undefined;
  if ('path' in entry) {
    try {
      text = fs.readFileSync(file, 'utf8');
    } catch {
      missing = true;
    }
  }
  if (target) {
    // a selector by labels or annotations picks objects the doctor cannot list from the patch
    if (asString(target.labelSelector) || asString(target.annotationSelector)) return { ...base, missing };
    const kind = asString(target.kind);
    const name = asString(target.name);
    const namespace = asString(target.namespace);
    return { ...base, missing, targets: [{ ...(kind ? { kind } : {}), ...(name ? { name } : {}), ...(namespace ? { namespace } : {}) }] };
  }
  if (text === undefined) return { ...base, missing };
  const targets: PatchTarget[] = [];
  try {
    for (const d of parseManifestText(text, shown)) {
      const o = asObject(d.value);
      const kind = asString(o?.kind);
      const name = asString(dig(o, 'metadata', 'name'));
      if (!kind || !name) return { ...base, missing };
      targets.push({ kind, name, namespace: asString(dig(o, 'metadata', 'namespace')) || null, exact: true });
    }
  } catch {
    return { ...base, missing };
  }
  return { ...base, missing, targets };
}

/** The files a kustomization reads that are not objects to apply, as absolute paths (see {@link kustomizationEntries}). */
export function kustomizationPatches(file: string): Set<string> {
  return kustomizationEntries(file).patches;
}

/**
 * A kustomize Component folder (`kind: Component`): its resources are added to each
 * kustomization that includes it (`components:`, or a Flux Kustomization's `spec.components`),
 * which sets their namespace and variables, so they are never read as objects of their own.
 */
export interface ComponentFolder {
  /** The folder as an absolute real path. */
  readonly dir: string;
  /** The folder as messages show it. */
  readonly shown: string;
  /** Its resource files as messages show them (to read from the working directory), in its order. */
  readonly resources: readonly string[];
}

/**
 * One input: a manifest file, a kustomize folder to render, or a kustomize Component folder
 * (read only where a Flux Kustomization includes it).
 */
export type CollectedInput =
  | {
      readonly kind: 'file';
      readonly file: string;
      /**
       * The `namespace` of the kustomization that lists the file, or of one that builds its folder
       * in: the doctor reads the file unrendered, with that namespace set as kustomize would.
       */
      readonly namespace?: string;
      /** The patches of the kustomizations that build the file (read unrendered), which were not applied to it. */
      readonly patches?: readonly UnappliedPatch[];
    }
  | {
      /**
       * A file that only a Flux Kustomization pointing at its folder would apply, read only
       * then: its name marks it as a template (see {@link isTemplateFileName}) and no
       * kustomization lists it, or it sits in a folder without a kustomization whose files a
       * kustomization above lists one by one, and it is not among them.
       */
      readonly kind: 'conditional';
      readonly file: string;
      readonly why: 'template' | 'unlisted';
    }
  | { readonly kind: 'kustomize'; readonly dir: string; readonly shown: string }
  | ({ readonly kind: 'component' } & ComponentFolder);

/**
 * Expands the command line's paths as `collectFiles` does (files as given, folders recursively,
 * hidden folders and `node_modules` skipped, `-` for stdin), with kustomize folders: with a
 * `program`, a folder holding a kustomization file is one input to render (its subfolders are its
 * own business), unless another such folder of the input builds it in (a base of an overlay: it
 * is rendered as part of the overlay); without one, its files are listed but for the files it
 * names that are not objects (its patches, generator data, the folders of its transformers: see
 * `kustomizationEntries`) and the files it does not list at all: kustomize builds a folder from
 * the resources its kustomization names (kustomize api v0.21.1 api/internal/target/kusttarget.go
 * `KustTarget.accumulateTarget`, `accumulateResources`), and Flux uses a folder's kustomization
 * file as it is, generating one only where there is none (fluxcd/pkg kustomize/v1.35.4
 * kustomize/kustomize_generator.go `findOrGenerateKustomization`). Its subfolders are walked
 * still: a Flux Kustomization may point at one. A
 * Component folder is neither rendered nor read file by file (kustomize cannot build one alone,
 * and its files are fragments of the kustomizations that include it): it is one `component`
 * input, and without a program its kustomization file is listed too, so that the doctor says it
 * was not rendered.
 */
export function collectInputs(paths: readonly string[], cwd: string, program: KustomizeProgram | undefined): CollectedInput[] {
  const out: CollectedInput[] = [];
  const seen = new Set<string>();
  const walk = (
    dir: string,
    shown: string,
    excluded: ReadonlySet<string>,
    inherited: string | undefined,
    inheritedPatches: readonly UnappliedPatch[],
    listedAbove: ReadonlySet<string>,
  ): void => {
    const kfile = kustomizationFile(dir);
    const entries = kfile ? kustomizationEntries(kfile) : undefined;
    const listed = entries ? new Set([...listedAbove, ...entries.resources]) : listedAbove;
    const namespace = entries?.namespace ?? inherited;
    const shownOf = (full: string) => path.join(shown, path.relative(dir, full));
    // a parent kustomization's patches apply to what its folders build too, and so do the
    // patches of the Components it includes (kustomize api v0.21.1 kusttarget.go
    // accumulateComponents: a Component's transformers run on the including kustomization's objects)
    const componentPatches = [...(entries?.components ?? [])].flatMap((c) => {
      const file = entries?.kind === 'Component' ? undefined : kustomizationFile(c);
      const included = file ? kustomizationEntries(file) : undefined;
      return included?.kind === 'Component' ? included.objectPatches : [];
    });
    const patches = [
      ...[...(entries?.objectPatches ?? []), ...componentPatches].map((p) => ({
        ...p,
        shown: p.inline ? `an inline patch of ${shownOf(p.file)}` : shownOf(p.file),
      })),
      ...inheritedPatches,
    ];
    if (kfile && entries?.kind === 'Component') {
      const real = realOrUndefined(dir);
      if (real === undefined || seen.has(real)) return;
      seen.add(real);
      out.push({ kind: 'component', dir: real, shown, resources: entries.resources.map(shownOf) });
      if (!program) out.push({ kind: 'file', file: shownOf(kfile) });
      return;
    }
    if (kfile && program) {
      const real = realOrUndefined(dir);
      if (real === undefined || seen.has(real)) return;
      seen.add(real);
      out.push({ kind: 'kustomize', dir, shown });
      return;
    }
    const skip = entries ? new Set([...excluded, ...entries.patches]) : excluded;
    const listing = listFolder(dir, shown, seen) ?? [];
    // a folder without a kustomization whose files one above lists by name: those are what it builds
    const listedHere = !entries && listing.some((e) => listed.has(e.full));
    for (const e of listing) {
      // a folder of transformer, generator or validator configurations holds no objects to apply
      if (skip.has(e.full)) continue;
      if (isWalkedFolder(e)) {
        // a subfolder the kustomization builds in gets its namespace; one it does not name is not built by it
        const builtIn = entries ? entries.folders.has(realOrUndefined(e.full) ?? '') : true;
        walk(e.full, e.shown, skip, builtIn ? namespace : undefined, builtIn ? patches : [], listed);
      } else if (e.isFile && (isManifestFileName(e.name) || e.name === 'Kustomization')) {
        // kustomize builds a folder from the files its kustomization lists, and Flux uses that
        // kustomization as it is: a file it does not list is not applied through this folder
        if (entries?.parsed && e.full !== kfile && !entries.resources.includes(e.full)) continue;
        const built = e.full !== kfile && (!entries || entries.resources.includes(e.full));
        if (listedHere && !listed.has(e.full)) {
          out.push({ kind: 'conditional', file: e.shown, why: 'unlisted' });
          continue;
        }
        if (isTemplateFileName(e.name) && !listed.has(e.full)) {
          out.push({ kind: 'conditional', file: e.shown, why: 'template' });
          continue;
        }
        out.push({
          kind: 'file',
          file: e.shown,
          ...(built && namespace !== undefined ? { namespace } : {}),
          ...(built && patches.length > 0 ? { patches } : {}),
        });
      }
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
      walk(full, p, new Set(), undefined, [], new Set());
      if (out.length === before) throw new InputError(`${p}: no .yaml, .yml or .json files in this directory`, { reason: 'no-manifests' });
    } else {
      out.push({ kind: 'file', file: p });
    }
  }
  // a folder that another rendered folder of the input builds in, directly or through the folders
  // it builds in (an overlay of overlays), is rendered there
  const builtIn = new Set<string>();
  const addBuiltIn = (dir: string) => {
    const file = kustomizationFile(dir);
    if (!file) return;
    for (const f of kustomizationEntries(file).folders) {
      if (builtIn.has(f)) continue;
      builtIn.add(f);
      addBuiltIn(f);
    }
  };
  for (const i of out) if (i.kind === 'kustomize') addBuiltIn(i.dir);
  return out.filter((i) => i.kind !== 'kustomize' || !builtIn.has(fs.realpathSync(i.dir)));
}

function realOrUndefined(p: string): string | undefined {
  try {
    return fs.realpathSync(p);
  } catch {
    return undefined;
  }
}

/**
 * Whether a file's name marks it as a template that another tool fills before anything applies
 * it (`cluster.template.yaml`, `job.tmpl.yaml`, `values.tpl.yml`, `template.yaml`): such files are
 * copied and edited, or rendered by a task runner, and carry that tool's placeholders.
 */
export function isTemplateFileName(name: string): boolean {
  return /(?:^|\.)(?:template|tmpl|tpl)\.(?:ya?ml|json)$/i.test(name);
}

/**
 * Whether the kustomization Flux generates for a folder without one (`spec.path` of a Flux
 * Kustomization) lists `file`: it walks the folder for `.yaml`/`.yml` files and stops at each
 * subfolder that has a kustomization file of its own (fluxcd/pkg kustomize/v1.35.4
 * kustomize/kustomize_generator.go `findOrGenerateKustomization`, `scanManifests`). Both are
 * absolute real paths.
 */
export function fluxGeneratorIncludes(dir: string, file: string): boolean {
  if (!/\.ya?ml$/.test(file)) return false;
  const rel = path.relative(dir, path.dirname(file));
  if (rel.startsWith('..') || path.isAbsolute(rel)) return false;
  // the folder itself and each folder below it on the way to the file
  let at = dir;
  for (const part of ['', ...(rel === '' ? [] : rel.split(path.sep))]) {
    at = path.join(at, part);
    if (kustomizationFile(at)) return false;
  }
  return true;
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
