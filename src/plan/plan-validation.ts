import * as fs from 'fs';
import * as path from 'path';
import { ApiObject, App } from 'cdk8s';
import { IConstruct } from 'constructs';
import { invalid } from '../manifests/errors';
import { InputError } from '../manifests/load';
import { Finding, formatFinding } from '../rules/finding';
import { ObjectPlaces, refusalLine, shortRefusalsUnderCdk8sCli, underCdk8sCli } from '../rules/synth-refusal';
import { synthJson } from '../schema/guard';
import { describeAcknowledgement, staleAcknowledgementLine } from './acknowledgements';
import { PLAN_OPTION_KEYS, planChanges, readPlanOptions } from './plan';
import { BaselineRead, PlanBaseline, readBaseline } from './plan-baseline';
import { PlanOptions } from './plan-model';

/** Options of `addPlanValidation`. */
export interface PlanValidationOptions extends PlanOptions {
  /**
   * What the new output is compared with.
   * @default - PlanBaseline.previousOutput(): the output folder as last written, else as
   * committed at git `HEAD` (what `cdk8s synth`, which empties the folder first, leaves)
   */
  readonly baseline?: PlanBaseline;
  /**
   * The folder of the previous output: the same as `baseline: PlanBaseline.previousOutput(previousDir)`
   * (the folder, else the folder as committed at git `HEAD`). Relative to the working directory.
   * Give `baseline` or `previousDir`, not both.
   * @default - the app's `outdir`, as `baseline` says
   */
  readonly previousDir?: string;
  /**
   * Fail the synth on warnings too (renamed plugin Services, moved WAL archives, ignored
   * bootstrap changes), not only on errors.
   * @default false
   */
  readonly failOnWarnings?: boolean;
}

/** The keys of `PlanValidationOptions`. */
const VALIDATION_OPTION_KEYS: readonly string[] = [...PLAN_OPTION_KEYS, 'baseline', 'failOnWarnings', 'previousDir'].sort();

/**
 * One finding as a line of text, as cdk8s prints validation errors: the rule engine's
 * `formatFinding`, which prints the doctor's findings the same way.
 */
export const formatPlanFinding: (finding: Finding) => string = formatFinding;

/** The ApiObjects `scope` synthesizes. */
function apiObjectsOf(scope: IConstruct): ApiObject[] {
  return scope.node.findAll().filter(ApiObject.isApiObject);
}

/**
 * Under `cdk8s synth`, which emptied the output folder before the app ran, writes the baseline
 * read from git back into it, so that a refused synth leaves the working tree as committed
 * instead of one `git add -A` away from a commit that prunes everything. Returns the line that
 * says so, or undefined when the folder was not empty or the baseline is not the folder's.
 */
function restoreBaseline(read: BaselineRead, outdir: string, cwd: string): string | undefined {
  if (!underCdk8sCli() || read.gitFiles === undefined || read.gitFiles.length === 0) return undefined;
  const dir = path.resolve(cwd, outdir);
  if (fs.existsSync(dir) && fs.readdirSync(dir).length > 0) return undefined;
  for (const f of read.gitFiles) {
    const target = path.resolve(cwd, f.file);
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.writeFileSync(target, f.text);
  }
  const shown = path.relative(cwd, dir).split(path.sep).join('/') || '.';
  return `plan: ${shown} holds the baseline again (${read.gitFiles.length} file${read.gitFiles.length === 1 ? '' : 's'} of ${read.description.replace(/ \(.*\)$/, '')}): cdk8s synth had emptied it, and the refused output was not written`;
}

/**
 * Makes `app.synth()` fail, before it writes anything, when the new output would destroy data,
 * be refused by the operator, or (with `failOnWarnings`) break a backup chain or a plugin,
 * compared with the previous output (`baseline`): adds a construct validation to `scope`, which
 * cdk8s runs before writing. Each synth prints on standard error what it compared with, e.g.
 * `plan: compared the new output with git HEAD:dist (2 files)`, or that it found nothing.
 *
 * Under `cdk8s synth`, which empties the output folder before it runs the app, the default
 * baseline is the output as committed at git `HEAD`; for an app run directly, the folder.
 *
 * ```ts
 * addPlanValidation(app); // or { baseline: PlanBaseline.gitRef('origin/main') }
 * app.synth();
 * ```
 */
export function addPlanValidation(scope: IConstruct, options: PlanValidationOptions = {}): void {
  if (!scope || typeof (scope as { node?: unknown }).node !== 'object') {
    invalid('addPlanValidation', 'scope', scope, 'is not a construct', 'pass the cdk8s App or a Chart');
  }
  if (options === null || typeof options !== 'object' || Array.isArray(options)) {
    invalid('addPlanValidation', 'options', options, 'must be an object', "pass {} or { baseline: PlanBaseline.gitRef('HEAD') }");
  }
  // checked now, so that a wrong key or acknowledgement fails where the app calls this
  readPlanOptions('addPlanValidation', options, VALIDATION_OPTION_KEYS);
  const { previousDir, baseline: given, failOnWarnings, ...planOptions } = options;
  if (failOnWarnings !== undefined && typeof failOnWarnings !== 'boolean') {
    invalid('addPlanValidation', 'options.failOnWarnings', failOnWarnings, 'must be true or false', 'pass failOnWarnings: true, or leave it out');
  }
  if (previousDir !== undefined && (typeof previousDir !== 'string' || previousDir === '')) {
    invalid(
      'addPlanValidation',
      'options.previousDir',
      previousDir,
      'must name the folder of the previous output',
      "pass { previousDir: 'dist' }, or leave it out",
    );
  }
  if (given !== undefined && !(given instanceof PlanBaseline)) {
    invalid('addPlanValidation', 'options.baseline', given, 'is not a PlanBaseline', `use ${PlanBaseline._factories}`);
  }
  if (given !== undefined && previousDir !== undefined) {
    invalid(
      'addPlanValidation',
      'options.previousDir',
      previousDir,
      'is given together with baseline',
      `keep one: baseline: PlanBaseline.previousOutput('${previousDir}') is what previousDir means`,
    );
  }
  const baseline = given ?? PlanBaseline.previousOutput(previousDir);
  // cdk8s validates the whole app once in App.synth and again for each chart it renders
  // (cdk8s 2.70.106 App._synthChart): one plan per synth, forgotten when the synchronous synth
  // is over, so that a later synth reads the baseline afresh.
  let planned: string[] | undefined;
  const plan = (): string[] => {
    let read;
    try {
      read = readBaseline(baseline, App.of(scope).outdir, process.cwd());
    } catch (e) {
      if (e instanceof InputError) return [`plan: ${e.message}`];
      throw e;
    }
    process.stderr.write(read.found ? `plan: compared the new output with ${read.description}\n` : `plan: compared with ${read.description}\n`);
    const apiObjects = apiObjectsOf(scope);
    // the rendering of this synth that the schema guard checks and the synth writes, read
    // without rendering each object a second time (planChanges only reads it)
    const report = planChanges(
      read.objects,
      apiObjects.map((o) => synthJson(o)),
      planOptions,
    );
    const places = new ObjectPlaces(apiObjects, read.sources, read.objects);
    for (const f of report.acknowledged) {
      process.stderr.write(
        `plan: acknowledged ${describeAcknowledgement({ rule: f.ruleId, object: f.object, reason: f.reason })} (${f.reason}): ${formatFinding(f)}\n`,
      );
    }
    const stale = report.staleAcknowledgements.map((a) => `plan: warning: ${staleAcknowledgementLine(a)}`);
    if (failOnWarnings !== true) {
      // what does not fail the synth is still said: a warning (a reclaim policy switched to
      // delete, a moved archive) is the one moment review can see it
      for (const f of report.findings) if (f.severity !== 'error') process.stderr.write(`plan: ${formatFinding(f)}\n`);
      for (const line of stale) process.stderr.write(`${line}\n`);
    }
    const refusal = [
      ...report.findings.filter((f) => f.severity === 'error' || failOnWarnings === true).map((f) => refusalLine(formatFinding(f), places.of(f))),
      ...(failOnWarnings === true ? stale : []),
    ];
    if (refusal.length === 0) return refusal;
    const restored = restoreBaseline(read, App.of(scope).outdir, process.cwd());
    return restored === undefined ? refusal : [...refusal, restored];
  };
  shortRefusalsUnderCdk8sCli(scope);
  scope.node.addValidation({
    validate: () => {
      if (planned === undefined) {
        planned = plan();
        queueMicrotask(() => {
          planned = undefined;
        });
      }
      return planned;
    },
  });
}
