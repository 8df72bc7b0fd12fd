import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

// scripts/lazy-exports.mjs on a small compiled tree shaped like lib/src: an entry point that
// re-exports a construct module eagerly and the doctor and the plan with `export *`, as tsc
// writes it. (The packed library itself is checked by test/consumer.)
const SCRIPT = path.join(__dirname, '..', '..', 'scripts', 'lazy-exports.mjs');

const ENTRY = [
  '"use strict";',
  'var __createBinding = (this && this.__createBinding) || (Object.create ? (function(o, m, k, k2) { if (k2 === undefined) k2 = k; Object.defineProperty(o, k2, { enumerable: true, get: function() { return m[k]; } }); }) : (function(o, m, k, k2) { o[k2] = m[k]; }));',
  'var __exportStar = (this && this.__exportStar) || function(m, exports) { for (var p in m) if (p !== "default" && !Object.prototype.hasOwnProperty.call(exports, p)) __createBinding(exports, m, p); };',
  'Object.defineProperty(exports, "__esModule", { value: true });',
  'exports.Version = void 0;',
  '__exportStar(require("./plugins"), exports);',
  '__exportStar(require("./doctor"), exports);',
  '__exportStar(require("./plan"), exports);',
  'exports.Version = "1";',
  '',
].join('\n');

function tree(entry = ENTRY): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lazy-exports-'));
  const src = path.join(dir, 'src');
  fs.mkdirSync(src);
  fs.writeFileSync(path.join(src, 'index.js'), entry);
  fs.writeFileSync(path.join(src, 'plugins.js'), 'exports.Plugin = class Plugin {};\nexports.shared = "from plugins";\n');
  fs.writeFileSync(
    path.join(src, 'doctor.js'),
    'globalThis.doctorLoads = (globalThis.doctorLoads ?? 0) + 1;\nexports.checkManifests = () => ["checked"];\nexports.shared = "from doctor";\nexports.Doctor = class Doctor {};\n',
  );
  fs.writeFileSync(path.join(src, 'plan.js'), 'globalThis.planLoads = (globalThis.planLoads ?? 0) + 1;\nexports.planChanges = () => "planned";\n');
  return dir;
}

function node(args: string[], cwd: string): string {
  return execFileSync(process.execPath, args, { cwd, encoding: 'utf8' }).trim();
}

describe('scripts/lazy-exports.mjs', () => {
  test('the doctor and the plan load on the first read of one of their names, and every name reads as before', () => {
    const dir = tree();
    try {
      node([SCRIPT, dir], dir);
      const text = fs.readFileSync(path.join(dir, 'src', 'index.js'), 'utf8');
      expect(text).not.toContain('__exportStar(require("./doctor")');
      expect(text).toContain('__exportStar(require("./plugins"), exports);');
      const probe = [
        "const lib = require('./src');",
        'const before = [globalThis.doctorLoads ?? 0, globalThis.planLoads ?? 0];',
        'const keys = Object.keys(lib).sort();',
        'const checked = lib.checkManifests();',
        'const after = [globalThis.doctorLoads ?? 0, globalThis.planLoads ?? 0];',
        'console.log(JSON.stringify({ before, keys, checked, after, shared: lib.shared, plan: lib.planChanges(), loads: [globalThis.doctorLoads, globalThis.planLoads] }));',
      ].join(' ');
      expect(JSON.parse(node(['-e', probe], dir))).toEqual({
        before: [0, 0],
        // listing the names loads nothing; a name another module exported first keeps that source
        keys: ['Doctor', 'Plugin', 'Version', 'checkManifests', 'planChanges', 'shared'],
        checked: ['checked'],
        after: [1, 0],
        shared: 'from plugins',
        plan: 'planned',
        loads: [1, 1],
      });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  test("Node's ES module loader finds the lazy names (the getters have the shape cjs-module-lexer reads)", () => {
    const dir = tree();
    try {
      node([SCRIPT, dir], dir);
      fs.writeFileSync(
        path.join(dir, 'probe.mjs'),
        "import { checkManifests, Doctor, planChanges, Plugin } from './src/index.js';\nconsole.log([checkManifests()[0], typeof Doctor, planChanges(), typeof Plugin].join(' '));\n",
      );
      expect(node(['probe.mjs'], dir)).toBe('checked function planned function');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  test('refuses an entry point that does not re-export a lazy module with export *', () => {
    const dir = tree(ENTRY.replace('__exportStar(require("./plan"), exports);\n', ''));
    try {
      expect(() => execFileSync(process.execPath, [SCRIPT, dir], { cwd: dir, stdio: 'pipe' })).toThrow(/does not re-export \.\/plan with export \*/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
