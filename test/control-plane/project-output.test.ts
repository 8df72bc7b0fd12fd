/**
 * Everything the project writes is allowed by the real API server: the committed dist/ (the
 * example app of src/main.ts), the platform example (examples/platform) and the guides whose
 * example is a whole app, with no warning but the documented ones.
 */
import * as fs from 'fs';
import * as path from 'path';
import { Chart, Testing } from 'cdk8s';
import { Construct } from 'constructs';
import { parseManifestText } from '../../src/manifests/load';
import { guideText, runGuideExample } from '../guides/guide-example';
import { describeWithControlPlane, KubeObject } from './control-plane';

// the example imports the library by its package name, as a user's app does
jest.mock('cdk8s-cnpg-i', () => jest.requireActual('../../src/index'), { virtual: true });

const ROOT = path.join(__dirname, '..', '..');

/** Warnings the real API server gives on the project's output, each with why it is expected. */
const DOCUMENTED_WARNINGS: readonly { readonly contains: string; readonly why: string }[] = [];

function distObjects(): { source: string; object: KubeObject }[] {
  const dir = path.join(ROOT, 'dist');
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.yaml'))
    .sort()
    .flatMap((f) =>
      parseManifestText(fs.readFileSync(path.join(dir, f), 'utf8'), `dist/${f}`).map((d) => ({
        source: `${d.file}#${d.document}`,
        object: d.value as KubeObject,
      })),
    );
}

function platformObjects(): { source: string; object: KubeObject }[] {
  // required, not imported: the example's own tsconfig resolves the package name, the root one does not
  const { platform } = require('../../examples/platform/platform') as {
    platform: (scope: Construct) => { system: Chart; databases: Chart };
  };
  const { system, databases } = platform(Testing.app());
  return [...Testing.synth(system), ...Testing.synth(databases)].map((object, i) => ({ source: `examples/platform#${i + 1}`, object: object as KubeObject }));
}

/** The guides whose one ```ts example is a whole app (as their own tests run it). */
function guideObjects(name: string): () => { source: string; object: KubeObject }[] {
  return () => runGuideExample(guideText(name)).map((object, i) => ({ source: `docs/guides/${name}.md#${i + 1}`, object: object as KubeObject }));
}

describeWithControlPlane("the project's own output against the real API server", (cp) => {
  test.each([
    ['dist/', distObjects],
    ['examples/platform', platformObjects],
    ['docs/guides/monitoring.md', guideObjects('monitoring')],
    ['docs/guides/scale-to-zero.md', guideObjects('scale-to-zero')],
  ])('%s: every object is allowed, without undocumented warnings', async (_name, collect) => {
    const objects = collect();
    expect(objects.length).toBeGreaterThan(0);
    const results = await cp().dryRunAll(
      objects.map((o) => o.object),
      'default',
    );
    const problems = results.flatMap((r, i) => {
      const at = `${objects[i].source} ${r.kind} ${r.namespace ?? ''}/${r.name}`;
      const out = r.allowed ? [] : [`${at}: refused: ${r.message}`];
      for (const w of r.warnings) if (!DOCUMENTED_WARNINGS.some((d) => w.includes(d.contains))) out.push(`${at}: warning: ${w}`);
      return out;
    });
    process.stderr.write(`${_name}: ${results.length} objects dry-run, ${results.filter((r) => !r.allowed).length} refused\n`);
    expect(problems).toEqual([]);
  });
});
