import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as ts from 'typescript';
import * as YAML from 'yaml';
import type { Manifest } from '../util';

/** A ```ts snippet of the docs as CommonJS, the way the README and guide tests run them. */
export function transpileSnippet(source: string): string {
  return ts.transpileModule(source, {
    compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, esModuleInterop: true },
  }).outputText;
}

/** The text of `docs/guides/<name>.md`. */
export function guideText(name: string): string {
  return fs.readFileSync(path.join(__dirname, '..', '..', 'docs', 'guides', `${name}.md`), 'utf8');
}

/** The guide's ```yaml blocks, parsed. */
export function guideYaml(guide: string): any[] {
  return [...guide.matchAll(/```yaml\n([\s\S]*?)```/g)].map((m) => YAML.parse(m[1]));
}

/**
 * Runs the one ```ts block of a guide (or the block that starts with the comment `marker`) as
 * written, against the library's sources, with cdk8s writing into a temporary folder, and
 * returns every object it synthesized, file by file in name order.
 */
export function runGuideExample(guide: string, marker?: string): Manifest[] {
  const all = [...guide.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]);
  const blocks = marker === undefined ? all : all.filter((b) => b.startsWith(`// ${marker}\n`));
  expect(blocks).toHaveLength(1);
  const outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'cnpg-i-guide-'));
  process.env.CDK8S_OUTDIR = outdir;
  try {
    const req = (name: string) => (name === 'cdk8s-cnpg-i' ? require('../../src') : require(name));
    new Function('require', 'module', 'exports', transpileSnippet(blocks[0]))(req, { exports: {} }, {});
    return fs
      .readdirSync(outdir)
      .filter((f) => f.endsWith('.k8s.yaml'))
      .sort()
      .flatMap((f) => YAML.parseAllDocuments(fs.readFileSync(path.join(outdir, f), 'utf8')).map((d) => d.toJSON() as Manifest));
  } finally {
    delete process.env.CDK8S_OUTDIR;
    fs.rmSync(outdir, { recursive: true, force: true });
  }
}
