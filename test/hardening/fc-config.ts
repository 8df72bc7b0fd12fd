import fc from 'fast-check';

/**
 * fast-check settings shared by the hardening suite.
 *
 * CI (`CI=true` or `CNPG_I_REQUIRE_SHARED=1`) runs 1000 cases per property; a local run 100.
 * `FC_RUNS` overrides both. The seed is random unless `FC_SEED` is set; it is printed once per
 * test file, and fast-check prints it again with the shrunk counterexample and its `path`
 * when a property fails, so `FC_SEED=<seed> npx jest test/hardening/<file>` replays the run.
 */
export const CI_MODE = process.env.CI === 'true' || process.env.CNPG_I_REQUIRE_SHARED === '1';

function readInt(name: string): number | undefined {
  const raw = process.env[name];
  if (raw === undefined || raw.trim() === '') return undefined;
  const n = Number(raw);
  if (!Number.isSafeInteger(n)) throw new Error(`${name} must be an integer, not '${raw}'`);
  return n;
}

export const NUM_RUNS = readInt('FC_RUNS') ?? (CI_MODE ? 1000 : 100);
// Taken before any test stubs Math.random; `| 0` keeps it in fast-check's 32-bit seed range.
export const SEED = readInt('FC_SEED') ?? (Math.random() * 0x1_0000_0000) | 0;

fc.configureGlobal({ numRuns: NUM_RUNS, seed: SEED, endOnFailure: false });

let printed = false;
/** Prints the seed and the run count once per test file. */
export function announce(file: string): void {
  if (printed) return;
  printed = true;

  console.log(`${file}: fast-check seed ${SEED}, ${NUM_RUNS} runs per property (replay: FC_SEED=${SEED})`);
}

/**
 * Runs a property with the shared settings. The failure message already holds the seed, the
 * path and the shrunk counterexample; the seed is repeated in front for the CI log.
 */
export function check<Ts extends [unknown, ...unknown[]]>(property: fc.IProperty<Ts>, params: fc.Parameters<Ts> = {}): void {
  try {
    fc.assert(property, { ...params });
  } catch (e) {
    (e as Error).message = `[FC_SEED=${SEED}] ${(e as Error).message}`;
    throw e;
  }
}
