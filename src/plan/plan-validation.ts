import * as fs from 'fs';
import * as path from 'path';
import { ApiObject } from 'cdk8s';
import { IConstruct } from 'constructs';
import { invalid } from '../manifests/errors';
import { InputError, collectFiles, parseManifestText } from '../manifests/load';
import { Finding, formatFinding } from '../rules/finding';
import { planChanges } from './plan';
import { PlanOptions } from './plan-model';

/** Options of `addPlanValidation`. */
export interface PlanValidationOptions extends PlanOptions {
  /**
   * The folder of the previous synth output, compared with what the app is about to write
   * (normally the app's `outdir`, the `dist/` committed in the GitOps repository). Relative to
   * the working directory. A folder that does not exist means a first synth: nothing to compare.
   */
  readonly previousDir: string;
  /**
   * Fail the synth on warnings too (renamed plugin Services, moved WAL archives, ignored
   * bootstrap changes), not only on errors.
   * @default false
   */
  readonly failOnWarnings?: boolean;
}

/**
 * One finding as a line of text, as cdk8s prints validation errors: the rule engine's
 * `formatFinding`, which prints the doctor's findings the same way.
 */
export const formatPlanFinding: (finding: Finding) => string = formatFinding;

/** The objects of every manifest file under `dir`, or undefined when it does not exist. */
function readPrevious(dir: string): unknown[] | undefined {
  const full = path.resolve(dir);
  if (!fs.existsSync(full)) return undefined;
  let files: string[];
  try {
    files = collectFiles([full], process.cwd());
  } catch (e) {
    // An empty output folder is a first synth too.
    if (e instanceof InputError && e.reason === 'no-manifests') return undefined;
    throw e;
  }
  const out: unknown[] = [];
  for (const file of files) {
    out.push(...parseManifestText(fs.readFileSync(file, 'utf8'), path.relative(process.cwd(), file) || file).map((d) => d.value));
  }
  return out;
}

/** The objects `scope` synthesizes, rendered as cdk8s writes them. */
function synthesizedObjects(scope: IConstruct): unknown[] {
  return scope.node
    .findAll()
    .filter(ApiObject.isApiObject)
    .map((o) => o.toJson());
}

/**
 * Makes `app.synth()` fail, before it writes anything, when the new output would destroy data,
 * be refused by the operator, or (with `failOnWarnings`) break a backup chain or a plugin
 * compared with the output in `previousDir`: adds a construct validation to `scope`, which
 * cdk8s runs before writing.
 *
 * ```ts
 * addPlanValidation(app, { previousDir: 'dist' });
 * app.synth();
 * ```
 */
export function addPlanValidation(scope: IConstruct, options: PlanValidationOptions): void {
  if (!scope || typeof (scope as { node?: unknown }).node !== 'object') {
    invalid('addPlanValidation', 'scope', scope, 'is not a construct', 'pass the cdk8s App or a Chart');
  }
  if (options === null || typeof options !== 'object' || typeof options.previousDir !== 'string' || options.previousDir === '') {
    invalid('addPlanValidation', 'options.previousDir', options?.previousDir, 'must name the folder of the previous output', "pass { previousDir: 'dist' }");
  }
  const { previousDir, failOnWarnings, ...planOptions } = options;
  scope.node.addValidation({
    validate: () => {
      const previous = readPrevious(previousDir);
      if (previous === undefined) return [];
      return planChanges(previous, synthesizedObjects(scope), planOptions)
        .findings.filter((f) => f.severity === 'error' || failOnWarnings === true)
        .map(formatFinding);
    },
  });
}
