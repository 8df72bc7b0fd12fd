import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

const ROOT = path.join(__dirname, '..', '..');

/** `npm run synth` of the example app into `outdir`. */
function synth(outdir: string) {
  return spawnSync(process.execPath, [path.join('scripts', 'run-app.mjs'), path.join('src', 'main.ts')], {
    cwd: ROOT,
    env: { ...process.env, CDK8S_OUTDIR: outdir },
    encoding: 'utf8',
    timeout: 120_000,
  });
}

describe('npm run synth with the plan check of src/main.ts', () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cnpgi-synth-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  test('a destructive change against the previous output fails, and the previous output is left as it was', () => {
    // A previous output in which Cluster pg had more storage than the app now asks for.
    const previous = [
      'apiVersion: postgresql.cnpg.io/v1',
      'kind: Cluster',
      'metadata:',
      '  name: pg',
      '  namespace: databases',
      'spec:',
      '  instances: 3',
      '  storage:',
      '    size: 20Gi',
      '',
    ].join('\n');
    fs.writeFileSync(path.join(dir, 'databases.k8s.yaml'), previous);
    const r = synth(dir);
    expect(r.status).not.toBe(0);
    expect(r.stderr).toContain('CNPGI210 error Cluster/databases/pg (spec.storage.size): shrinks from 20Gi to 10Gi');
    expect(fs.readdirSync(dir)).toEqual(['databases.k8s.yaml']);
    expect(fs.readFileSync(path.join(dir, 'databases.k8s.yaml'), 'utf8')).toBe(previous);
  });

  test('a safe synth rewrites the charts and removes the files of charts the app no longer has', () => {
    fs.writeFileSync(path.join(dir, 'retired.k8s.yaml'), 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: old\n  namespace: databases\n');
    fs.writeFileSync(path.join(dir, 'notes.txt'), 'kept');
    const r = synth(dir);
    // what the plan compared with, then the line per file written, with its object count
    expect(r.stderr).toBe(
      `plan: compared the new output with ${path.relative(ROOT, dir)} (folder, 1 file)\n` +
        ['cnpg-system.k8s.yaml: 24 objects', 'databases.k8s.yaml: 5 objects'].map((l) => `${path.relative(ROOT, path.join(dir, l))}\n`).join(''),
    );
    expect(r.status).toBe(0);
    expect(fs.readdirSync(dir).sort()).toEqual(['cnpg-system.k8s.yaml', 'databases.k8s.yaml', 'notes.txt']);
  });
});
