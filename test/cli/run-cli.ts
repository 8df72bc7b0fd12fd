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
 * relative paths resolve (the process's by default).
 */
export async function runCli(entry: CliEntry, argv: readonly string[], options: { readonly cwd?: string; readonly stdin?: string } = {}): Promise<CliRun> {
  let out = '';
  let err = '';
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
}
