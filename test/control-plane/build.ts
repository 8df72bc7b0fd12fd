/**
 * Builds the test control plane (test/control-plane/go) once per source version: two binaries,
 * `kube-apiserver` (k8s.io/kubernetes v1.36.3) and `cnpg-i-control-plane` (embedded etcd
 * v3.6.8, CloudNativePG v1.30.0's webhooks, the supervisor), plus a `crds/` folder with the
 * CustomResourceDefinitions the project pins, taken from the same upstream modules at the same
 * tags through the Go module proxy and checked against `imports/SOURCES.txt`.
 *
 * Everything lands in `os.tmpdir()/cdk8s-cnpg-i-oracles/control-plane-<hash>`, keyed by the
 * hash of the Go sources and of the CRD list below, so a second build is a directory lookup.
 * No import of this file starts a build; `buildControlPlane()` does.
 */
import { execFileSync } from 'child_process';
import * as crypto from 'crypto';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { findGo } from '../e2e/go-peers';
import { oracleEnv } from '../oracles/go-oracle';

/** The Go module of the control plane. */
export const GO_DIR = path.join(__dirname, 'go');

/** Shared with test/oracles/go-oracle.ts: the module and build caches survive between runs. */
export const CACHE_DIR = path.join(os.tmpdir(), 'cdk8s-cnpg-i-oracles');

/**
 * The CRDs installed in the control plane: module, version, folder in the module, files (empty:
 * every `.yaml` of the folder). The versions are the ones the project pins (imports/SOURCES.txt).
 */
const CRD_SOURCES: readonly { module: string; version: string; dir: string; files: readonly string[] }[] = [
  { module: 'github.com/cloudnative-pg/cloudnative-pg', version: 'v1.30.0', dir: 'config/crd/bases', files: [] },
  {
    module: 'github.com/cert-manager/cert-manager',
    version: 'v1.21.1',
    dir: 'deploy/crds',
    files: ['cert-manager.io_certificates.yaml', 'cert-manager.io_issuers.yaml', 'cert-manager.io_clusterissuers.yaml'],
  },
  { module: 'github.com/cloudnative-pg/plugin-barman-cloud', version: 'v0.14.0', dir: 'config/crd/bases', files: ['barmancloud.cnpg.io_objectstores.yaml'] },
  {
    module: 'github.com/prometheus-operator/prometheus-operator',
    version: 'v0.93.0',
    dir: 'example/prometheus-operator-crd',
    files: ['monitoring.coreos.com_podmonitors.yaml', 'monitoring.coreos.com_prometheusrules.yaml'],
  },
];

/** The oldest Go that builds the control plane (k8s.io/kubernetes v1.36.3 and cloudnative-pg v1.30.0 ask for 1.26). */
export const MIN_GO_MINOR = 26;

/** A Go toolchain new enough to build the control plane, or undefined. */
export function controlPlaneGo(): ReturnType<typeof findGo> {
  const go = findGo();
  return go && go.minor >= MIN_GO_MINOR ? go : undefined;
}

/** Paths of a built control plane. */
export interface ControlPlaneBuild {
  readonly dir: string;
  readonly apiserver: string;
  readonly supervisor: string;
  readonly crds: string;
}

function walk(dir: string, out: string[] = []): string[] {
  for (const e of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) walk(p, out);
    else if (e.name === 'go.mod' || e.name === 'go.sum' || e.name.endsWith('.go')) out.push(p);
  }
  return out;
}

/** The hash that names a build: every Go source, go.mod, go.sum and the CRD list. */
export function controlPlaneHash(): string {
  const h = crypto.createHash('sha256');
  for (const f of walk(GO_DIR)) h.update(path.relative(GO_DIR, f)).update('\0').update(fs.readFileSync(f)).update('\0');
  h.update(JSON.stringify(CRD_SOURCES));
  return h.digest('hex').slice(0, 16);
}

/** Where the build for the current sources is (or will be). */
export function controlPlaneBuildDir(): string {
  return path.join(CACHE_DIR, `control-plane-${controlPlaneHash()}`);
}

function paths(dir: string): ControlPlaneBuild {
  return {
    dir,
    apiserver: path.join(dir, 'kube-apiserver'),
    supervisor: path.join(dir, 'cnpg-i-control-plane'),
    crds: path.join(dir, 'crds'),
  };
}

/** The finished build for the current sources, or undefined. */
export function findControlPlaneBuild(): ControlPlaneBuild | undefined {
  const dir = controlPlaneBuildDir();
  return fs.existsSync(path.join(dir, 'complete')) ? paths(dir) : undefined;
}

function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Takes a lock directory (mkdir is atomic), waiting while a live process holds it and breaking it
 * when its holder is dead. Returns the function that releases it.
 */
export function lockSync(lockDir: string, timeoutMs: number): () => void {
  const deadline = Date.now() + timeoutMs;
  fs.mkdirSync(path.dirname(lockDir), { recursive: true });
  for (;;) {
    try {
      fs.mkdirSync(lockDir);
      fs.writeFileSync(path.join(lockDir, 'pid'), String(process.pid));
      return () => fs.rmSync(lockDir, { recursive: true, force: true });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
    let holder = 0;
    try {
      holder = Number(fs.readFileSync(path.join(lockDir, 'pid'), 'utf8'));
    } catch {
      // being created or removed: look again
    }
    if (holder > 0 && !pidAlive(holder)) fs.rmSync(lockDir, { recursive: true, force: true });
    else if (Date.now() > deadline) throw new Error(`timed out waiting for the lock ${lockDir} (held by pid ${holder})`);
    else sleepSync(200);
  }
}

/** SHA-256 of the CRD files imports/SOURCES.txt names. */
function pinnedHashes(): Map<string, string> {
  const text = fs.readFileSync(path.join(__dirname, '..', '..', 'imports', 'SOURCES.txt'), 'utf8');
  const out = new Map<string, string>();
  for (const line of text.split('\n')) {
    const m = /^([0-9a-f]{64}) {2}(\S+\.yaml)/.exec(line);
    if (m) out.set(m[2], m[1]);
  }
  return out;
}

function copyCrds(go: string, into: string): number {
  fs.mkdirSync(into, { recursive: true });
  const pinned = pinnedHashes();
  let n = 0;
  for (const src of CRD_SOURCES) {
    const info = JSON.parse(
      execFileSync(go, ['mod', 'download', '-json', `${src.module}@${src.version}`], {
        cwd: CACHE_DIR,
        env: { ...oracleEnv(), GOFLAGS: '-mod=mod' },
        encoding: 'utf8',
        timeout: 600_000,
      }),
    ) as { Dir?: string; Error?: string };
    if (!info.Dir) throw new Error(`go mod download ${src.module}@${src.version}: ${info.Error ?? 'no directory'}`);
    const dir = path.join(info.Dir, src.dir);
    const files = src.files.length > 0 ? src.files : fs.readdirSync(dir).filter((f) => f.endsWith('.yaml'));
    for (const f of files) {
      const data = fs.readFileSync(path.join(dir, f));
      const want = pinned.get(f);
      const got = crypto.createHash('sha256').update(data).digest('hex');
      if (want !== undefined && want !== got)
        throw new Error(`${src.module}@${src.version}/${src.dir}/${f} has SHA-256 ${got}, imports/SOURCES.txt pins ${want}`);
      fs.writeFileSync(path.join(into, f), data);
      n++;
    }
  }
  return n;
}

/** What `buildControlPlane` did. */
export interface BuildOutcome {
  readonly build: ControlPlaneBuild;
  /** False when the build was already there. */
  readonly built: boolean;
  readonly seconds: number;
}

/**
 * Builds the control plane for the current sources unless it is there already (one builder at
 * a time, under a lock; the Go build compiles packages in parallel). Throws without Go.
 */
export function buildControlPlane(log: (line: string) => void = () => undefined): BuildOutcome {
  const started = Date.now();
  const found = findControlPlaneBuild();
  if (found) return { build: found, built: false, seconds: 0 };
  const toolchain = controlPlaneGo();
  if (!toolchain) throw new Error(`the test control plane needs Go 1.${MIN_GO_MINOR} or later (go on PATH) to build`);
  const dir = controlPlaneBuildDir();
  const release = lockSync(`${dir}.lock`, 3_600_000);
  try {
    const again = findControlPlaneBuild();
    if (again) return { build: again, built: false, seconds: (Date.now() - started) / 1000 };
    const tmp = `${dir}.${process.pid}.tmp`;
    fs.rmSync(tmp, { recursive: true, force: true });
    fs.mkdirSync(tmp, { recursive: true });
    log(`building the test control plane with ${toolchain.version} into ${dir} (the first build takes 10-20 minutes)`);
    execFileSync(toolchain.go, ['build', '-trimpath', '-ldflags=-s -w', '-o', tmp + path.sep, './cmd/...'], {
      cwd: GO_DIR,
      env: oracleEnv(),
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: 3_600_000,
      maxBuffer: 64 * 1024 * 1024,
    });
    const crds = copyCrds(toolchain.go, path.join(tmp, 'crds'));
    fs.writeFileSync(path.join(tmp, 'complete'), `${toolchain.version}\n${crds} CRDs\n`);
    fs.rmSync(dir, { recursive: true, force: true });
    fs.renameSync(tmp, dir);
    return { build: paths(dir), built: true, seconds: (Date.now() - started) / 1000 };
  } finally {
    release();
  }
}
