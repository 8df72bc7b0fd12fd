import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as ts from 'typescript';
import * as YAML from 'yaml';
import { checkManifests } from '../../src/doctor';

// The ```ts block of docs/guides/monitoring.md, run as written against the library's sources;
// the rule its ```yaml block shows must be the one it writes.
const GUIDE = fs.readFileSync(path.join(__dirname, '..', '..', 'docs', 'guides', 'monitoring.md'), 'utf8');

describe('guide: monitoring', () => {
  let outdir: string;
  beforeAll(() => {
    outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'cnpg-i-guide-'));
    process.env.CDK8S_OUTDIR = outdir;
  });
  afterAll(() => {
    delete process.env.CDK8S_OUTDIR;
    fs.rmSync(outdir, { recursive: true, force: true });
  });

  test('the example runs, writes the rule the guide shows, and passes the doctor', () => {
    const blocks = [...GUIDE.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]);
    expect(blocks).toHaveLength(1);
    const js = ts.transpileModule(blocks[0], {
      compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, esModuleInterop: true },
    }).outputText;
    const req = (name: string) => (name === 'cdk8s-cnpg-i' ? require('../../src') : require(name));
    new Function('require', 'module', 'exports', js)(req, { exports: {} }, {});

    const objects = fs
      .readdirSync(outdir)
      .filter((f) => f.endsWith('.k8s.yaml'))
      .sort()
      .flatMap((f) => YAML.parseAllDocuments(fs.readFileSync(path.join(outdir, f), 'utf8')).map((d) => d.toJSON()));
    const rules = objects.filter((o) => o.kind === 'PrometheusRule').flatMap((r) => r.spec.groups.flatMap((g: any) => g.rules));
    const shown = YAML.parse([...GUIDE.matchAll(/```yaml\n([\s\S]*?)```/g)][0][1]);
    const written = rules.find((r) => r.alert === shown.alert && r.labels.cluster === shown.labels.cluster);
    expect({ alert: written.alert, expr: written.expr, labels: written.labels }).toEqual(shown);
    // every alert of the guide's app has its section
    for (const alert of new Set(rules.map((r) => r.alert))) expect(GUIDE).toContain(`### ${alert} (${rules.find((r) => r.alert === alert).labels.severity})`);
    expect(objects.filter((o) => o.kind === 'PodMonitor').map((o) => `${o.metadata.namespace}/${o.metadata.name}`)).toEqual(['databases/pg']);
    expect(checkManifests(objects, { operatorNamespace: 'cnpg-system' })).toEqual([]);
  });
});
