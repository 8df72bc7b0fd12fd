import { IConstruct } from 'constructs';
import type { Finding } from '../rules/finding';
import type { RuleSpec } from '../rules/rule';
import { PLAN_RULES, planChanges } from './plan';
import { formatPlanJson, formatPlanSarif, formatPlanText } from './plan-format';
import type { PlanOptions, PlanReport } from './plan-model';
import { PlanValidationOptions, addPlanValidation, formatPlanFinding } from './plan-validation';

/**
 * The plan (`cnpg-i-doctor plan`) as one class: its functions and its rule list as static
 * members, for languages without free functions or constants (jsii: Python, Java, Go, .NET).
 * TypeScript and JavaScript may use either form; both are the same code.
 */
export class Plan {
  /**
   * Every rule of the plan, sorted by id: the same (frozen) array as `PLAN_RULES`, typed as a
   * plain array because jsii has no read-only arrays.
   */
  public static readonly PLAN_RULES: RuleSpec[] = PLAN_RULES as RuleSpec[];

  /**
   * `planChanges(previous, next, options)`: what applying `next` over `previous` would do. (A
   * read-only array goes to the free function `planChanges`: jsii has no read-only array type.)
   */
  public static planChanges(previous: unknown[], next: unknown[], options?: PlanOptions): PlanReport {
    return planChanges(previous, next, options);
  }

  /** `formatPlanText(report)`: the human report, findings grouped by object. */
  public static formatPlanText(report: PlanReport): string {
    return formatPlanText(report);
  }

  /** `formatPlanJson(report)`: the machine report. */
  public static formatPlanJson(report: PlanReport): string {
    return formatPlanJson(report);
  }

  /** `formatPlanSarif(report, toolVersion)`: a SARIF 2.1.0 log of the report. */
  public static formatPlanSarif(report: PlanReport, toolVersion?: string): string {
    return formatPlanSarif(report, toolVersion);
  }

  /** `formatPlanFinding(finding)`: one line, as cdk8s prints validation errors. */
  public static formatPlanFinding(finding: Finding): string {
    return formatPlanFinding(finding);
  }

  /**
   * `addPlanValidation(scope, options)`: `app.synth()` fails, before it writes anything, on the
   * plan's errors against the previous output (`options.baseline`: by default the output folder,
   * else the output as committed at git `HEAD`).
   */
  public static addPlanValidation(scope: IConstruct, options?: PlanValidationOptions): void {
    addPlanValidation(scope, options);
  }

  private constructor() {}
}
