import { ApiObject } from 'cdk8s';
import { IConstruct } from 'constructs';
import { invalid } from '../manifests/errors';
import { refuseUnknownKeys } from '../manifests/option-keys';
import { Finding, formatFinding } from '../rules/finding';
import type { RuleSpec } from '../rules/rule';
import { ObjectPlaces, refusalLine, shortRefusalsUnderCdk8sCli } from '../rules/synth-refusal';
import { currentSynthCall, synthJson } from '../schema/guard';
import { DOCTOR_OPTION_KEYS, analyzeManifests, checkManifests } from './check-manifests';
import { DOCTOR_RULES } from './registry';
import { DoctorOptions, DoctorReport } from './report';

/**
 * Options of the doctor when it runs inside a cdk8s app.
 */
export interface DoctorValidationOptions extends DoctorOptions {
  /**
   * Fail the synth on warnings too, not only on errors.
   * @default false
   */
  readonly failOnWarnings?: boolean;
  /**
   * Where warnings go when they do not fail the synth: one line each (each printed once),
   * prefixed `cnpg-i-doctor warning`. Pass `() => {}` to silence them.
   *
   * TypeScript and JavaScript only: jsii carries no function-typed props, so in Python, Java, Go
   * and .NET warnings go to standard error (or fail the synth with `failOnWarnings`).
   * @default - standard error
   * @jsii ignore
   */
  readonly printWarning?: (line: string) => void;
}

export { formatFinding };

/**
 * The doctor, as one class: its functions and constants are also static members here (the
 * plain exports stay), so that languages without free functions or constants (jsii: Python,
 * Java, Go, .NET) reach all of it; plus the runs over a cdk8s app.
 */
export class Doctor {
  /**
   * Every rule of the doctor, sorted by id: the same (frozen) array as `DOCTOR_RULES`, typed as
   * a plain array because jsii has no read-only arrays.
   */
  public static readonly DOCTOR_RULES: RuleSpec[] = DOCTOR_RULES as RuleSpec[];

  /**
   * `checkManifests(objects, options)`: the findings on plain manifest objects. (A read-only
   * array goes to the free function `checkManifests`: jsii has no read-only array type.)
   */
  public static checkManifests(objects: unknown[], options?: DoctorOptions): Finding[] {
    return checkManifests(objects, options);
  }

  /** `analyzeManifests(objects, options)`: the whole report on plain manifest objects. */
  public static analyzeManifests(objects: unknown[], options?: DoctorOptions): DoctorReport {
    return analyzeManifests(objects, options);
  }

  /** `formatFinding(finding)`: one line, as cdk8s prints validation errors. */
  public static formatFinding(finding: Finding): string {
    return formatFinding(finding);
  }

  /**
   * Checks every `ApiObject` under `scope` (its `toJson()`, so late additions count) and returns
   * the report. Sidecar plugins built with `SidecarPlugin` are known by name from the
   * `cnpg-i.dev/sidecar-plugins` annotation they write on the operator Deployment, as in the YAML.
   */
  public static analyze(scope: IConstruct, options: DoctorOptions = {}): DoctorReport {
    if (!scope || typeof (scope as { node?: unknown }).node !== 'object') {
      invalid('Doctor', 'scope', scope, 'is not a construct', 'pass the cdk8s App or a Chart');
    }
    const objects: unknown[] = [];
    // inside an App.synth() call, the one rendering of the call that the schema guard checks
    // and the synth writes (the doctor only reads it); a fresh toJson() otherwise
    for (const c of scope.node.findAll()) if (ApiObject.isApiObject(c)) objects.push(synthJson(c));
    return analyzeManifests(objects, options);
  }

  /** Like `analyze`, returning the findings only. */
  public static validateApp(scope: IConstruct, options: DoctorOptions = {}): Finding[] {
    return Doctor.analyze(scope, options).findings;
  }

  /**
   * Makes `app.synth()` (and `Testing.synth`) fail on the doctor's errors: adds a construct
   * validation to `scope` that returns one message per error finding (and per warning with
   * `failOnWarnings`). cdk8s runs `node.validate()` of every construct before writing anything.
   * Warnings that do not fail the synth are printed (to standard error unless `printWarning`).
   */
  public static addValidation(scope: IConstruct, options: DoctorValidationOptions = {}): void {
    if (!scope || typeof (scope as { node?: unknown }).node !== 'object') {
      invalid('Doctor.addValidation', 'scope', scope, 'is not a construct', 'pass the cdk8s App or a Chart');
    }
    refuseUnknownKeys('Doctor.addValidation', 'options', options ?? {}, [...DOCTOR_OPTION_KEYS, 'failOnWarnings', 'printWarning'].sort());
    const { failOnWarnings, printWarning, ...doctorOptions } = options ?? {};
    if (printWarning !== undefined && typeof printWarning !== 'function') {
      invalid(
        'Doctor.addValidation',
        'options.printWarning',
        printWarning,
        'is not a function',
        'pass (line) => ..., or leave it out to print to standard error',
      );
    }
    const print = printWarning ?? ((line: string) => process.stderr.write(`${line}\n`));
    // cdk8s may validate the same tree more than once per synth: each warning is printed once
    const printed = new Set<string>();
    shortRefusalsUnderCdk8sCli(scope);
    // cdk8s validates the app once in App.synth and again before each chart it renders (cdk8s
    // 2.70.106 App._synthChart): within one synth call (see currentSynthCall) nothing but cdk8s
    // runs between them, so the app is analyzed once per call and the findings reused
    let analyzed: { readonly call: object; readonly findings: Finding[] } | undefined;
    scope.node.addValidation({
      validate: () => {
        const call = currentSynthCall(scope.node.root);
        const findings = call !== undefined && analyzed?.call === call ? analyzed.findings : Doctor.validateApp(scope, doctorOptions);
        analyzed = call === undefined ? undefined : { call, findings };
        if (failOnWarnings !== true) {
          for (const f of findings) {
            const line = `cnpg-i-doctor warning ${formatFinding(f)}`;
            if (f.severity !== 'warning' || printed.has(line)) continue;
            printed.add(line);
            print(line);
          }
        }
        const refused = findings.filter((f) => f.severity === 'error' || failOnWarnings === true);
        if (refused.length === 0) return [];
        const places = new ObjectPlaces(scope.node.findAll().filter(ApiObject.isApiObject));
        return refused.map((f) => refusalLine(formatFinding(f), places.of(f)));
      },
    });
  }

  private constructor() {}
}
