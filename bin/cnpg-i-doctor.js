#!/usr/bin/env node
'use strict';
// cnpg-i-doctor: runs the compiled CLI (lib/, after `npm run build`) when present and newer than
// all of the sources, else the TypeScript sources through tsx (a devDependency), so it also
// works in a fresh clone.
// Required as a module (as cdk8s-cli does with a validation plugin), it exports the CLI's
// `main` and `DoctorValidationPlugin` instead of running.
const fs = require('fs');
const path = require('path');

const root = path.join(__dirname, '..');

/** The oldest and newest modification times of the files ending in `ext` below `dir`. */
function mtimes(dir, ext, acc = { oldest: Infinity, newest: 0, count: 0 }) {
  let entries;
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return acc;
  }
  for (const e of entries) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) {
      mtimes(p, ext, acc);
    } else if (e.name.endsWith(ext)) {
      const t = fs.statSync(p).mtimeMs;
      acc.oldest = Math.min(acc.oldest, t);
      acc.newest = Math.max(acc.newest, t);
      acc.count++;
    }
  }
  return acc;
}

// A published package has no src/ and runs lib/. In a clone, lib/ is used only when every
// compiled file is newer than every source file (the CLI reaches into most of src/ through
// the doctor), so an edit anywhere is never shadowed by a stale build.
let useCompiled;
function compiledIsFresh() {
  if (useCompiled === undefined) {
    const built = mtimes(path.join(root, 'lib', 'src'), '.js');
    const sources = mtimes(path.join(root, 'src'), '.ts');
    useCompiled = built.count > 0 && built.oldest >= sources.newest;
  }
  return useCompiled;
}

function load(relative) {
  if (compiledIsFresh()) return require(path.join(root, 'lib', 'src', `${relative}.js`));
  require('tsx/cjs');
  return require(path.join(root, 'src', `${relative}.ts`));
}

if (require.main === module) {
  load('cli/doctor').runCli();
} else {
  module.exports = {
    get main() {
      return load('cli/doctor').main;
    },
    get DoctorValidationPlugin() {
      return load('doctor/cdk8s-validation-plugin').DoctorValidationPlugin;
    },
  };
}
