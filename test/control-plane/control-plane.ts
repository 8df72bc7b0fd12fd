/**
 * A real control plane for the tests, on loopback only: etcd, kube-apiserver (Kubernetes
 * v1.36.3, PodSecurity enforcing `restricted` in every namespace but kube-system), the CRDs the
 * project pins installed for real, and CloudNativePG v1.30.0's own admission webhooks. Built from
 * the Go module proxy by `./build.ts`; the Go side is `go/cmd/cnpg-i-control-plane`.
 *
 * API (small on purpose):
 *
 * - `describeWithControlPlane(title, (cp) => { ... })`: a `describe` whose tests call `cp()` for
 *   the running `ControlPlane` (started or reused in `beforeAll`). Without Go it is one skipped
 *   test and one warning line; in CI (`CI=true`, or `CNPG_I_REQUIRE_SHARED=1`) one failed test.
 * - `ControlPlane.start()`: starts the control plane, or reuses the one already running for the
 *   same build (under a file lock). It keeps running while a process holding a lease is alive;
 *   this process takes one, and `release()` (or the process's exit) gives it back; with no lease
 *   left the supervisor stops etcd, kube-apiserver and the webhooks on its own (the reaper).
 *   `close()` only closes connections (what `describeWithControlPlane` does after its tests).
 * - `cp.dryRunAll(objects, namespace)`: a create with `dryRun=All` (and `fieldValidation=Strict`,
 *   as kubectl sends) of each object; one `AdmissionResult` per object, in order. An object that
 *   exists already (a namespace made for the others) is judged by a dry-run server-side apply.
 * - `cp.create(object, { namespace, dryRun })`: a real create (or a dry-run one); the object is
 *   stored, with the defaults the API server and the webhooks wrote.
 * - `cp.updateStatus(object)`: writes `object.status` through the status subresource (a PUT on
 *   `.../status` with the object as read back, so `metadata.resourceVersion` must be current);
 *   `cp.get(apiVersion, kind, namespace, name)` reads an object back.
 * - `cp.ensureNamespace(name)`: creates a namespace (labelled to enforce `restricted`) and its
 *   `default` ServiceAccount (no controller-manager runs, so nobody else creates it).
 * - `cp.request(method, path, body?)`: anything else, as the cluster administrator.
 *
 * Nothing here runs at import time.
 */
import { spawn } from 'child_process';
import * as fs from 'fs';
import * as https from 'https';
import * as os from 'os';
import * as path from 'path';
import { GO_REQUIRED } from '../oracles/go-oracle';
import { buildControlPlane, ControlPlaneBuild, controlPlaneGo, findControlPlaneBuild, lockSync, MIN_GO_MINOR } from './build';

/** A Kubernetes object as JSON. */
export type KubeObject = Record<string, unknown> & {
  apiVersion?: string;
  kind?: string;
  metadata?: { name?: string; namespace?: string; [k: string]: unknown };
};

/** The answer of the API server to one request. */
export interface ApiResponse {
  readonly status: number;
  readonly body: unknown;
  /** The `Warning` headers' texts, in order. */
  readonly warnings: readonly string[];
}

/** The API server's verdict on one object. */
export interface AdmissionResult {
  readonly apiVersion: string;
  readonly kind: string;
  readonly namespace: string | undefined;
  readonly name: string;
  readonly allowed: boolean;
  readonly warnings: readonly string[];
  /** The refusal's message (`Status.message`), or '' when allowed. */
  readonly message: string;
  /** The refusal's causes (`Status.details.causes`): the fields when the server names them. */
  readonly causes: readonly { field?: string; message?: string; reason?: string }[];
  /** The object as the server would store it (defaults included), when allowed. */
  readonly stored?: KubeObject;
}

interface ReadyFile {
  server: string;
  ca: string;
  cert: string;
  key: string;
  pid: number;
  apiserverPid: number;
  webhookPort: number;
  crds: number;
  startupMs: number;
}

/** Where the running control planes keep their state (one folder per build). */
export const STATE_ROOT = path.join(os.tmpdir(), 'cdk8s-cnpg-i-control-plane');

function stateDirFor(build: ControlPlaneBuild): string {
  return path.join(STATE_ROOT, path.basename(build.dir));
}

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function readReady(stateDir: string): ReadyFile | undefined {
  try {
    const r = JSON.parse(fs.readFileSync(path.join(stateDir, 'ready.json'), 'utf8')) as ReadyFile;
    return pidAlive(r.pid) ? r : undefined;
  } catch {
    return undefined;
  }
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** `299 - "text"` warning headers, one text each. */
function parseWarnings(raw: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < raw.length; i += 2) {
    if (raw[i].toLowerCase() !== 'warning') continue;
    const m = /^\d{3} \S+ "((?:[^"\\]|\\.)*)"/.exec(raw[i + 1]);
    out.push(m ? m[1].replace(/\\(.)/g, '$1') : raw[i + 1]);
  }
  return out;
}

interface ResourceInfo {
  readonly name: string;
  readonly namespaced: boolean;
}

const ownLeases = new Set<string>();
let exitHookInstalled = false;
function dropLeasesOnExit(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on('exit', () => {
    for (const l of ownLeases) fs.rmSync(l, { force: true });
  });
}

/** A running control plane, as the cluster administrator (system:masters) sees it. */
export class ControlPlane {
  /**
   * Starts the control plane for the current build, or reuses the running one, and takes a lease
   * for this process. `keepAliveMs` adds a lease that outlives the process by that long (the CLI
   * uses it, so that the next run reuses the control plane).
   */
  static async start(options: { keepAliveMs?: number; build?: ControlPlaneBuild } = {}): Promise<ControlPlane> {
    const build = options.build ?? findControlPlaneBuild() ?? buildControlPlane().build;
    const stateDir = stateDirFor(build);
    const leases = path.join(stateDir, 'leases');
    fs.mkdirSync(leases, { recursive: true });
    const lease = path.join(leases, `pid.${process.pid}`);
    const release = lockSync(`${stateDir}.lock`, 600_000);
    let ready: ReadyFile | undefined;
    try {
      fs.writeFileSync(lease, '');
      ownLeases.add(lease);
      dropLeasesOnExit();
      if (options.keepAliveMs) fs.writeFileSync(path.join(leases, `until.${Date.now() + options.keepAliveMs}`), '');
      ready = readReady(stateDir);
      if (!ready) ready = await launch(build, stateDir);
    } finally {
      release();
    }
    const cp = new ControlPlane(ready, stateDir, lease);
    await cp.waitHealthy();
    return cp;
  }

  /** Asks the running control plane of the current build (if any) to stop; true if one was running. */
  static stopRunning(build: ControlPlaneBuild | undefined = findControlPlaneBuild()): boolean {
    if (!build) return false;
    const ready = readReady(stateDirFor(build));
    if (!ready) return false;
    process.kill(ready.pid, 'SIGTERM');
    return true;
  }

  /** `https://127.0.0.1:<port>` */
  readonly server: string;
  /** How long the supervisor took to get ready (when this process or another started it). */
  readonly startupMs: number;
  private readonly agent: https.Agent;
  private readonly discovery = new Map<string, Promise<Map<string, ResourceInfo>>>();
  private readonly namespaces = new Map<string, Promise<void>>();

  private constructor(
    ready: ReadyFile,
    /** The control plane's state folder (PKI, logs, leases). */
    readonly stateDir: string,
    private readonly lease: string,
  ) {
    this.server = ready.server;
    this.startupMs = ready.startupMs;
    this.agent = new https.Agent({
      ca: fs.readFileSync(ready.ca),
      cert: fs.readFileSync(ready.cert),
      key: fs.readFileSync(ready.key),
      keepAlive: true,
      maxSockets: 8,
    });
  }

  /**
   * Closes this handle's connections; the lease stays until the process exits, so that the next
   * test file of the same process reuses the running control plane.
   */
  close(): void {
    this.agent.destroy();
  }

  /** Closes the connections and gives this process's lease back; the control plane stops when nobody holds one. */
  release(): void {
    fs.rmSync(this.lease, { force: true });
    ownLeases.delete(this.lease);
    this.close();
  }

  private async waitHealthy(): Promise<void> {
    let last = '';
    for (let i = 0; i < 100; i++) {
      try {
        const r = await this.request('GET', '/readyz');
        if (r.status === 200) return;
        last = `${r.status}`;
      } catch (e) {
        last = (e as Error).message;
      }
      await sleep(200);
    }
    throw new Error(`the control plane at ${this.server} does not answer /readyz: ${last}`);
  }

  /** One request as the administrator; `body` is sent as JSON. */
  request(method: string, urlPath: string, body?: unknown, contentType = 'application/json'): Promise<ApiResponse> {
    const url = new URL(urlPath, this.server);
    const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
    return new Promise((resolve, reject) => {
      const req = https.request(
        url,
        {
          method,
          agent: this.agent,
          headers: { Accept: 'application/json', ...(payload ? { 'Content-Type': contentType, 'Content-Length': payload.length } : {}) },
          timeout: 60_000,
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            let parsed: unknown = text;
            try {
              parsed = text === '' ? undefined : JSON.parse(text);
            } catch {
              // plain text (healthz)
            }
            resolve({ status: res.statusCode ?? 0, body: parsed, warnings: parseWarnings(res.rawHeaders) });
          });
        },
      );
      req.on('timeout', () => req.destroy(new Error(`${method} ${urlPath}: no answer in 60s`)));
      req.on('error', reject);
      if (payload) req.write(payload);
      req.end();
    });
  }

  /** The resource (plural name, scope) that serves `kind` in `apiVersion`, or undefined. */
  async resourceFor(apiVersion: string, kind: string): Promise<ResourceInfo | undefined> {
    let p = this.discovery.get(apiVersion);
    if (!p) {
      p = (async () => {
        const r = await this.request('GET', apiVersion.includes('/') ? `/apis/${apiVersion}` : `/api/${apiVersion}`);
        const out = new Map<string, ResourceInfo>();
        if (r.status !== 200) return out;
        for (const res of (r.body as { resources?: { name: string; kind: string; namespaced: boolean }[] }).resources ?? []) {
          if (!res.name.includes('/')) out.set(res.kind, { name: res.name, namespaced: res.namespaced });
        }
        return out;
      })();
      this.discovery.set(apiVersion, p);
    }
    return (await p).get(kind);
  }

  private async collectionPath(apiVersion: string, kind: string, namespace: string | undefined): Promise<string | undefined> {
    const res = await this.resourceFor(apiVersion, kind);
    if (!res) return undefined;
    const base = apiVersion.includes('/') ? `/apis/${apiVersion}` : `/api/${apiVersion}`;
    return res.namespaced ? `${base}/namespaces/${encodeURIComponent(namespace ?? 'default')}/${res.name}` : `${base}/${res.name}`;
  }

  /** Creates the namespace (enforcing `restricted`, explicitly) and its `default` ServiceAccount, once. */
  ensureNamespace(name: string): Promise<void> {
    let p = this.namespaces.get(name);
    if (!p) {
      p = (async () => {
        const labels: Record<string, string> = {};
        for (const mode of ['enforce', 'warn', 'audit']) labels[`pod-security.kubernetes.io/${mode}`] = 'restricted';
        const ns = await this.request('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name, labels } });
        if (ns.status !== 201 && ns.status !== 409) throw new Error(`creating namespace ${name}: ${ns.status} ${JSON.stringify(ns.body)}`);
        const sa = await this.request('POST', `/api/v1/namespaces/${encodeURIComponent(name)}/serviceaccounts`, {
          apiVersion: 'v1',
          kind: 'ServiceAccount',
          metadata: { name: 'default' },
        });
        if (sa.status !== 201 && sa.status !== 409) throw new Error(`creating ${name}/default ServiceAccount: ${sa.status} ${JSON.stringify(sa.body)}`);
      })();
      this.namespaces.set(name, p);
      p.catch(() => this.namespaces.delete(name));
    }
    return p;
  }

  /**
   * Creates `object` (in its own namespace, else `namespace`, else `default`), for real or with
   * `dryRun`; the verdict and, when allowed, the object as stored.
   */
  async create(object: KubeObject, options: { namespace?: string; dryRun?: boolean } = {}): Promise<AdmissionResult> {
    const apiVersion = String(object.apiVersion ?? '');
    const kind = String(object.kind ?? '');
    const name = String(object.metadata?.name ?? '');
    const res = apiVersion && kind ? await this.resourceFor(apiVersion, kind) : undefined;
    if (!res) {
      return {
        apiVersion,
        kind,
        namespace: object.metadata?.namespace,
        name,
        allowed: false,
        warnings: [],
        message: `no resource serves kind ${kind} in ${apiVersion || '(no apiVersion)'}`,
        causes: [],
      };
    }
    const namespace = res.namespaced ? (object.metadata?.namespace ?? options.namespace ?? 'default') : undefined;
    if (namespace) await this.ensureNamespace(namespace);
    if (kind === 'Namespace' && !options.dryRun) this.namespaces.set(name, Promise.resolve());
    const collection = (await this.collectionPath(apiVersion, kind, namespace)) as string;
    const query = `?fieldValidation=Strict${options.dryRun ? '&dryRun=All' : ''}`;
    let r = await this.request('POST', collection + query, object);
    if (options.dryRun && r.status === 409 && (r.body as { reason?: string } | undefined)?.reason === 'AlreadyExists') {
      // the object exists already (a namespace the control plane made for the others): judged as
      // a server-side apply of it would be, still without storing anything
      const apply = `${collection}/${encodeURIComponent(name)}?dryRun=All&fieldManager=real-admission&force=true&fieldValidation=Strict`;
      r = await this.request('PATCH', apply, object, 'application/apply-patch+yaml');
    }
    const ok = r.status >= 200 && r.status < 300;
    const status = (ok ? {} : r.body) as { message?: string; details?: { causes?: { field?: string; message?: string; reason?: string }[] } };
    return {
      apiVersion,
      kind,
      namespace,
      name,
      allowed: ok,
      warnings: r.warnings,
      message: ok ? '' : (status.message ?? `${r.status} ${JSON.stringify(r.body)}`),
      causes: ok ? [] : (status.details?.causes ?? []),
      stored: ok ? (r.body as KubeObject) : undefined,
    };
  }

  /** Dry-run creates of every object (see `create`), in order, a few at a time. */
  async dryRunAll(objects: readonly KubeObject[], namespace?: string): Promise<AdmissionResult[]> {
    const out: AdmissionResult[] = new Array(objects.length);
    let next = 0;
    const worker = async () => {
      while (next < objects.length) {
        const i = next++;
        out[i] = await this.create(objects[i], { namespace, dryRun: true });
      }
    };
    await Promise.all(Array.from({ length: Math.min(6, objects.length) }, worker));
    return out;
  }

  /** Reads an object back; undefined when absent. */
  async get(apiVersion: string, kind: string, namespace: string | undefined, name: string): Promise<KubeObject | undefined> {
    const collection = await this.collectionPath(apiVersion, kind, namespace);
    if (!collection) throw new Error(`no resource serves kind ${kind} in ${apiVersion}`);
    const r = await this.request('GET', `${collection}/${encodeURIComponent(name)}`);
    if (r.status === 404) return undefined;
    if (r.status !== 200) throw new Error(`GET ${kind} ${name}: ${r.status} ${JSON.stringify(r.body)}`);
    return r.body as KubeObject;
  }

  /**
   * Writes `object.status` through the status subresource (PUT `.../status`); `object` must carry
   * the current `metadata.resourceVersion` (read it with `get` or take it from `create`).
   * Returns the object as stored.
   */
  async updateStatus(object: KubeObject): Promise<KubeObject> {
    const apiVersion = String(object.apiVersion);
    const kind = String(object.kind);
    const name = String(object.metadata?.name);
    const collection = await this.collectionPath(apiVersion, kind, object.metadata?.namespace);
    if (!collection) throw new Error(`no resource serves kind ${kind} in ${apiVersion}`);
    const r = await this.request('PUT', `${collection}/${encodeURIComponent(name)}/status`, object);
    if (r.status !== 200) throw new Error(`PUT ${kind} ${name}/status: ${r.status} ${JSON.stringify(r.body)}`);
    return r.body as KubeObject;
  }
}

/** Starts the supervisor detached and waits for its ready.json. */
async function launch(build: ControlPlaneBuild, stateDir: string): Promise<ReadyFile> {
  for (const f of ['pki', 'etcd', 'ready.json', 'supervisor.log', 'kube-apiserver.log']) fs.rmSync(path.join(stateDir, f), { recursive: true, force: true });
  const logPath = path.join(stateDir, 'supervisor.log');
  const log = fs.openSync(logPath, 'w');
  const child = spawn(build.supervisor, ['--state-dir', stateDir, '--apiserver', build.apiserver, '--crds', build.crds], {
    detached: true,
    stdio: ['ignore', log, log],
  });
  fs.closeSync(log);
  let exited: number | null | undefined;
  child.on('exit', (code) => (exited = code));
  child.unref();
  const deadline = Date.now() + 300_000;
  while (Date.now() < deadline) {
    const ready = readReady(stateDir);
    if (ready) return ready;
    if (exited !== undefined) break;
    await sleep(250);
  }
  const tail = fs.existsSync(logPath) ? fs.readFileSync(logPath, 'utf8').split('\n').slice(-15).join('\n') : '';
  if (exited === undefined) child.kill('SIGTERM');
  throw new Error(`the test control plane did not start (${exited === undefined ? 'not ready after 300s' : `exit ${exited}`}); ${logPath}:\n${tail}`);
}

const warned = new Set<string>();

/**
 * A `describe` block that needs the control plane: `cp()` returns it inside tests. Without Go,
 * one skipped test and a one-line warning; where Go is required (CI), one failed test.
 */
export function describeWithControlPlane(title: string, body: (cp: () => ControlPlane) => void): void {
  if (!findControlPlaneBuild() && !controlPlaneGo()) {
    if (GO_REQUIRED) {
      describe(title, () => {
        test('needs Go', () => {
          throw new Error(`'${title}' needs Go 1.${MIN_GO_MINOR} or later (go on PATH) to build the test control plane and is required in CI (CI=true)`);
        });
      });
      return;
    }
    if (!warned.has(title)) {
      warned.add(title);
      console.warn(`skipping '${title}': no Go 1.${MIN_GO_MINOR} or later on PATH to build the test control plane`);
    }
    describe.skip(title, () => {
      test('needs Go', () => undefined);
    });
    return;
  }
  describe(title, () => {
    let plane: ControlPlane | undefined;
    beforeAll(async () => {
      plane = await ControlPlane.start();
    }, 3_600_000);
    afterAll(() => plane?.close());
    body(() => {
      if (!plane) throw new Error('the test control plane did not start (see beforeAll)');
      return plane;
    });
  });
}
