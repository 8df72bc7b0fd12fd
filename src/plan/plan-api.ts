import { IConstruct } from 'constructs';
import type { Finding } from '../rules/finding';
import type { RuleSpec } from '../rules/rule';
import type * as PlanModule from './plan';
import type * as PlanFormat from './plan-format';
import type { PlanOptions, PlanReport } from './plan-model';
import type * as PlanValidation from './plan-validation';
import type { PlanValidationOptions } from './plan-validation';

// The plan's rules, formats and synth validation load on first use (the library's load time,
// src/lazy-api.ts): this module is all that `Plan` needs at import.
const plan = (): typeof PlanModule => require('./plan');
const format = (): typeof PlanFormat => require('./plan-format');
const validation = (): typeof PlanValidation => require('./plan-validation');

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
  // (jsii makes a constant of a static readonly with an initializer; the getter defined after the
  // class replaces this placeholder before anything can read it)
  public static readonly PLAN_RULES: RuleSpec[] = [];

  /**
   * `planChanges(previous, next, options)`: what applying `next` over `previous` would do. (A
   * read-only array goes to the free function `planChanges`: jsii has no read-only array type.)
   */
  public static planChanges(previous: unknown[], next: unknown[], options?: PlanOptions): PlanReport {
    return plan().planChanges(previous, next, options);
  }

  /** `formatPlanText(report)`: the human report, findings grouped by object. */
  public static formatPlanText(report: PlanReport): string {
    return format().formatPlanText(report);
  }

  /** `formatPlanJson(report)`: the machine report. */
  public static formatPlanJson(report: PlanReport): string {
    return format().formatPlanJson(report);
  }

  /** `formatPlanSarif(report, toolVersion)`: a SARIF 2.1.0 log of the report. */
  public static formatPlanSarif(report: PlanReport, toolVersion?: string): string {
    return format().formatPlanSarif(report, toolVersion);
  }

  /** `formatPlanFinding(finding)`: one line, as cdk8s prints validation errors. */
  public static formatPlanFinding(finding: Finding): string {
    return validation().formatPlanFinding(finding);
  }

  /**
   * `addPlanValidation(scope, options)`: `app.synth()` fails, before it writes anything, on the
   * plan's errors against the output in `options.previousDir`.
   */
  public static addPlanValidation(scope: IConstruct, options: PlanValidationOptions): void {
    validation().addPlanValidation(scope, options);
  }

  private constructor() {}
}

// Plan.PLAN_RULES reads the plan's rules when it is first read.
Object.defineProperty(Plan, 'PLAN_RULES', { enumerable: true, get: () => plan().PLAN_RULES });
