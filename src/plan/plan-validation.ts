import { ApiObject, App } from 'cdk8s';
import { IConstruct } from 'constructs';
import { invalid } from '../manifests/errors';
import { InputError } from '../manifests/load';
import { Finding, formatFinding } from '../rules/finding';
import { describeAcknowledgement, staleAcknowledgementLine } from './acknowledgements';
import { PLAN_OPTION_KEYS, planChanges, readPlanOptions } from './plan';
import { PlanBaseline, readBaseline } from './plan-baseline';
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

/** The objects `scope` synthesizes, rendered as cdk8s writes them. */
function synthesizedObjects(scope: IConstruct): unknown[] {
  return scope.node
    .findAll()
    .filter(ApiObject.isApiObject)
    .map((o) => o.toJson());
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
    const report = planChanges(read.objects, synthesizedObjects(scope), planOptions);
    for (const f of report.acknowledged) {
      process.stderr.write(
        `plan: acknowledged ${describeAcknowledgement({ rule: f.ruleId, object: f.object, reason: f.reason })} (${f.reason}): ${formatFinding(f)}\n`,
      );
    }
    const stale = report.staleAcknowledgements.map((a) => `plan: warning: ${staleAcknowledgementLine(a)}`);
    if (failOnWarnings !== true) for (const line of stale) process.stderr.write(`${line}\n`);
    return [...report.findings.filter((f) => f.severity === 'error' || failOnWarnings === true).map(formatFinding), ...(failOnWarnings === true ? stale : [])];
  };
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
