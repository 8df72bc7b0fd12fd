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

function newest(dir, ext) {
  let latest = 0;
  let entries;
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return undefined;
  }
  for (const e of entries) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) latest = Math.max(latest, newest(p, ext) ?? 0);
    else if (e.name.endsWith(ext)) latest = Math.max(latest, fs.statSync(p).mtimeMs);
  }
  return latest;
}

function oldest(dir, ext) {
  let first = Infinity;
  let entries;
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return undefined;
  }
  for (const e of entries) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) first = Math.min(first, oldest(p, ext) ?? Infinity);
    else if (e.name.endsWith(ext)) first = Math.min(first, fs.statSync(p).mtimeMs);
  }
  return first;
}

// A published package has no src/ and runs lib/. In a clone, lib/ is used only when every
// compiled file is newer than every source file (the CLI reaches into most of src/ through
// the doctor), so an edit anywhere is never shadowed by a stale build.
let useCompiled;
function compiledIsFresh() {
  if (useCompiled === undefined) {
    const builtFirst = oldest(path.join(root, 'lib', 'src'), '.js');
    const editedLast = newest(path.join(root, 'src'), '.ts');
    useCompiled = builtFirst !== undefined && builtFirst !== Infinity && (editedLast === undefined || builtFirst >= editedLast);
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
    get main() { return load('cli/doctor').main; },
    get DoctorValidationPlugin() { return load('doctor/cdk8s-validation-plugin').DoctorValidationPlugin; },
  };
}
