import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as ts from 'typescript';

// The house of src/: no import circle (type-only imports, require() and import() types included,
// which ESLint's import-x/no-cycle ignores), every arrow between layers points down the table of
// eslint.config.mjs (whose no-restricted-paths rule cannot see `typeof import('...')`), and
// CONTRIBUTING.md shows that table.
const ROOT = path.join(__dirname, '..');

type Layers = Record<string, string[]>;

/** The layer table, read from eslint.config.mjs (an ES module, so through a child process). */
function layers(): Layers {
  const out = execFileSync(
    process.execPath,
    ['--input-type=module', '-e', "const m = await import('./eslint.config.mjs'); console.log(JSON.stringify(m.LAYERS));"],
    {
      cwd: ROOT,
      encoding: 'utf8',
    },
  );
  return JSON.parse(out) as Layers;
}

/** Every module specifier a file names: imports and re-exports (type-only too), require(), import() and import types. */
function specifiers(file: string): string[] {
  const source = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const out: string[] = [];
  const visit = (node: ts.Node): void => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      out.push(node.moduleSpecifier.text);
    } else if (
      ts.isImportEqualsDeclaration(node) &&
      ts.isExternalModuleReference(node.moduleReference) &&
      ts.isStringLiteral(node.moduleReference.expression)
    ) {
      out.push(node.moduleReference.expression.text);
    } else if (ts.isCallExpression(node) && node.arguments.length === 1 && ts.isStringLiteral(node.arguments[0])) {
      if (node.expression.kind === ts.SyntaxKind.ImportKeyword || (ts.isIdentifier(node.expression) && node.expression.text === 'require'))
        out.push(node.arguments[0].text);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
      out.push(node.argument.literal.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return out;
}

/** The TypeScript files under `dir`. */
function sources(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true, recursive: true })
    .flatMap((e) => (e.isFile() && e.name.endsWith('.ts') && !e.name.endsWith('.d.ts') ? [path.join(e.parentPath, e.name)] : []));
}

/** The module graph of the files under `dir`: file -> the files of `dir` it names. */
export function moduleGraph(dir: string): Map<string, string[]> {
  const files = sources(dir);
  const known = new Set(files);
  const resolve = (from: string, spec: string): string | undefined => {
    if (!spec.startsWith('.')) return undefined;
    const base = path.resolve(path.dirname(from), spec);
    return [base, `${base}.ts`, path.join(base, 'index.ts')].find((f) => known.has(f));
  };
  return new Map(files.map((f) => [f, [...new Set(specifiers(f).flatMap((s) => resolve(f, s) ?? []))]]));
}

/** The import circles of a graph: its strongly connected components of more than one file, and self-imports (Tarjan). */
export function circles(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const out: string[][] = [];
  const connect = (v: string): void => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        connect(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v)!, index.get(w)!));
      }
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1 || (graph.get(v) ?? []).includes(v)) out.push(component.sort());
    }
  };
  for (const v of [...graph.keys()].sort()) if (!index.has(v)) connect(v);
  return out;
}

const rel = (f: string) => path.relative(ROOT, f).split(path.sep).join('/');

describe('the house of src/', () => {
  const graph = moduleGraph(path.join(ROOT, 'src'));

  test('has no import circle, type-only imports included', () => {
    expect(circles(graph).map((c) => c.map(rel))).toEqual([]);
  });

  test('the circle finder sees a circle made only of type imports, and a require()', () => {
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'house-'));
    try {
      fs.writeFileSync(path.join(tmp, 'a.ts'), "import type { B } from './b';\nexport type A = B[];\n");
      fs.writeFileSync(path.join(tmp, 'b.ts'), "export type B = typeof import('./c').c;\n");
      fs.writeFileSync(path.join(tmp, 'c.ts'), "export const c = (): unknown => require('./a');\n");
      fs.writeFileSync(path.join(tmp, 'd.ts'), "import { c } from './c';\nexport const d = c;\n");
      expect(circles(moduleGraph(tmp)).map((c) => c.map((f) => path.basename(f)))).toEqual([['a.ts', 'b.ts', 'c.ts']]);
    } finally {
      fs.rmSync(tmp, { recursive: true, force: true });
    }
  });

  test('every arrow between layers points down the table of eslint.config.mjs', () => {
    const table = layers();
    const layerOf = (f: string) => rel(f).split('/')[1];
    const wrong: string[] = [];
    for (const [from, targets] of graph) {
      const a = layerOf(from);
      if (!(a in table)) continue; // src/index.ts and src/main.ts stand above every layer
      for (const to of targets) {
        const b = layerOf(to);
        if (b !== a && !table[a].includes(b)) wrong.push(`${rel(from)} -> ${rel(to)}`);
      }
    }
    expect(wrong).toEqual([]);
    // every folder of src/ is a layer of the table
    const folders = fs
      .readdirSync(path.join(ROOT, 'src'), { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => e.name);
    expect(folders.filter((f) => !(f in table))).toEqual([]);
  });

  test('CONTRIBUTING.md shows the layer table', () => {
    const text = fs.readFileSync(path.join(ROOT, 'CONTRIBUTING.md'), 'utf8');
    for (const [layer, allowed] of Object.entries(layers())) {
      expect(text).toContain(`| \`src/${layer}/\` | ${allowed.length ? allowed.map((a) => `\`${a}\``).join(', ') : 'nothing of the library'} |`);
    }
  });
});
