#!/usr/bin/env node
'use strict';
// cnpg-i-doctor: runs the compiled CLI (lib/, after `npm run build`) when present and not older
// than its source, else the TypeScript source through tsx (a devDependency), so it also works
// in a fresh clone.
// Required as a module (as cdk8s-cli does with a validation plugin), it exports the CLI's
// `main` and `DoctorValidationPlugin` instead of running.
const fs = require('fs');
const path = require('path');

const root = path.join(__dirname, '..');

function mtime(file) {
  try {
    return fs.statSync(file).mtimeMs;
  } catch {
    return undefined;
  }
}

function load(relative) {
  const compiled = path.join(root, 'lib', 'src', `${relative}.js`);
  const source = path.join(root, 'src', `${relative}.ts`);
  const built = mtime(compiled);
  const edited = mtime(source);
  // a published package has no src/; in a clone, a build older than the source is stale
  if (built !== undefined && (edited === undefined || built >= edited)) return require(compiled);
  require('tsx/cjs');
  return require(source);
}

if (require.main === module) {
  load('cli/doctor').runCli();
} else {
  module.exports = {
    get main() { return load('cli/doctor').main; },
    get DoctorValidationPlugin() { return load('doctor/cdk8s-validation-plugin').DoctorValidationPlugin; },
  };
}
