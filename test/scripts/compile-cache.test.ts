import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

const CACHE_MODULE = path.join(__dirname, '..', '..', 'scripts', 'compile-cache.mjs');

/**
 * Runs, in a fresh Node, the CommonJS module `main` of `dir` with the compile cache of
 * scripts/compile-cache.mjs in `cache`; returns what it printed, then the number of cache files
 * the run writes at exit.
 */
function run(dir: string, cache: string, vouched: string[] = []): { stdout: string; stderr: string; status: number | null; written: number } {
  const script = [
    `import { createRequire } from 'node:module';`,
    `import { enableCompileCache } from ${JSON.stringify(CACHE_MODULE)};`,
    `const { written, vouch } = enableCompileCache(${JSON.stringify(cache)});`,
    `for (const f of ${JSON.stringify(vouched.map((f) => path.join(dir, f)))}) vouch(f);`,
    `process.on('exit', () => process.stderr.write('written ' + written() + '\\n'));`,
    `const out = createRequire(${JSON.stringify(path.join(dir, 'x.js'))})('./main.js');`,
    `console.log(JSON.stringify(await out.result));`,
  ].join('\n');
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', timeout: 60_000 });
  const written = Number(/written (\d+)/.exec(r.stderr)?.[1] ?? NaN);
  return { stdout: r.stdout.trim(), stderr: r.stderr, status: r.status, written };
}

describe('the compile cache of npm run synth (scripts/compile-cache.mjs)', () => {
  let dir: string;
  let cache: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cnpgi-cc-'));
    cache = path.join(dir, 'cache');
    fs.writeFileSync(
      path.join(dir, 'main.js'),
      [
        "const helper = require('./helper.js');",
        'exports.result = (async () => ({',
        '  value: helper.value,',
        "  resolved: require('path').basename(require.resolve('./helper.js')),",
        "  paths: Array.isArray(require.resolve.paths('x')),",
        '  file: require("path").basename(__filename),',
        '  dir: __dirname === require("path").dirname(__filename),',
        '  cached: Object.keys(require.cache).some((k) => k.endsWith("helper.js")),',
        '  parent: require.cache[require.resolve("./helper.js")].parent === module,',
        "  imported: await require('./dynamic.js').load(),",
        "  text: require('./words.js').text,",
        '}))();',
      ].join('\n'),
    );
    fs.writeFileSync(path.join(dir, 'helper.js'), 'exports.value = 1;\n');
    // import(), a builtin and a relative ES module: compiled by Node itself, not cached
    fs.writeFileSync(path.join(dir, 'dynamic.js'), "exports.load = async () => [(await import('node:path')).sep, (await import('./esm.mjs')).value];\n");
    fs.writeFileSync(path.join(dir, 'esm.mjs'), 'export const value = 42;\n');
    // the text `import (` in a string: not cached unless vouched for
    fs.writeFileSync(path.join(dir, 'words.js'), 'exports.text = \'refuses this import ("x")\';\n');
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  const expected = (value: number) =>
    JSON.stringify({
      value,
      resolved: 'helper.js',
      paths: true,
      file: 'main.js',
      dir: true,
      cached: true,
      parent: true,
      imported: [path.sep, 42],
      text: 'refuses this import ("x")',
    });

  test('a module loads as with Node alone; the first run writes a cache per module, the next reads it', () => {
    const first = run(dir, cache);
    expect(first.stderr).toBe('written 2\n');
    expect(first.stdout).toBe(expected(1));
    expect(fs.readdirSync(cache)).toHaveLength(2);
    const second = run(dir, cache);
    expect(second).toEqual({ stdout: expected(1), stderr: 'written 0\n', status: 0, written: 0 });
  });

  test('a module whose text reads `import (` is cached when the caller vouches for it (the bundle, by esbuild)', () => {
    expect(run(dir, cache, ['words.js'])).toMatchObject({ stdout: expected(1), written: 3 });
    expect(run(dir, cache, ['words.js'])).toMatchObject({ stdout: expected(1), written: 0 });
    expect(fs.readdirSync(cache)).toHaveLength(3);
  });

  test('a changed module is compiled from its new source, even at the same size and time; the cache is written again', () => {
    run(dir, cache);
    const { atime, mtime } = fs.statSync(path.join(dir, 'helper.js'));
    fs.writeFileSync(path.join(dir, 'helper.js'), 'exports.value = 2;\n');
    // same size and modification time as before: only the text tells
    fs.utimesSync(path.join(dir, 'helper.js'), atime, mtime);
    const changed = run(dir, cache);
    expect(changed.stdout).toBe(expected(2));
    expect(changed.written).toBe(1);
    expect(run(dir, cache)).toMatchObject({ stdout: expected(2), written: 0 });
  });

  test('a damaged cache file is not given to V8 (its digest differs) and is written again; a cut one is not read', () => {
    run(dir, cache);
    const [a, b] = fs.readdirSync(cache).map((f) => path.join(cache, f));
    const damaged = fs.readFileSync(a);
    damaged.fill(7, damaged.length - 200);
    fs.writeFileSync(a, damaged);
    fs.writeFileSync(b, fs.readFileSync(b).subarray(0, 10));
    const r = run(dir, cache);
    expect(r).toMatchObject({ stdout: expected(1), status: 0, written: 2 });
    expect(run(dir, cache)).toMatchObject({ stdout: expected(1), written: 0 });
  });

  test("an error thrown by a cached module names its file and line, as Node's own loading does", () => {
    fs.writeFileSync(path.join(dir, 'helper.js'), '\n\nthrow new Error("boom");\n');
    for (let i = 0; i < 2; i++) {
      const r = run(dir, cache);
      expect(r.status).not.toBe(0);
      expect(r.stderr).toContain(`${path.join(dir, 'helper.js')}:3`);
    }
  });
});
