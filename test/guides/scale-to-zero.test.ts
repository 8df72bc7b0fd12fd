import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as ts from 'typescript';
import * as YAML from 'yaml';
import { checkManifests } from '../../src/doctor';

// The ```ts block of docs/guides/scale-to-zero.md, run as written against the library's sources;
// its output must be what the guide's ```yaml block says, and pass the doctor.
const GUIDE = fs.readFileSync(path.join(__dirname, '..', '..', 'docs', 'guides', 'scale-to-zero.md'), 'utf8');

describe('guide: Scale-to-Zero', () => {
  let outdir: string;
  beforeAll(() => {
    outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'cnpg-i-guide-'));
    process.env.CDK8S_OUTDIR = outdir;
  });
  afterAll(() => {
    delete process.env.CDK8S_OUTDIR;
    fs.rmSync(outdir, { recursive: true, force: true });
  });

  test('the example runs, writes the annotations the guide shows, and passes the doctor', () => {
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
    const cluster = objects.find((o) => o.kind === 'Cluster');
    const shown = YAML.parse([...GUIDE.matchAll(/```yaml\n([\s\S]*?)```/g)][0][1]);
    expect(cluster.metadata.annotations).toEqual(shown.metadata.annotations);
    expect(cluster.spec.plugins).toContainEqual(shown.spec.plugins[0]);
    expect(objects.find((o) => o.kind === 'ScheduledBackup').metadata.name).toBe(cluster.metadata.name);
    expect(checkManifests(objects, { operatorNamespace: 'cnpg-system' }).filter((f) => f.severity === 'error')).toEqual([]);
    expect(checkManifests(objects, { operatorNamespace: 'cnpg-system' }).filter((f) => /CNPGI14[01]/.test(f.ruleId))).toEqual([]);
  });
});
