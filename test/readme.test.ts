import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { transpileSnippet } from './guides/guide-example';

// Every ```ts block of the README and of the guides (docs/guides, docs/development) runs here
// against the library's sources, so the docs cannot drift from the API. Snippets call
// app.synth(); their output goes to a temp folder.
const ROOT = path.join(__dirname, '..');
/** The documents whose code blocks run: the README, then every guide, in a stable order. */
const DOCUMENTS = [
  'README.md',
  ...['docs/guides', 'docs/development'].flatMap((dir) =>
    fs
      .readdirSync(path.join(ROOT, dir))
      .filter((f) => f.endsWith('.md'))
      .sort()
      .map((f) => `${dir}/${f}`),
  ),
];
const SNIPPETS = DOCUMENTS.flatMap((doc) =>
  [...fs.readFileSync(path.join(ROOT, doc), 'utf8').matchAll(/```ts\n([\s\S]*?)```/g)].map((m, i) => [`${doc} #${i + 1}`, m[1]] as const),
);
// Files a reader keeps in their own repository, stood in for by fixtures of ours.
const STAND_INS: Record<string, string> = {
  'vendor/cnpg-1.30.0.yaml': path.join(__dirname, 'fixtures', 'operator', 'operator.yaml'),
  'vendor/backup-plugin-v1.0.0.yaml': path.join(__dirname, 'fixtures', 'plugins', 'backup-plugin-release.yaml'),
};

describe('README and guide snippets', () => {
  let outdir: string;
  beforeAll(() => {
    outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'cnpg-i-readme-'));
    process.env.CDK8S_OUTDIR = outdir;
  });
  afterAll(() => {
    delete process.env.CDK8S_OUTDIR;
    fs.rmSync(outdir, { recursive: true, force: true });
  });

  test('there are snippets, in the README and in the guides', () => {
    expect(SNIPPETS.filter(([where]) => where.startsWith('README.md')).length).toBeGreaterThan(2);
    expect(SNIPPETS.filter(([where]) => where.startsWith('docs/guides/')).length).toBeGreaterThan(10);
  });

  test.each(SNIPPETS)('%s runs and synthesizes', (_where, code) => {
    for (const f of fs.readdirSync(outdir)) fs.rmSync(path.join(outdir, f), { recursive: true, force: true });
    let source = code as string;
    for (const [from, to] of Object.entries(STAND_INS)) source = source.split(`'${from}'`).join(JSON.stringify(to));
    const js = transpileSnippet(source);
    const req = (name: string) => {
      if (name === 'cdk8s-cnpg-i') return require('../src');
      if (name.startsWith('cdk8s-cnpg-i/')) return require(path.join(__dirname, '..', name.slice('cdk8s-cnpg-i/'.length)));
      return require(name);
    };
    // A snippet that is a jest test (the README's snapshot test under "Install") runs its body
    // here; its toMatchSnapshot() only checks that there is YAML to record, since the real jest
    // run with a written snapshot is in test/consumer, in an app of its own.
    const isTest = /\btest\(/.test(source);
    const inlineTest = (_name: string, body: () => void) => body();
    let recorded = 0;
    const snippetExpect = (value: unknown) =>
      Object.assign(Object.create(expect(value)), {
        toMatchSnapshot: () => {
          expect(Array.isArray(value) && value.length > 0 && value.every((o: any) => o.apiVersion && o.kind)).toBe(true);
          recorded++;
        },
      });
    const log = jest.spyOn(console, 'log').mockImplementation(() => undefined);
    try {
      new Function('require', 'module', 'exports', 'test', 'expect', js)(req, { exports: {} }, {}, inlineTest, isTest ? snippetExpect : expect);
    } finally {
      log.mockRestore();
    }
    if (isTest) expect(recorded).toBeGreaterThan(0);
    else expect(fs.readdirSync(outdir).some((f) => f.endsWith('.k8s.yaml'))).toBe(true);
  });
});
