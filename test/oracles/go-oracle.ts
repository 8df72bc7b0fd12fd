/**
 * Small Go programs that run upstream code for real (the "oracles" of differential tests): each
 * is a Go module of its own under `test/oracles/<name>/`, with its `go.mod` and `go.sum` pinning
 * the upstream modules it imports, downloaded from the Go module proxy on the first build.
 *
 * A machine without Go skips these suites with one line; CI (CI=true) fails them instead.
 */
import { execFileSync } from 'child_process';
import * as crypto from 'crypto';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { findGo } from '../e2e/go-peers';

/** True where Go oracles must run: CI, or a run that asks for ../shared. */
export const GO_REQUIRED = process.env.CI === 'true' || process.env.CNPG_I_REQUIRE_SHARED === '1';

const toolchain = findGo();

/** Cached between runs: a rebuild of an unchanged oracle is a file lookup. */
const CACHE_DIR = path.join(os.tmpdir(), 'cdk8s-cnpg-i-oracles');

/** The environment every Go build of the tests runs in: no network writes to go.mod, the local toolchain, the shared caches. */
export function oracleEnv(): NodeJS.ProcessEnv {
  return {
    ...process.env,
    GOFLAGS: '-mod=readonly',
    GOTOOLCHAIN: 'local',
    CGO_ENABLED: '0',
    GOCACHE: process.env.GOCACHE ?? path.join(CACHE_DIR, 'gocache'),
    GOPATH: process.env.GOPATH ?? path.join(CACHE_DIR, 'gopath'),
  };
}

/** The hash of an oracle's sources, so that a changed oracle is rebuilt. */
function sourceHash(dir: string): string {
  const h = crypto.createHash('sha256');
  for (const f of fs.readdirSync(dir).sort()) {
    if (f === 'go.mod' || f === 'go.sum' || f.endsWith('.go'))
      h.update(f)
        .update('\0')
        .update(fs.readFileSync(path.join(dir, f)))
        .update('\0');
  }
  return h.digest('hex').slice(0, 16);
}

/**
 * Builds the oracle `test/oracles/<name>` (once per source version; downloads its modules from the
 * Go module proxy on the first build) and returns the binary's path.
 */
export function buildOracle(name: string): string {
  if (!toolchain) throw new Error(`the oracle ${name} needs Go`);
  const dir = path.join(__dirname, name);
  const bin = path.join(CACHE_DIR, 'bin', `${name}-${sourceHash(dir)}`);
  if (fs.existsSync(bin)) return bin;
  fs.mkdirSync(path.dirname(bin), { recursive: true });
  const tmp = `${bin}.${process.pid}.tmp`;
  execFileSync(toolchain.go, ['build', '-trimpath', '-o', tmp, '.'], { cwd: dir, env: oracleEnv(), stdio: ['ignore', 'pipe', 'pipe'], timeout: 600_000 });
  fs.renameSync(tmp, bin);
  return bin;
}

/** Runs a built oracle with `input` on stdin and returns its stdout. */
export function runOracle(bin: string, args: readonly string[], input: string): string {
  return execFileSync(bin, [...args], { input, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, timeout: 120_000 });
}

const warned = new Set<string>();

/**
 * A `describe` block that needs Go to build an oracle. Without Go it is one skipped test and a
 * one-line warning; where Go is required (CI) it is one failed test.
 */
export function describeWithGo(title: string, body: () => void): void {
  if (toolchain) {
    describe(title, body);
    return;
  }
  if (GO_REQUIRED) {
    describe(title, () => {
      test('needs Go', () => {
        throw new Error(`'${title}' needs Go (go on PATH) and is required in CI (CI=true)`);
      });
    });
    return;
  }
  if (!warned.has(title)) {
    warned.add(title);
    console.warn(`skipping '${title}': no Go toolchain on PATH`);
  }
  describe.skip(title, () => {
    test('needs Go', () => undefined);
  });
}
