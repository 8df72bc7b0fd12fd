import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { CliIo } from '../../src/cli/command-line';

/** What one in-process run of a command printed, and its exit code. */
export interface CliRun {
  readonly code: number;
  readonly out: string;
  readonly err: string;
}

/** A command's entry point as the binary calls it: the doctor's `main`, `runPlan`, `runCluster`. */
export type CliEntry = (argv: readonly string[], io: CliIo) => Promise<number>;

/**
 * Runs a command in-process, as `bin/cnpg-i-doctor` would, and captures what it prints: the one
 * way the tests drive the CLI. `stdin` is what `-` reads (empty by default); `cwd` is where
 * relative paths resolve (the process's by default); `env` sets environment variables for the
 * run (`CNPG_I_KUSTOMIZE`, say) and restores them after.
 */
export async function runCli(
  entry: CliEntry,
  argv: readonly string[],
  options: { readonly cwd?: string; readonly stdin?: string; readonly env?: Readonly<Record<string, string>> } = {},
): Promise<CliRun> {
  let out = '';
  let err = '';
  const saved = new Map(Object.keys(options.env ?? {}).map((k) => [k, process.env[k]]));
  Object.assign(process.env, options.env);
  try {
    const code = await entry(argv, {
      stdout: (t) => {
        out += t;
      },
      stderr: (t) => {
        err += t;
      },
      readStdin: async () => options.stdin ?? '',
      ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
    });
    return { code, out, err };
  } finally {
    for (const [k, v] of saved) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
}

/** A fresh temporary folder holding `files` (relative path to text), for tests that read a tree. */
export function tempTree(files: Readonly<Record<string, string>>, prefix = 'cnpg-i-tree-'): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  for (const [name, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), text);
  }
  return dir;
}
