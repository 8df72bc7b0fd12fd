import { execFileSync } from 'child_process';
import * as path from 'path';

// The decisions of eslint.config.mjs, checked on small texts linted as if they were files of the
// repository. ESLint loads its flat config with import(), which jest's module system does not
// provide, so one child process lints every probe through ESLint's Node API.
const ROOT = path.join(__dirname, '..');

const PROBES: Record<string, { file: string; text: string }> = {
  devDependencyInSrc: { file: 'src/probe.ts', text: "import fc from 'fast-check';\n\nexport const arb = fc.nat();\n" },
  devDependencyInTest: { file: 'test/probe.ts', text: "import fc from 'fast-check';\n\nexport const arb = fc.nat();\n" },
  consoleInSrc: { file: 'src/probe.ts', text: "export function f(): void {\n  console.log('x');\n}\n" },
  consoleAnyAndRequireInTest: {
    file: 'test/probe.ts',
    text: "export function f(x: any): void {\n  console.log(x, require('path'));\n}\n",
  },
  anyAndRequireInSrc: { file: 'src/plugins/probe.ts', text: "export function f(x: any): unknown {\n  return [x, require('path')];\n}\n" },
  lazyRequireInSchemaLayer: { file: 'src/schema/probe.ts', text: "export function f(): unknown {\n  return require('ajv');\n}\n" },
  duplicateImports: {
    file: 'src/probe.ts',
    text: "import { Chart } from 'cdk8s';\nimport { Size } from 'cdk8s';\n\nexport const x = [Chart, Size];\n",
  },
  importOrder: {
    file: 'src/probe.ts',
    text: "import { Construct } from 'constructs';\nimport * as fs from 'fs';\nimport { Chart } from 'cdk8s';\n\nexport const x = [Construct, fs, Chart];\n",
  },
  currentOrder: {
    file: 'src/plugins/probe.ts',
    text: "import * as fs from 'fs';\nimport { Chart } from 'cdk8s';\nimport { Construct } from 'constructs';\nimport { invalid } from '../common/errors';\nimport { IPlugin } from './plugin';\n\nexport const x = [fs, Chart, Construct, invalid];\nexport type P = IPlugin;\n",
  },
  typeImportUpward: { file: 'src/tls/probe.ts', text: "import type { IPlugin } from '../plugins/plugin';\n\nexport type P = IPlugin;\n" },
  requireUpward: { file: 'src/schema/probe.ts', text: "export const f = (): unknown => require('../doctor/check-manifests');\n" },
  doctorImportsPlan: { file: 'src/doctor/probe.ts', text: "import { planChanges } from '../plan/plan';\n\nexport const p = planChanges;\n" },
  importDown: {
    file: 'src/plugins/probe.ts',
    text: "import { invalid } from '../manifests/errors';\nimport type { Json } from '../manifests/json';\n\nexport type J = Json;\nexport const i = invalid;\n",
  },
  layoutIsPrettiers: { file: 'src/probe.ts', text: 'export const  x = {a:"b"}\n' },
  unusedUnderscore: {
    file: 'src/probe.ts',
    text: 'export function f(_a: number, b: number): number {\n  const { a: _x, ...rest } = { a: 1, b };\n  return rest.b;\n}\n',
  },
};

function lint(): Record<string, string[]> {
  const script = `
    import { ESLint } from 'eslint';
    const probes = JSON.parse(process.argv[1]);
    const eslint = new ESLint({ cwd: process.cwd() });
    const out = {};
    for (const [name, { file, text }] of Object.entries(probes)) {
      const [result] = await eslint.lintText(text, { filePath: file });
      out[name] = result.messages.map((m) => m.ruleId ?? 'fatal: ' + m.message).sort();
    }
    console.log(JSON.stringify(out));
  `;
  const stdout = execFileSync(process.execPath, ['--input-type=module', '-e', script, JSON.stringify(PROBES)], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: 120_000,
  });
  return JSON.parse(stdout);
}

describe('eslint.config.mjs', () => {
  let found: Record<string, string[]>;
  beforeAll(() => {
    found = lint();
  });

  test('src/ imports only dependencies and peers; tests may import devDependencies', () => {
    expect(found.devDependencyInSrc).toEqual(['import-x/no-extraneous-dependencies']);
    expect(found.devDependencyInTest).toEqual([]);
  });

  test('the library never prints; tests may, and may use any and require()', () => {
    expect(found.consoleInSrc).toEqual(['no-console']);
    expect(found.consoleAnyAndRequireInTest).toEqual([]);
  });

  test("src/ uses neither any nor require(), except the schema layer's lazy loads", () => {
    expect(found.anyAndRequireInSrc).toEqual(['@typescript-eslint/no-explicit-any', '@typescript-eslint/no-require-imports']);
    expect(found.lazyRequireInSchemaLayer).toEqual([]);
  });

  test('layers: an import up the table of CONTRIBUTING.md fails, type-only and require() included; down is fine', () => {
    expect(found.typeImportUpward).toEqual(['import-x/no-restricted-paths']);
    expect(found.requireUpward).toEqual(['import-x/no-restricted-paths']);
    expect(found.doctorImportsPlan).toEqual(['import-x/no-restricted-paths']);
    expect(found.importDown).toEqual([]);
  });

  test('imports: no duplicates, and the order the sources use (built-ins, packages, own modules)', () => {
    expect(found.duplicateImports).toEqual(['import-x/no-duplicates', 'import-x/no-duplicates']); // one per import
    expect(found.importOrder).toEqual(['import-x/order']);
    expect(found.currentOrder).toEqual([]);
  });

  test('layout is left to Prettier; a leading underscore marks what is unused on purpose', () => {
    expect(found.layoutIsPrettiers).toEqual([]);
    expect(found.unusedUnderscore).toEqual([]);
  });
});
