/*
 * What the plan compares a new synth with: the previous output as a folder holds it, or as a git
 * revision holds it. `cdk8s synth` empties the output folder before it runs the app (cdk8s-cli
 * 2.207.60 lib/cli/cmds/synth.js, `fs.rmSync(outdir, { recursive: true, force: true })` in the
 * synth command's handler; cdk8s 2.70.106 App.synth then creates it empty again), so under
 * `cdk8s synth` the previous output is only in git.
 */
import * as fs from 'fs';
import * as path from 'path';
import { invalid } from '../manifests/errors';
import { GitReadError, readGitManifests } from '../manifests/git';
import { InputError, collectFiles, parseManifestText } from '../manifests/load';
import { underCdk8sCli } from '../rules/synth-refusal';

/** How the baseline was chosen. @internal */
type BaselineMode = 'previous-output' | 'folder' | 'git';

/**
 * The previous output the plan compares a new synth with (`addPlanValidation`'s `baseline`):
 * the output folder as last written or else as committed, a folder, or a git revision.
 */
export class PlanBaseline {
  /**
   * The output as last written, else as committed: the manifests in `dir` when it has any (an
   * app run directly, `node main.ts`), else the manifests under `dir` at git `HEAD` (`cdk8s
   * synth`, which empties the folder first). When neither has any, nothing is compared, and the
   * synth says so on standard error.
   *
   * @param dir the output folder, relative to the working directory
   * @default - the app's `outdir`
   */
  public static previousOutput(dir?: string): PlanBaseline {
    if (dir !== undefined) PlanBaseline.checkPath('PlanBaseline.previousOutput', 'dir', dir, "pass the output folder, e.g. 'dist'");
    return new PlanBaseline('previous-output', dir);
  }

  /**
   * The manifests in a folder, and nothing else: a copy of the previous output, or a checkout
   * of the base branch. A folder that is missing or has no manifests means a first synth, said
   * on standard error. Refused under `cdk8s synth` when it is the app's output folder, which
   * `cdk8s synth` has emptied.
   *
   * @param dir the folder, relative to the working directory
   */
  public static folder(dir: string): PlanBaseline {
    PlanBaseline.checkPath('PlanBaseline.folder', 'dir', dir, "pass the folder of the previous output, e.g. 'previous-dist'");
    return new PlanBaseline('folder', dir);
  }

  /**
   * The manifests under `dir` at a git revision: `HEAD` (the output as committed), or the base
   * branch of a pull request (`origin/main`). A revision git cannot read fails the synth; a
   * revision without manifests under `dir` means a first synth, said on standard error.
   *
   * @param revision a branch, tag or commit
   * @param dir the output folder, relative to the working directory
   * @default - dir: the app's `outdir`
   */
  public static gitRef(revision: string, dir?: string): PlanBaseline {
    PlanBaseline.checkPath('PlanBaseline.gitRef', 'revision', revision, "pass a branch, tag or commit, e.g. 'HEAD' or 'origin/main'");
    if (revision.startsWith('-')) {
      invalid(
        'PlanBaseline.gitRef',
        'revision',
        revision,
        'starts with a dash, which git would read as an option',
        "pass a branch, tag or commit, e.g. 'origin/main'",
      );
    }
    if (dir !== undefined) PlanBaseline.checkPath('PlanBaseline.gitRef', 'dir', dir, "pass the output folder, e.g. 'dist'");
    return new PlanBaseline('git', dir, revision);
  }

  /** @internal */
  public static readonly _factories = "PlanBaseline.previousOutput(), PlanBaseline.folder('previous-dist') or PlanBaseline.gitRef('origin/main')";

  private static checkPath(where: string, prop: string, value: unknown, fix: string): void {
    if (typeof value !== 'string' || value === '') invalid(where, prop, value, 'must be a non-empty string', fix);
  }

  private constructor(
    /** @internal */ public readonly _mode: BaselineMode,
    /** @internal */ public readonly _dir: string | undefined,
    /** @internal */ public readonly _ref?: string,
  ) {}
}

/** The previous manifests a baseline found, and what they were. @internal */
export interface BaselineRead {
  /** The parsed objects; empty when nothing was found. */
  readonly objects: unknown[];
  /** What was read, for the user: `git HEAD:dist (2 files)`, `dist (folder, 2 files)`. */
  readonly description: string;
  /** False when nothing was found: a first synth. */
  readonly found: boolean;
  /** Where each object was read, as messages show it (`HEAD:dist/app.k8s.yaml`, `dist/app.k8s.yaml`). */
  readonly sources?: ReadonlyMap<unknown, string>;
  /**
   * The files read from git, with their paths from the working directory, when they are the
   * output folder's: what to write back when `cdk8s synth` emptied that folder.
   */
  readonly gitFiles?: ReadonlyArray<{ readonly file: string; readonly text: string }>;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** The objects of the manifest files in `dir`, or undefined when it is missing or has none. */
function readFolder(dir: string, cwd: string): { objects: unknown[]; files: number; sources: Map<unknown, string> } | undefined {
  const full = path.resolve(cwd, dir);
  if (!fs.existsSync(full)) return undefined;
  let files: string[];
  try {
    files = collectFiles([full], cwd);
  } catch (e) {
    if (e instanceof InputError && e.reason === 'no-manifests') return undefined;
    throw e;
  }
  const objects: unknown[] = [];
  const sources = new Map<unknown, string>();
  for (const file of files) {
    const shown = display(path.relative(cwd, file) || file);
    for (const d of parseManifestText(fs.readFileSync(file, 'utf8'), shown)) {
      objects.push(d.value);
      sources.set(d.value, shown);
    }
  }
  return { objects, files: files.length, sources };
}

/** The objects under `dir` at `ref`; undefined when git has none there, or (`optional`) cannot read the revision. */
interface RevisionRead {
  readonly objects: unknown[];
  readonly files: number;
  readonly why?: string;
  readonly sources?: Map<unknown, string>;
  readonly gitFiles?: Array<{ readonly file: string; readonly text: string }>;
}

function readRevision(ref: string, dir: string, cwd: string, optional: boolean): RevisionRead | undefined {
  let read;
  try {
    read = readGitManifests(ref, dir, cwd);
  } catch (e) {
    if (optional && e instanceof GitReadError) return { objects: [], files: 0, why: e.message };
    throw e;
  }
  if (read.files.length === 0) return undefined;
  const objects: unknown[] = [];
  const sources = new Map<unknown, string>();
  for (const f of read.files) {
    for (const d of parseManifestText(f.text, f.shown)) {
      objects.push(d.value);
      sources.set(d.value, f.shown);
    }
  }
  return { objects, files: read.files.length, sources, gitFiles: read.files.map((f) => ({ file: f.file, text: f.text })) };
}

function display(dir: string): string {
  return dir.split(path.sep).join('/');
}

/**
 * Reads the baseline of a synth whose output folder is `outdir`. Throws an `InputError` for a
 * baseline that cannot be read (a revision git does not have, a folder `cdk8s synth` emptied).
 * @internal
 */
export function readBaseline(baseline: PlanBaseline, outdir: string, cwd: string, env: NodeJS.ProcessEnv = process.env): BaselineRead {
  const dir = baseline._dir ?? outdir;
  const shown = display(path.isAbsolute(dir) ? path.relative(cwd, dir) || '.' : dir);
  if (baseline._mode === 'git') {
    const ref = baseline._ref!;
    const got = readRevision(ref, dir, cwd, false);
    if (!got) return { objects: [], found: false, description: `nothing: git ${ref} has no manifests under ${shown}, so every object is new` };
    const own = path.resolve(cwd, dir) === path.resolve(cwd, outdir);
    return {
      objects: got.objects,
      found: true,
      description: `git ${ref}:${shown} (${plural(got.files, 'file')})`,
      sources: got.sources,
      ...(own && { gitFiles: got.gitFiles }),
    };
  }
  const sameAsOutdir = path.resolve(cwd, dir) === path.resolve(cwd, outdir);
  const folder = readFolder(dir, cwd);
  if (folder) return { objects: folder.objects, found: true, description: `${shown} (folder, ${plural(folder.files, 'file')})`, sources: folder.sources };
  if (baseline._mode === 'folder') {
    if (sameAsOutdir && underCdk8sCli(env)) {
      throw new InputError(
        `the baseline folder ${shown} is the output folder, which \`cdk8s synth\` empties before it runs the app, so the plan would never see the previous output; ` +
          `compare with git instead (PlanBaseline.previousOutput() or PlanBaseline.gitRef('HEAD')), or copy the previous output to a folder of its own`,
      );
    }
    return { objects: [], found: false, description: `nothing: ${shown} is missing or has no manifests, so every object is new` };
  }
  const got = readRevision('HEAD', dir, cwd, true);
  if (got && got.why === undefined) {
    return {
      objects: got.objects,
      found: true,
      description: `git HEAD:${shown} (${plural(got.files, 'file')})`,
      sources: got.sources,
      ...(sameAsOutdir && { gitFiles: got.gitFiles }),
    };
  }
  const inGit = got?.why !== undefined ? `git cannot tell (${got.why})` : `git HEAD has none under ${shown}`;
  return {
    objects: [],
    found: false,
    description: `nothing: ${shown} has no manifests${underCdk8sCli(env) ? ' (cdk8s synth empties it first)' : ''} and ${inGit}, so every object is new`,
  };
}
