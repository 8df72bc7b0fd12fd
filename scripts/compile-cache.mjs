// A V8 code cache for the CommonJS modules a synth loads (the app's bundle, cdk8s, cdk8s-plus,
// yaml...), for scripts/run-app.mjs. Node 20 compiles every module from source at each start
// (module.enableCompileCache arrived in Node 22.1); a profile of `npm run synth` put that
// compilation at about a quarter of its CPU time. With the cache, each module is compiled from the
// code V8 produced for it in an earlier run, once it has been run (so it holds the functions the
// synth used too, not only the top level).
//
// One cache file per module path, under `dir`, holding a digest of the module's text, Node's
// version, a digest of the code and the code: a module whose text changed, another Node, or data
// V8 refuses (its own check: V8 version, flags) makes the module compile from source, and the
// cache is written again when the process exits. Writes go through a temporary file and a rename,
// so two
// synths at once never read half a file.
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import Module from 'node:module';
import { dirname, join } from 'node:path';
import { Script } from 'node:vm';

/**
 * An `import(` anywhere in a module's text (in a comment or a string too). `import()` in a script
 * compiled here has no loader to go to: vm offers Node's own only as an experimental option,
 * which warns, and which a script from cached code does not keep (Node 20.20). So such a module
 * is compiled by Node itself, uncached, unless the caller vouches that it has no `import()`.
 */
const DYNAMIC_IMPORT = /\bimport\s*\(/;

/** What a cache file starts with: a version of this format, then the stamp of what it was made from. */
const MAGIC = 'cnpg-i-v8-cache-3';

/**
 * Makes every CommonJS module loaded from now on in this process compile through the cache in
 * `dir`. Returns `written()`, the number of cache files it will write at exit, and `vouch(file)`,
 * which says that the module `file` has no `import()` although its text may read `import(` (the
 * app's bundle, whose imports esbuild lists).
 * Loading works as Node's own: the module gets the same `exports`, `require` (with `resolve`,
 * `resolve.paths`, `main`, `cache`, `extensions`), `module`, `__filename` and `__dirname`.
 */
export function enableCompileCache(dir) {
  const compile = Module.prototype._compile;
  const pending = [];
  const vouched = new Set();
  mkdirSync(dir, { recursive: true });
  Module.prototype._compile = function (content, filename) {
    if (typeof filename !== 'string' || !/\.c?js$/.test(filename) || (!vouched.has(filename) && DYNAMIC_IMPORT.test(content))) {
      return compile.call(this, content, filename);
    }
    // the module's text itself, not its file's time: a bundle made again with the same text (a
    // cold synth after an edit elsewhere) keeps its cache
    const stamp = `${MAGIC}\0${process.version}\0${process.arch}\0${createHash('sha1').update(content).digest('hex')}\0`;
    const file = join(dir, `${createHash('sha256').update(filename).digest('hex').slice(0, 24)}.bin`);
    const cachedData = readCache(file, stamp);
    const script = new Script(Module.wrap(content), { filename, cachedData });
    if (cachedData === undefined || script.cachedDataRejected) pending.push({ script, file, stamp });
    const fn = script.runInThisContext({ displayErrors: true });
    return fn.call(this.exports, this.exports, requireFor(this), this, filename, dirname(filename));
  };
  process.on('exit', () => {
    for (const { script, file, stamp } of pending) {
      try {
        const tmp = `${file}.${process.pid}.tmp`;
        const code = script.createCachedData();
        writeFileSync(tmp, Buffer.concat([Buffer.from(stamp), digest(code), code]));
        renameSync(tmp, file);
      } catch {
        // a cache that cannot be written is a slower next run, nothing else
      }
    }
  });
  return {
    written: () => pending.length,
    vouch: (filename) => vouched.add(filename),
  };
}

/** The code cached in `file` for a module of this `stamp`, if the file holds it. */
function readCache(file, stamp) {
  let data;
  try {
    data = readFileSync(file);
  } catch {
    return undefined;
  }
  const head = Buffer.from(stamp);
  const start = head.length + DIGEST_BYTES;
  if (data.length <= start || !data.subarray(0, head.length).equals(head)) return undefined;
  // V8 does not check the code it is given (a damaged cache crashes the process): a digest does
  const code = data.subarray(start);
  return digest(code).equals(data.subarray(head.length, start)) ? code : undefined;
}

const DIGEST_BYTES = 20;

/** The SHA-1 of cached code: against damage, not an attacker (who could write the modules themselves). */
function digest(code) {
  return createHash('sha1').update(code).digest();
}

/** The `require` of module `mod`, as Node makes it (lib/internal/modules/helpers.js makeRequireFunction). */
function requireFor(mod) {
  const req = (id) => mod.require(id);
  req.resolve = (request, options) => Module._resolveFilename(request, mod, false, options);
  req.resolve.paths = (request) => Module._resolveLookupPaths(request, mod);
  req.main = process.mainModule;
  req.extensions = Module._extensions;
  req.cache = Module._cache;
  return req;
}
