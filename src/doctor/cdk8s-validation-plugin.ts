/*
 * The doctor as a cdk8s-cli validation plugin (`validations:` in cdk8s.yaml). The cdk8s-cli
 * types are restated structurally so that nothing here loads cdk8s-cli at run time.
 */
import { invalid } from '../manifests/errors';
import { refuseUnknownKeys } from '../manifests/option-keys';
import type { Finding } from '../rules/finding';
import { DOCTOR_OPTION_KEYS, analyzeManifests } from './check-manifests';
import { DoctorOptions } from './report';

/**
 * A resource in violation, as cdk8s-cli's `ValidationViolatingResource`.
 * @jsii ignore (cdk8s-cli loads validation plugins in Node.js only)
 */
export interface DoctorViolatingResource {
  readonly resourceName: string;
  readonly locations: readonly string[];
  readonly manifestPath: string;
}

/**
 * A violation, as cdk8s-cli's `ValidationViolation`.
 * @jsii ignore (cdk8s-cli loads validation plugins in Node.js only)
 */
export interface DoctorViolation {
  readonly ruleName: string;
  readonly recommendation: string;
  readonly fix: string;
  readonly violatingResources: readonly DoctorViolatingResource[];
}

/**
 * The part of cdk8s-cli's `ValidationContext` the plugin uses.
 * @jsii ignore (cdk8s-cli loads validation plugins in Node.js only)
 */
export interface DoctorValidationContext {
  /** Paths of the synthesized manifests. */
  readonly manifests: readonly string[];
  /** Parses one manifest file into its documents. */
  parseManifest(manifestPath: string): unknown[];
  /** The report to fill and submit. */
  readonly report: {
    addViolation(violation: DoctorViolation): void;
    submit(status: 'success' | 'failure', metadata?: { readonly [key: string]: string }): void;
  };
  /** Logger (optional). */
  readonly logger?: { log(message: string): void };
}

/**
 * Properties of the plugin, given as `properties:` of its `validations:` entry in cdk8s.yaml.
 * @jsii ignore (cdk8s-cli loads validation plugins in Node.js only)
 */
export interface DoctorValidationPluginProps extends DoctorOptions {
  /**
   * Fail on warnings too, not only on errors.
   * @default false
   */
  readonly failOnWarnings?: boolean;
}

/** Files cdk8s writes beside the manifests that are not manifests. */
const CDK8S_METADATA_FILES: ReadonlySet<string> = new Set(['construct-metadata.json']);

/**
 * The cdk8s-cli validation plugin: runs the doctor over every manifest `cdk8s synth` wrote and
 * reports each finding as a violation (errors fail the synth; warnings are listed, and fail it
 * only with `failOnWarnings`).
 *
 * In cdk8s.yaml:
 * ```yaml
 * validations:
 *   - package: ./bin/cnpg-i-doctor.js   # or the npm package name and its exact version
 *     version: 0.1.0
 *     class: DoctorValidationPlugin
 *     properties:
 *       knownPlugins: []
 * ```
 *
 * Not part of the Python, Java, Go and .NET bindings: cdk8s-cli loads validation plugins from
 * npm packages in Node.js, whatever language the app is written in.
 * @jsii ignore
 */
export class DoctorValidationPlugin {
  private readonly options: DoctorOptions;
  private readonly failOnWarnings: boolean;

  constructor(props: DoctorValidationPluginProps = {}) {
    if (props !== undefined && props !== null && (typeof props !== 'object' || Array.isArray(props))) {
      invalid(
        'DoctorValidationPlugin',
        'properties',
        props,
        'must be an object',
        'write properties: { operatorNamespace, cnpgVersion, knownPlugins, defaultNamespace, failOnWarnings }',
      );
    }
    refuseUnknownKeys('DoctorValidationPlugin', 'properties', props ?? {}, [...DOCTOR_OPTION_KEYS, 'failOnWarnings'].sort());
    const { failOnWarnings, ...options } = props ?? {};
    if (failOnWarnings !== undefined && typeof failOnWarnings !== 'boolean') {
      invalid('DoctorValidationPlugin', 'properties.failOnWarnings', failOnWarnings, 'must be a boolean', 'write true or false');
    }
    analyzeManifests([], options); // bad options throw here, when cdk8s-cli loads the plugin
    this.options = options;
    this.failOnWarnings = failOnWarnings === true;
  }

  /** Runs the doctor over `context.manifests` and submits the report. */
  public async validate(context: DoctorValidationContext): Promise<void> {
    const objects: unknown[] = [];
    const origin: string[] = [];
    for (const manifest of context.manifests) {
      // cdk8s writes construct-metadata.json beside the manifests; it is not one
      if (CDK8S_METADATA_FILES.has(manifest.split(/[\\/]/).pop() ?? '')) continue;
      for (const doc of context.parseManifest(manifest)) {
        objects.push(doc);
        origin.push(manifest);
      }
    }
    const report = analyzeManifests(objects, this.options);
    for (const f of report.findings) context.report.addViolation(toViolation(f, objects, origin));
    const errors = report.findings.filter((f) => f.severity === 'error').length;
    const warnings = report.findings.length - errors;
    const failed = errors > 0 || (this.failOnWarnings && warnings > 0);
    context.report.submit(failed ? 'failure' : 'success', {
      errors: String(errors),
      warnings: String(warnings),
      suppressed: String(report.suppressed.length),
      operatorNamespace: report.operatorNamespace,
      cnpgVersion: report.cnpgVersion,
      plugins: report.plugins.map((p) => p.name).join(', ') || 'none',
    });
  }
}

function toViolation(f: Finding, objects: unknown[], origin: string[]): DoctorViolation {
  const raw = f.index !== undefined ? (objects[f.index] as { metadata?: { name?: unknown } } | undefined) : undefined;
  const name = typeof raw?.metadata?.name === 'string' ? raw.metadata.name : f.object;
  return {
    ruleName: `${f.ruleId} ${f.ruleName} (${f.severity})`,
    recommendation: `${f.object}: ${f.message}`,
    fix: f.fix,
    violatingResources: [
      {
        resourceName: name,
        locations: f.path ? [f.path] : [],
        manifestPath: f.index !== undefined ? (origin[f.index] ?? '') : '',
      },
    ],
  };
}
