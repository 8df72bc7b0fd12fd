/**
 * `npm run --silent real-admission -- [--namespace NS] FILE_OR_DIR...`: asks a real API server
 * (Kubernetes v1.36.3 with CloudNativePG v1.30.0's own webhooks, PodSecurity `restricted` and the
 * pinned CRDs; test/control-plane) about every object of the files: a create with `dryRun=All`.
 * One JSON line per object on stdout; exit 0 when all are allowed, 1 when one is refused, 2 when
 * the input (or the command line) is unusable or the control plane cannot run.
 *
 * `--build` only builds the control plane (printing how long it took); `--stop` stops a running
 * one. A run leaves the control plane running for 10 minutes so that the next run reuses it.
 */
import { collectFiles, InputError, readManifestFile, readManifestFiles } from '../src/manifests/load';
import { buildControlPlane, controlPlaneGo, findControlPlaneBuild } from '../test/control-plane/build';
import { ControlPlane, KubeObject } from '../test/control-plane/control-plane';

const USAGE = 'usage: npm run --silent real-admission -- [--namespace NS] FILE_OR_DIR... | --build | --stop';
/** How long the control plane outlives a run (CNPG_I_REAL_ADMISSION_KEEP_MS, default 10 minutes). */
const KEEP_ALIVE_MS = Number(process.env.CNPG_I_REAL_ADMISSION_KEEP_MS ?? 10 * 60_000);

function fail(message: string): never {
  process.stderr.write(`real-admission: ${message}\n`);
  process.exit(2);
}

interface Target {
  readonly file: string;
  readonly index: number;
  readonly object: KubeObject;
}

async function main(argv: string[]): Promise<number> {
  let namespace = 'default';
  const inputs: string[] = [];
  let build = false;
  let stop = false;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--namespace' || a === '-n') {
      const v = argv[++i];
      if (!v || !/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/.test(v) || v.length > 63)
        fail(`--namespace needs a namespace name (RFC 1123 label), got ${JSON.stringify(v ?? '')}\n${USAGE}`);
      namespace = v;
    } else if (a.startsWith('--namespace=')) {
      argv.splice(i + 1, 0, a.slice('--namespace='.length));
      argv[i] = '--namespace';
      i--;
    } else if (a === '--build') build = true;
    else if (a === '--stop') stop = true;
    else if (a === '--help' || a === '-h') {
      process.stdout.write(`${USAGE}\n`);
      return 0;
    } else if (a.startsWith('-') && a !== '-') fail(`unknown option ${a}\n${USAGE}`);
    else inputs.push(a);
  }
  if (stop) {
    const stopped = ControlPlane.stopRunning();
    process.stderr.write(stopped ? 'real-admission: stopping the control plane\n' : 'real-admission: no control plane is running\n');
    return 0;
  }
  if (build) {
    if (!controlPlaneGo()) fail('building the control plane needs Go 1.26 or later on PATH');
    const outcome = buildControlPlane((line) => process.stderr.write(`real-admission: ${line}\n`));
    process.stderr.write(
      outcome.built
        ? `real-admission: control plane built in ${outcome.seconds.toFixed(0)} s (${outcome.build.dir})\n`
        : `real-admission: control plane already built (${outcome.build.dir})\n`,
    );
    return 0;
  }
  if (inputs.length === 0) fail(`no file or folder given\n${USAGE}`);

  let targets: Target[];
  try {
    const cwd = process.cwd();
    const files = collectFiles(inputs, cwd);
    const read = await readManifestFiles(files, (f) => readManifestFile(f, cwd));
    if (read.failures.length > 0) fail(read.failures.map((e) => e.message).join('\n'));
    targets = [];
    const perFile = new Map<string, number>();
    for (const doc of read.documents) {
      const values = isList(doc.value) ? (doc.value as { items: unknown[] }).items : [doc.value];
      for (const v of values) {
        if (v === null || v === undefined) continue;
        const index = perFile.get(doc.file) ?? 0;
        perFile.set(doc.file, index + 1);
        const o = v as KubeObject;
        if (typeof v !== 'object' || Array.isArray(v) || typeof o.apiVersion !== 'string' || typeof o.kind !== 'string')
          fail(`${doc.file}:${doc.line}:${doc.column}: object ${index} has no apiVersion and kind: not a Kubernetes object`);
        targets.push({ file: doc.file, index, object: o });
      }
    }
  } catch (e) {
    if (e instanceof InputError) fail(e.message);
    throw e;
  }
  if (targets.length === 0) fail('no Kubernetes object in the input');

  if (!findControlPlaneBuild() && !controlPlaneGo()) fail('the control plane is not built and there is no Go 1.26 or later on PATH to build it');
  if (!findControlPlaneBuild()) process.stderr.write('real-admission: building the control plane first (10-20 minutes the first time)\n');
  const cp = await ControlPlane.start({ keepAliveMs: KEEP_ALIVE_MS > 0 ? KEEP_ALIVE_MS : undefined });
  try {
    const results = await cp.dryRunAll(
      targets.map((t) => t.object),
      namespace,
    );
    let refused = 0;
    results.forEach((r, i) => {
      if (!r.allowed) refused++;
      process.stdout.write(
        `${JSON.stringify({
          file: targets[i].file,
          index: targets[i].index,
          apiVersion: r.apiVersion,
          kind: r.kind,
          namespace: r.namespace ?? null,
          name: r.name,
          allowed: r.allowed,
          warnings: r.warnings,
          message: r.message,
        })}\n`,
      );
    });
    return refused > 0 ? 1 : 0;
  } finally {
    cp.close();
  }
}

function isList(v: unknown): boolean {
  return typeof v === 'object' && v !== null && (v as { kind?: unknown }).kind === 'List' && Array.isArray((v as { items?: unknown }).items);
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (e: unknown) => fail(e instanceof Error ? e.message : String(e)),
);
