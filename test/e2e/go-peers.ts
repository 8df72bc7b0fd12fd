/**
 * Builds and drives the Go peers of the end-to-end TLS test (sources in `./go`):
 * `issue` (what cert-manager does), `plugin` (a server configured as cnpg-i-machinery
 * configures a plugin) and `operator` (a client configured as CloudNativePG's plugin controller).
 *
 * The peers are written in Go because the operator and the plugins are: Go's TLS client sends its
 * certificate only when the server's list of acceptable CAs names its issuer, and OpenSSL-based
 * clients (Node's included) do not check that, so a Node peer passes setups that fail in production.
 */
import { ChildProcess, execFile, execFileSync, spawn } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

/** Where CI's `.ci/run` installs Go (Debian's golang-1.23-go from bookworm-backports). */
const DEBIAN_GO_1_23 = path.join(path.sep, 'usr', 'lib', 'go-1.23', 'bin', 'go');

/** The Go toolchain found for the test, or undefined. */
export interface GoToolchain {
  readonly go: string;
  /** e.g. `go1.23.5` */
  readonly version: string;
  readonly minor: number;
}

/**
 * Finds `go` on PATH, else Debian's Go 1.23 package. `CNPG_I_E2E_GO` names one binary to use
 * instead (e.g. an older Go, to check the assertions that depend on the version).
 */
export function findGo(): GoToolchain | undefined {
  const candidates = process.env.CNPG_I_E2E_GO
    ? [process.env.CNPG_I_E2E_GO]
    : (process.env.PATH ?? '')
        .split(path.delimiter)
        .filter((d) => d !== '')
        .map((d) => path.join(d, 'go'))
        .concat([DEBIAN_GO_1_23]);
  for (const go of candidates) {
    try {
      fs.accessSync(go, fs.constants.X_OK);
      if (!fs.statSync(go).isFile()) continue;
      const version = execFileSync(go, ['env', 'GOVERSION'], { env: goEnv(), encoding: 'utf8' }).trim();
      const m = /^go1\.(\d+)/.exec(version);
      return { go, version, minor: m ? Number(m[1]) : 0 };
    } catch {
      // not this one
    }
  }
  return undefined;
}

function goEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    ...process.env,
    // Standard library only: nothing to download, and nothing may be.
    GOFLAGS: '-mod=mod',
    GOTOOLCHAIN: 'local',
    GOPROXY: 'off',
    GOSUMDB: 'off',
    CGO_ENABLED: '0',
    // A cache that survives between runs keeps a rebuild to about a second; the first takes ~10 s.
    GOCACHE: process.env.GOCACHE ?? path.join(os.tmpdir(), 'cdk8s-cnpg-i-e2e-gocache'),
    GOPATH: process.env.GOPATH ?? path.join(os.tmpdir(), 'cdk8s-cnpg-i-e2e-gopath'),
    ...extra,
  };
}

/** Compiles the peers into `outDir` and returns the binary's path. */
export function buildPeers(toolchain: GoToolchain, outDir: string): string {
  const bin = path.join(outDir, 'cnpgi-e2e');
  execFileSync(toolchain.go, ['build', '-trimpath', '-o', bin, '.'], {
    cwd: path.join(__dirname, 'go'),
    env: goEnv(),
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: 120_000,
  });
  return bin;
}

/** A CA issuer that the manifests reference but do not contain, backed by a Secret dir. */
export interface ExternalCaIssuer {
  readonly group?: string;
  readonly kind: string;
  readonly name: string;
  readonly secretName: string;
}

/** What the issuer reports for each Certificate it issued. */
export interface IssuedCertificate {
  readonly certificate: string;
  readonly secretName: string;
  readonly issuer: string;
  readonly subject: string;
  readonly dnsNames: string[] | null;
  readonly keyType: string;
  readonly isCA: boolean;
  readonly notBefore: string;
  readonly notAfter: string;
}

/**
 * Issues every Certificate among `objects` (other kinds are ignored) into
 * `<secretsDir>/<secretName>/{tls.crt,tls.key,ca.crt}`. Throws with the issuer's message when
 * cert-manager would reject or never issue one.
 */
export async function issue(
  bin: string,
  plan: { namespace: string; secretsDir: string; objects: unknown[]; caIssuers?: ExternalCaIssuer[] },
): Promise<IssuedCertificate[]> {
  const planFile = path.join(plan.secretsDir, '..', `plan-${process.hrtime.bigint()}.json`);
  fs.mkdirSync(plan.secretsDir, { recursive: true });
  fs.writeFileSync(planFile, JSON.stringify(plan));
  const { code, stdout, stderr } = await run(bin, ['issue', planFile]);
  if (code !== 0) throw new Error(`issuer failed: ${stderr.trim()}`);
  return JSON.parse(stdout) as IssuedCertificate[];
}

/** A running plugin peer. */
export interface PluginProcess {
  readonly port: number;
  /** Everything the plugin logged so far. */
  log(): string;
  /** Resolves once the log contains `text`; rejects with the log after `timeoutMs`. */
  waitForLog(text: string, timeoutMs?: number): Promise<void>;
  stop(): Promise<void>;
}

/** Starts the plugin peer with a container's args (already rewritten to host paths). */
export async function startPlugin(bin: string, args: string[], pluginName: string): Promise<PluginProcess> {
  const child: ChildProcess = spawn(bin, ['plugin', ...args], {
    env: { ...process.env, CNPGI_E2E_PLUGIN_NAME: pluginName },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (err += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`plugin did not start within 10 s: ${err}`)), 10_000);
    const check = (): void => {
      const m = /serving on .*:(\d+)\n/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(Number(m[1]));
      }
    };
    child.stdout!.on('data', check);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`plugin exited with ${code} before serving: ${err.trim()}`));
    });
  });
  return {
    port,
    log: () => err,
    waitForLog: async (text, timeoutMs = 5_000) => {
      const until = Date.now() + timeoutMs;
      while (!err.includes(text)) {
        if (Date.now() > until) throw new Error(`plugin log lacks ${JSON.stringify(text)}:\n${err}`);
        await new Promise((r) => setTimeout(r, 20));
      }
    },
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        await exited;
      }
    },
  };
}

/** What the operator peer reports. */
export interface OperatorResult {
  readonly ok: boolean;
  readonly error?: string;
  readonly stage?: string;
  readonly pluginName?: string;
  readonly tlsVersion?: string;
  readonly alpn?: string;
  readonly serverName?: string;
  readonly peerSubject?: string;
  readonly peerDnsNames?: string[];
}

/** Dials the plugin as the operator does and makes one Identity.GetPluginMetadata call. */
export async function dialAsOperator(
  bin: string,
  opts: { serverSecretDir: string; clientSecretDir: string; serverName: string; port: number },
): Promise<OperatorResult> {
  const { stdout, stderr } = await run(bin, [
    'operator',
    `--server-secret-dir=${opts.serverSecretDir}`,
    `--client-secret-dir=${opts.clientSecretDir}`,
    `--server-name=${opts.serverName}`,
    `--address=127.0.0.1:${opts.port}`,
  ]);
  const line = stdout.trim();
  if (!line.startsWith('{')) throw new Error(`operator peer failed to run: ${stderr.trim()}`);
  return JSON.parse(line) as OperatorResult;
}

function run(bin: string, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(bin, args, { timeout: 30_000, maxBuffer: 1 << 20 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}
