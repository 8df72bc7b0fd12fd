/*
 * What the jsii scripts share: running a tool, finding one on the PATH, and the staged copy of
 * the checkout that jsii compiles (scripts/jsii-bindings.mjs, scripts/bindings-apps.mjs).
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const BIN = path.join(ROOT, 'node_modules', '.bin');

/**
 * The environment of the jsii tools and runtimes: no banner about this Node.js release (@jsii/check-node
 * reads the first variable as a flag, the second as a list of major versions), no colour.
 */
export function toolEnv(extra = {}) {
  return {
    ...process.env,
    JSII_SILENCE_WARNING_DEPRECATED_NODE_VERSION: '1',
    JSII_SILENCE_WARNING_END_OF_LIFE_NODE_VERSION: process.versions.node.split('.')[0],
    NO_COLOR: '1',
    FORCE_COLOR: '0',
    ...extra,
  };
}

/**
 * Runs `cmd` and returns spawnSync's result; throws when it exits non-zero (unless `allowFail`),
 * with its output in the message. `env` adds to the tools' environment.
 */
export function run(cmd, args, cwd, { allowFail = false, env = {}, input } = {}) {
  const r = spawnSync(cmd, args, { cwd, env: toolEnv(env), input, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  if (r.error) {
    if (allowFail) return { status: null, stdout: '', stderr: r.error.message, missing: r.error.code === 'ENOENT' };
    throw new Error(`${cmd}: ${r.error.message}`);
  }
  if (r.status !== 0 && !allowFail) throw new Error(`${path.basename(cmd)} ${args.join(' ')} exited ${r.status}\n${r.stdout}\n${r.stderr}`);
  return r;
}

/** The full path of `tool` on the PATH (or in one of the `extra` folders first), else undefined. */
export function which(tool, extra = []) {
  for (const dir of [...extra, ...(process.env.PATH ?? '').split(path.delimiter)]) {
    const full = path.join(dir, tool);
    if (dir && fs.existsSync(full)) return full;
  }
  return undefined;
}

/** The files of the checkout that git tracks, and new ones it does not ignore (relative, regular files only). */
export function checkoutFiles(...pathspecs) {
  return run('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard', '--', ...pathspecs], ROOT)
    .stdout.split('\0')
    .filter((f) => {
      if (!f) return false;
      const full = path.join(ROOT, f);
      // deleted but not staged, or a symlink (a linked node_modules is not ignored by `node_modules/`)
      return fs.existsSync(full) && fs.lstatSync(full).isFile();
    });
}

/** A copy of the checkout (tracked and new, unignored files) in `into`, with node_modules linked. */
export function stage(into) {
  for (const f of checkoutFiles()) {
    fs.mkdirSync(path.dirname(path.join(into, f)), { recursive: true });
    fs.copyFileSync(path.join(ROOT, f), path.join(into, f));
  }
  fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(into, 'node_modules'), 'dir');
}
