/*
 * The starter app (examples/platform) ported to Python, Java and Go, run on bindings built from
 * this checkout (scripts/bindings-apps.mjs), against the TypeScript app: the same YAML byte for
 * byte, the same line from the plan, and the same refusal for one bad prop per construct family
 * (test/bindings/refusals). The first run builds the bindings and fetches the packages from PyPI,
 * Maven Central and the Go module proxy; later runs reuse the cache (see the script).
 *
 * A language whose toolchain this machine lacks is skipped with one line; in CI (CI=true, or a
 * run that asks for ../shared) it fails instead: .ci/run installs them.
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';

const ROOT = path.join(__dirname, '..', '..');
const SCRIPT = path.join(ROOT, 'scripts', 'bindings-apps.mjs');
const REQUIRED = process.env.CI === 'true' || process.env.CNPG_I_REQUIRE_SHARED === '1';
const LANGUAGES = ['python', 'java', 'go'] as const;
type Language = (typeof LANGUAGES)[number];

interface LanguageRun {
  readonly skipped?: string;
  readonly ok?: boolean;
  readonly error?: string;
  readonly files?: string[];
  readonly refusals?: number;
  readonly differences?: string[];
  readonly buildSeconds?: number;
  readonly runSeconds?: number;
}
interface Report {
  readonly typescript: { files: string[]; plan: string[]; refusals: Record<string, string> };
  readonly languages: Partial<Record<Language, LanguageRun>>;
}

function script(args: string[], timeout: number) {
  return spawnSync(process.execPath, [SCRIPT, ...args], { cwd: ROOT, encoding: 'utf8', timeout, maxBuffer: 64 * 1024 * 1024 });
}

/** Which languages this machine can run (null) and why not the others; a quick look for tools only. */
const toolchains = JSON.parse(script(['--toolchains'], 60_000).stdout) as Record<Language, string | null>;
const runnable = LANGUAGES.filter((l) => toolchains[l] === null);

describe('the starter app in Python, Java and Go', () => {
  let report: Report | undefined;
  let failure = '';

  beforeAll(() => {
    if (runnable.length === 0) return;
    const r = script(['--languages', runnable.join(',')], 1_700_000);
    try {
      report = JSON.parse(r.stdout) as Report;
    } catch {
      failure = `scripts/bindings-apps.mjs exited ${r.status}${r.signal ? ` (${r.signal})` : ''}:\n${r.stderr}`;
    }
  }, 1_800_000);

  /** The run of `language`, failing with the script's own error when it has none. */
  function runOf(language: Language): LanguageRun {
    if (!report) throw new Error(failure);
    const got = report.languages[language];
    if (!got) throw new Error(`scripts/bindings-apps.mjs reported nothing for ${language}`);
    if (got.error) throw new Error(`${language}: ${got.error}`);
    return got;
  }

  const tsTest = runnable.length > 0 ? test : test.skip;
  tsTest('the TypeScript app writes both charts, each refusal case is refused with its construct path or call, and the rule lists read', () => {
    if (!report) throw new Error(failure);
    expect(report.typescript.files).toEqual(['cnpg-system.k8s.yaml', 'databases.k8s.yaml']);
    expect(report.typescript.plan).toHaveLength(1);
    const refusals = report.typescript.refusals;
    expect(Object.keys(refusals)).toEqual(['plugin', 'cluster', 'cluster-synth', 'backup', 'recovery', 'object-store', 'preset', 'plan', 'rules']);
    // each case is refused where it should be: a construct path, or the call that refused it
    expect(refusals.plugin).toMatch(/^refusals\/mine: pluginName 'Not_A_Name' /);
    expect(refusals.cluster).toMatch(/\[refusals\/pg\] .*spec\.instances/);
    expect(refusals['cluster-synth']).toMatch(/\[refusals\/pg\] plugins\[barman-cloud\.cloudnative-pg\.io\]\.parameters\.barmanObjectName is missing/);
    expect(refusals.backup).toMatch(/^BackupSchedule\.daily: hour 24 /);
    expect(refusals.recovery).toMatch(/^RecoveryTarget\.lsn: lsn 'not-an-lsn' /);
    expect(refusals['object-store']).toMatch(/\[refusals\/store\] destinationPath 'example-backups\/databases' /);
    expect(refusals.preset).toMatch(/^HelloWorldPlugin\.parameters: parameters\.labels 'not a key!' /);
    expect(refusals.plan).toMatch(/^addPlanValidation: options\.previousDir '' /);
    // not a refusal: the rule lists, read through the static members other languages use
    expect(refusals.rules).toMatch(/^\d+ doctor rules, the first CNPGI\d{3}; \d+ plan rules, the last (error|warning)$/);
  });

  for (const language of LANGUAGES) {
    const missing = toolchains[language];
    if (missing !== null) {
      if (REQUIRED) {
        test(`${language}: needs its toolchain`, () => {
          throw new Error(`${language} is required in CI (CI=true): ${missing}`);
        });
      } else {
        console.warn(`skipping the ${language} app: ${missing}`);
        describe.skip(language, () => test('needs its toolchain', () => undefined));
      }
      continue;
    }
    describe(language, () => {
      test("writes the TypeScript app's YAML, byte for byte, and the plan's line", () => {
        const got = runOf(language);
        expect(got.files).toEqual(report!.typescript.files);
        expect((got.differences ?? []).filter((d) => !d.startsWith('refusal '))).toEqual([]);
      });

      test("refuses each bad prop with TypeScript's message", () => {
        const got = runOf(language);
        expect((got.differences ?? []).filter((d) => d.startsWith('refusal '))).toEqual([]);
        expect(got.refusals).toBe(Object.keys(report!.typescript.refusals).length);
      });
    });
  }
});

test('the guide shows the ports as the test runs them: each block is a part of its file', () => {
  const guide = fs.readFileSync(path.join(ROOT, 'docs', 'guides', 'other-languages.md'), 'utf8');
  const blocks = [...guide.matchAll(/<!-- bindings-app: (\S+) -->\n```[a-z]+\n([\s\S]*?)```/g)];
  expect(blocks.map((b) => b[1])).toEqual([
    'examples/platform-python/cnpg_platform.py',
    'examples/platform-java/src/main/java/com/example/platform/Platform.java',
    'examples/platform-go/platform.go',
  ]);
  for (const [, file, code] of blocks) {
    expect({ file, found: fs.readFileSync(path.join(ROOT, file), 'utf8').includes(code) }).toEqual({ file, found: true });
  }
});
