/*
 * Manifests as a git revision holds them: the committed output folder (`HEAD:dist`), or the base
 * branch's (`origin/main:dist`), for the plan. Runs `git` with argument arrays (no shell), and
 * only when asked: importing this module runs nothing.
 */
import { execFileSync } from 'child_process';
import * as path from 'path';
import { InputError, isManifestFileName } from './load';

/** One manifest file of a revision. */
export interface GitManifestFile {
  /** The file as messages show it: `<ref>:<path from the working directory>`, e.g. `HEAD:dist/app.k8s.yaml`. */
  readonly shown: string;
  /** The path from the working directory, with forward slashes (`dist/app.k8s.yaml`). */
  readonly file: string;
  /** The file's text at the revision. */
  readonly text: string;
}

/** What a revision holds under a path. */
export interface GitManifests {
  /** The revision as the caller named it (`HEAD`, `origin/main`). */
  readonly ref: string;
  /** The commit it names (40 hex digits). */
  readonly commit: string;
  /** The path as the caller named it, relative to the working directory. */
  readonly dir: string;
  /** The manifest files under the path at that revision, sorted; empty when it has none. */
  readonly files: readonly GitManifestFile[];
}

/** Why a revision could not be read. */
export type GitReadFailure = 'no-git' | 'not-a-repository' | 'unknown-revision';

/** A revision that could not be read: the reason, and a message for the user. */
export class GitReadError extends InputError {
  /** Why. */
  public readonly failure: GitReadFailure;

  constructor(failure: GitReadFailure, message: string) {
    super(message, { reason: 'not-found' });
    this.name = 'GitReadError';
    this.failure = failure;
  }
}

const MAX_BUFFER = 512 * 1024 * 1024;

function git(args: readonly string[], cwd: string, input?: string): string {
  return execFileSync('git', args, {
    cwd,
    encoding: 'utf8',
    maxBuffer: MAX_BUFFER,
    stdio: ['pipe', 'pipe', 'pipe'],
    // the user's pager, editor or locale must not change what is read
    env: { ...process.env, GIT_PAGER: 'cat', LC_ALL: 'C', GIT_OPTIONAL_LOCKS: '0' },
    ...(input !== undefined ? { input } : {}),
  });
}

function stderrOf(e: unknown): string {
  const err = (e as { stderr?: unknown }).stderr;
  return (typeof err === 'string' ? err : Buffer.isBuffer(err) ? err.toString('utf8') : '').trim();
}

/**
 * The manifest files (`.yaml`, `.yml`, `.json`, as a folder is read, hidden folders and
 * `node_modules` skipped) under `dir` at git revision `ref`, `dir` taken from `cwd` as git takes
 * paths. A revision without that path gives no files; a `cwd` outside a repository, a revision
 * that does not name a commit, or no `git` on the PATH throw a `GitReadError` saying so.
 */
export function readGitManifests(ref: string, dir: string, cwd: string): GitManifests {
  try {
    git(['rev-parse', '--is-inside-work-tree'], cwd);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') throw new GitReadError('no-git', 'git is not installed (no `git` on the PATH)');
    throw new GitReadError('not-a-repository', `${cwd === process.cwd() ? 'the working directory' : cwd} is not in a git repository`);
  }
  let commit: string;
  try {
    commit = git(['rev-parse', '--verify', '--quiet', '--end-of-options', `${ref}^{commit}`], cwd).trim();
  } catch (e) {
    const detail = stderrOf(e);
    throw new GitReadError('unknown-revision', `git has no commit '${ref}'${detail ? ` (${detail})` : ''}`);
  }
  // `dir` relative to the working directory, as git reads a pathspec given in a subfolder
  const rel = path.relative(cwd, path.resolve(cwd, dir)).split(path.sep).join('/') || '.';
  const prefix = git(['rev-parse', '--show-prefix'], cwd).trim();
  const depth = prefix === '' ? 0 : prefix.replace(/\/$/, '').split('/').length;
  const ups = rel.split('/').filter((p) => p === '..').length;
  if (path.isAbsolute(rel) || ups > depth) throw new GitReadError('not-a-repository', `${dir} is outside the git repository`);
  let listing: string;
  try {
    listing = git(['ls-tree', '-r', '-z', '--full-name', commit, '--', rel], cwd);
  } catch (e) {
    throw new GitReadError('not-a-repository', `${dir}: git cannot list it at ${ref} (${stderrOf(e)})`);
  }
  const blobs: Array<{ id: string; file: string }> = [];
  for (const entry of listing.split('\0')) {
    const m = /^\d+ blob ([0-9a-f]+)\t(.*)$/s.exec(entry);
    if (!m) continue;
    const full = m[2];
    // back to a path from the working directory
    const fromCwd = path.posix.relative(prefix.replace(/\/$/, '') || '.', full);
    const parts = fromCwd.split('/');
    const below = path.posix.relative(rel, fromCwd).split('/');
    if (below.slice(0, -1).some((p) => p.startsWith('.') || p === 'node_modules')) continue;
    if (!isManifestFileName(parts[parts.length - 1])) continue;
    blobs.push({ id: m[1], file: fromCwd });
  }
  blobs.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
  if (blobs.length === 0) return { ref, commit, dir, files: [] };
  // every blob in one process: `<id> blob <size>\n<content>\n` each
  const out = execFileSync('git', ['cat-file', '--batch'], {
    cwd,
    input: blobs.map((b) => b.id).join('\n') + '\n',
    maxBuffer: MAX_BUFFER,
    env: { ...process.env, LC_ALL: 'C' },
  });
  const files: GitManifestFile[] = [];
  let at = 0;
  for (const b of blobs) {
    const eol = out.indexOf(0x0a, at);
    const header = out.subarray(at, eol).toString('utf8').split(' ');
    const size = Number(header[2]);
    if (header[0] !== b.id || header[1] !== 'blob' || !Number.isInteger(size)) {
      throw new InputError(`git cat-file gave '${header.join(' ')}' for ${ref}:${b.file}`, { reason: 'unreadable' });
    }
    files.push({ shown: `${ref}:${b.file}`, file: b.file, text: out.subarray(eol + 1, eol + 1 + size).toString('utf8') });
    at = eol + 1 + size + 1;
  }
  return { ref, commit, dir, files };
}

/** The top folder of the git work tree holding `dir`, or undefined (no git, or not in a work tree). */
export function gitTopLevel(dir: string): string | undefined {
  try {
    const top = git(['rev-parse', '--show-toplevel'], dir).trim();
    return top === '' ? undefined : path.resolve(top);
  } catch {
    return undefined;
  }
}
