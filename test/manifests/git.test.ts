import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { GitReadError, readGitManifests } from '../../src/manifests/git';

let repo: string;

function git(...args: string[]): string {
  return execFileSync('git', args, { cwd: repo, encoding: 'utf8' });
}

function write(file: string, text: string): void {
  fs.mkdirSync(path.dirname(path.join(repo, file)), { recursive: true });
  fs.writeFileSync(path.join(repo, file), text);
}

beforeAll(() => {
  repo = fs.mkdtempSync(path.join(os.tmpdir(), 'cnpgi-git-read-'));
  git('init', '-q', '-b', 'main');
  git('config', 'user.name', 'Git Read Test');
  git('config', 'user.email', 'git-read-test@example.com');
  git('config', 'commit.gpgsign', 'false');
  write('app/dist/b.k8s.yaml', 'kind: B\n');
  write('app/dist/a.k8s.yaml', 'kind: A\n');
  write('app/dist/sub/c.json', '{"kind":"C"}');
  write('app/dist/.hidden/d.yaml', 'kind: D\n');
  write('app/dist/node_modules/e.yaml', 'kind: E\n');
  write('app/dist/construct-metadata.json', '{}');
  write('app/dist/notes.txt', 'not a manifest');
  write('app/other/f.yaml', 'kind: F\n');
  git('add', '-A');
  git('commit', '-q', '-m', 'first');
  write('app/dist/a.k8s.yaml', 'kind: A2\n');
  git('commit', '-q', '-am', 'second');
});

afterAll(() => {
  fs.rmSync(repo, { recursive: true, force: true });
});

describe('readGitManifests', () => {
  test('the manifest files under a folder at a revision, as a folder is read, paths from the working directory', () => {
    const cwd = path.join(repo, 'app');
    const read = readGitManifests('HEAD~1', 'dist', cwd);
    expect(read.commit).toMatch(/^[0-9a-f]{40}$/);
    expect(read.files).toEqual([
      { shown: 'HEAD~1:dist/a.k8s.yaml', file: 'dist/a.k8s.yaml', text: 'kind: A\n' },
      { shown: 'HEAD~1:dist/b.k8s.yaml', file: 'dist/b.k8s.yaml', text: 'kind: B\n' },
      { shown: 'HEAD~1:dist/sub/c.json', file: 'dist/sub/c.json', text: '{"kind":"C"}' },
    ]);
    expect(readGitManifests('main', 'dist', cwd).files[0].text).toBe('kind: A2\n');
    // from the top of the repository, and a single file
    expect(readGitManifests('main', 'app/other', repo).files.map((f) => f.file)).toEqual(['app/other/f.yaml']);
    expect(readGitManifests('main', 'other/f.yaml', cwd).files.map((f) => f.shown)).toEqual(['main:other/f.yaml']);
  });

  test('a path the revision does not have gives no files; a path outside the repository is said to be', () => {
    expect(readGitManifests('HEAD', 'missing', path.join(repo, 'app')).files).toEqual([]);
    expect(readGitManifests('HEAD', '../app/other', path.join(repo, 'app')).files.map((f) => f.file)).toEqual(['other/f.yaml']);
    expect(() => readGitManifests('HEAD', '../../elsewhere', path.join(repo, 'app'))).toThrow('../../elsewhere is outside the git repository');
    expect(() => readGitManifests('HEAD', path.dirname(repo), repo)).toThrow(`${path.dirname(repo)} is outside the git repository`);
  });

  test('an unknown revision, a directory outside any repository: a GitReadError saying which', () => {
    expect(() => readGitManifests('no-such-branch', 'dist', repo)).toThrow(GitReadError);
    expect(() => readGitManifests('no-such-branch', 'dist', repo)).toThrow(/^git has no commit 'no-such-branch'/);
    const outside = fs.mkdtempSync(path.join(os.tmpdir(), 'cnpgi-git-none-'));
    const ceiling = process.env.GIT_CEILING_DIRECTORIES;
    process.env.GIT_CEILING_DIRECTORIES = path.dirname(outside);
    try {
      let error: unknown;
      try {
        readGitManifests('HEAD', 'dist', outside);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(GitReadError);
      expect(error).toMatchObject({ failure: 'not-a-repository', message: `${outside} is not in a git repository` });
    } finally {
      if (ceiling === undefined) delete process.env.GIT_CEILING_DIRECTORIES;
      else process.env.GIT_CEILING_DIRECTORIES = ceiling;
      fs.rmSync(outside, { recursive: true, force: true });
    }
  });
});
