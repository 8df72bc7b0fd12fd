import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { PlanBaseline } from '../../src';
import { readBaseline } from '../../src/plan/plan-baseline';
import { underCdk8sCli } from '../../src/rules/synth-refusal';

const CLUSTER = 'apiVersion: postgresql.cnpg.io/v1\nkind: Cluster\nmetadata:\n  name: pg\n  namespace: apps\nspec:\n  storage:\n    size: 10Gi\n';
/** What cdk8s-cli 2.207.60 sets for the app it runs (lib/util.js synthApp). */
const CDK8S_CLI = { CDK8S_OUTDIR: 'dist', CDK8S_RECORD_CONSTRUCT_METADATA: 'false' };
const DIRECT = {};

let repo: string;

function git(...args: string[]): string {
  return execFileSync('git', args, { cwd: repo, encoding: 'utf8' });
}

beforeEach(() => {
  repo = fs.mkdtempSync(path.join(os.tmpdir(), 'cnpgi-baseline-'));
  git('init', '-q', '-b', 'main');
  git('config', 'user.name', 'Baseline Test');
  git('config', 'user.email', 'baseline-test@example.com');
  git('config', 'commit.gpgsign', 'false');
  fs.writeFileSync(path.join(repo, 'README'), 'x\n');
  git('add', '-A');
  git('commit', '-q', '-m', 'start');
});

afterEach(() => {
  fs.rmSync(repo, { recursive: true, force: true });
});

function commitOutput(): void {
  fs.mkdirSync(path.join(repo, 'dist'), { recursive: true });
  fs.writeFileSync(path.join(repo, 'dist', 'app.k8s.yaml'), CLUSTER);
  git('add', '-A');
  git('commit', '-q', '-m', 'output');
}

describe('readBaseline', () => {
  test('previousOutput: the folder when it has manifests, else git HEAD (what cdk8s synth leaves), else nothing, said', () => {
    const base = PlanBaseline.previousOutput();
    expect(readBaseline(base, 'dist', repo, CDK8S_CLI)).toEqual({
      objects: [],
      found: false,
      description: 'nothing: dist has no manifests (cdk8s synth empties it first) and git HEAD has none under dist, so every object is new',
    });
    commitOutput();
    expect(readBaseline(base, 'dist', repo, DIRECT)).toMatchObject({ found: true, description: 'dist (folder, 1 file)' });
    // cdk8s synth: the folder is empty (App.synth creates it again), git HEAD still has it
    fs.rmSync(path.join(repo, 'dist'), { recursive: true });
    fs.mkdirSync(path.join(repo, 'dist'));
    const read = readBaseline(base, 'dist', repo, CDK8S_CLI);
    expect(read).toMatchObject({ found: true, description: 'git HEAD:dist (1 file)' });
    expect(read.objects).toEqual([
      { apiVersion: 'postgresql.cnpg.io/v1', kind: 'Cluster', metadata: { name: 'pg', namespace: 'apps' }, spec: { storage: { size: '10Gi' } } },
    ]);
    // previousDir's folder, given apart from the app's outdir
    expect(readBaseline(PlanBaseline.previousOutput('dist'), 'elsewhere', repo, CDK8S_CLI).description).toBe('git HEAD:dist (1 file)');
  });

  test('previousOutput outside a repository: nothing, with the reason', () => {
    const outside = fs.mkdtempSync(path.join(os.tmpdir(), 'cnpgi-baseline-none-'));
    const ceiling = process.env.GIT_CEILING_DIRECTORIES;
    process.env.GIT_CEILING_DIRECTORIES = path.dirname(outside);
    try {
      expect(readBaseline(PlanBaseline.previousOutput(), 'dist', outside, DIRECT).description).toBe(
        `nothing: dist has no manifests and git cannot tell (${outside} is not in a git repository), so every object is new`,
      );
    } finally {
      if (ceiling === undefined) delete process.env.GIT_CEILING_DIRECTORIES;
      else process.env.GIT_CEILING_DIRECTORIES = ceiling;
      fs.rmSync(outside, { recursive: true, force: true });
    }
  });

  test('gitRef: that revision only; a revision git does not have throws', () => {
    expect(readBaseline(PlanBaseline.gitRef('main'), 'dist', repo, DIRECT)).toMatchObject({
      found: false,
      description: 'nothing: git main has no manifests under dist, so every object is new',
    });
    commitOutput();
    // the folder on disk does not count
    fs.writeFileSync(path.join(repo, 'dist', 'extra.yaml'), CLUSTER.replace('name: pg', 'name: other'));
    const read = readBaseline(PlanBaseline.gitRef('main', 'dist'), 'out', repo, DIRECT);
    expect(read).toMatchObject({ found: true, description: 'git main:dist (1 file)' });
    expect(read.objects).toHaveLength(1);
    expect(() => readBaseline(PlanBaseline.gitRef('no-such-branch'), 'dist', repo, DIRECT)).toThrow(/^git has no commit 'no-such-branch'/);
  });

  test('folder: that folder only; refused under cdk8s synth when it is the output folder', () => {
    commitOutput();
    expect(readBaseline(PlanBaseline.folder('dist'), 'dist', repo, DIRECT)).toMatchObject({ found: true, description: 'dist (folder, 1 file)' });
    fs.rmSync(path.join(repo, 'dist'), { recursive: true });
    // not git HEAD, even though it has the output
    expect(readBaseline(PlanBaseline.folder('dist'), 'out', repo, CDK8S_CLI)).toEqual({
      objects: [],
      found: false,
      description: 'nothing: dist is missing or has no manifests, so every object is new',
    });
    expect(() => readBaseline(PlanBaseline.folder('dist'), 'dist', repo, CDK8S_CLI)).toThrow(
      'the baseline folder dist is the output folder, which `cdk8s synth` empties before it runs the app, so the plan would never see the previous output; ' +
        "compare with git instead (PlanBaseline.previousOutput() or PlanBaseline.gitRef('HEAD')), or copy the previous output to a folder of its own",
    );
    // run directly, a missing output folder is a first synth
    expect(readBaseline(PlanBaseline.folder('dist'), 'dist', repo, DIRECT).found).toBe(false);
  });

  test('cdk8s-cli is recognised by the variables it sets for the app', () => {
    expect(underCdk8sCli(CDK8S_CLI)).toBe(true);
    expect(underCdk8sCli({ CDK8S_OUTDIR: 'dist' })).toBe(false);
    expect(underCdk8sCli(DIRECT)).toBe(false);
  });
});
