// The command-line plumbing shared by the doctor and its subcommands (`plan`): where the CLI
// reads and writes, and how flags are parsed. Its own module, so that the doctor's CLI and the
// plan's do not import each other.
import { InputError } from '../manifests/load';

/** Where the CLI reads and writes; tests pass their own. */
export interface CliIo {
  /** Writes to standard output (text without a trailing newline is completed by the caller). */
  readonly stdout: (text: string) => void;
  /** Writes to standard error. */
  readonly stderr: (text: string) => void;
  /** Reads all of standard input. */
  readonly readStdin: () => Promise<string>;
  /** Directory that relative paths are resolved against. @default process.cwd() */
  readonly cwd?: string;
}

/** An option of a command line: its flag, whether it takes a value, and what it does with it. */
export interface CliFlag<S> {
  /** `--name`, and the short form if any. */
  readonly names: readonly string[];
  /** True when the flag takes a value (`--x v` or `--x=v`). */
  readonly takesValue: boolean;
  /** Applies the flag to the state being built; throws an `InputError` for a bad value. */
  readonly apply: (state: S, value: string) => void;
}

/**
 * Parses `argv` against `flags`: positional arguments are paths (`-` is stdin, `--` ends the
 * options), `-h`/`--help` sets `help`. Shared by the doctor and its subcommands.
 */
export function parseCommandLine<S>(argv: readonly string[], flags: readonly CliFlag<S>[], state: S): { paths: string[]; help: boolean } {
  const byName = new Map<string, CliFlag<S>>();
  for (const f of flags) for (const n of f.names) byName.set(n, f);
  const paths: string[] = [];
  let help = false;
  for (let i = 0; i < argv.length; i++) {
    let arg = argv[i];
    if (arg === '--') {
      paths.push(...argv.slice(i + 1));
      break;
    }
    if (arg === '-h' || arg === '--help') {
      help = true;
      continue;
    }
    if (arg === '-' || !arg.startsWith('-')) {
      paths.push(arg);
      continue;
    }
    let value: string | undefined;
    const eq = arg.indexOf('=');
    if (arg.startsWith('--') && eq > 0) {
      value = arg.slice(eq + 1);
      arg = arg.slice(0, eq);
    }
    const flag = byName.get(arg);
    if (!flag) throw new InputError(`unknown option ${arg}`);
    if (!flag.takesValue) {
      if (value !== undefined) throw new InputError(`${arg} takes no value`);
      flag.apply(state, '');
      continue;
    }
    if (value === undefined) {
      if (i + 1 >= argv.length) throw new InputError(`${arg} needs a value`);
      value = argv[++i];
    }
    if (value === '') throw new InputError(`${arg} needs a non-empty value`);
    flag.apply(state, value);
  }
  return { paths, help };
}
