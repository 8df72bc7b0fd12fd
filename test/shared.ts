/*
 * Access to ../shared (upstream CRDs and release manifests, beside the repository, never inside
 * it) for the tests that compare with upstream.
 *
 * A clone without ../shared (every clone a user makes) skips those suites with one clear line;
 * CI sets CNPG_I_REQUIRE_SHARED=1, and then a missing ../shared fails them instead.
 *
 * Jest runs the body of every `describe` (skipped or not) while it collects tests, so the body
 * passed to `describeWithShared` is not even called when ../shared is absent, and suites should
 * still read the files inside `beforeAll` or the tests themselves.
 */
import * as fs from 'fs';
import * as path from 'path';

/** The folder beside the repository that holds the upstream data. */
export const SHARED_DIR = path.resolve(__dirname, '..', '..', 'shared');

/** True when CI asks for ../shared to be present (a missing one fails instead of skipping). */
export const SHARED_REQUIRED = process.env.CNPG_I_REQUIRE_SHARED === '1';

/** A path inside ../shared, e.g. `sharedPath('reference', 'cnpg-1.30.0.yaml')`. */
export function sharedPath(...parts: string[]): string {
  return path.join(SHARED_DIR, ...parts);
}

/** Whether a file or folder inside ../shared exists (all of ../shared when no parts are given). */
export function haveShared(...parts: string[]): boolean {
  return fs.existsSync(sharedPath(...parts));
}

const warned = new Set<string>();

/**
 * A `describe` block that needs ../shared (or one entry of it). Without it, the block is reported
 * as one skipped test and `body` is never called; with CNPG_I_REQUIRE_SHARED=1, as one failed test.
 */
export function describeWithShared(title: string, body: () => void, ...parts: string[]): void {
  const where = path.join('..', 'shared', ...parts);
  if (haveShared(...parts)) {
    describe(title, body);
    return;
  }
  if (SHARED_REQUIRED) {
    describe(title, () => {
      test(`needs ${where}`, () => {
        throw new Error(`${where} is required in CI (CNPG_I_REQUIRE_SHARED=1) but is missing beside the repository`);
      });
    });
    return;
  }
  if (!warned.has(where)) {
    warned.add(where);
    console.warn(`skipping '${title}': ${where} not found beside the repository`);
  }
  describe.skip(title, () => {
    test(`needs ${where}`, () => undefined);
  });
}
