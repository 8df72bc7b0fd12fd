/*
 * The one SARIF 2.1.0 writer (https://docs.oasis-open.org/sarif/sarif/v2.1.0/) of the tools that
 * report findings (the doctor, the plan), for GitHub code scanning and other CI tools: one run,
 * a driver with every rule of the tool (so that viewers show what, why and fix), one result per
 * finding located by its object and field path, the invocation, and the run's own figures.
 */
import * as fs from 'fs';
import * as path from 'path';
import { Finding, SuppressedFinding, describeFinding } from './finding';
import type { RuleSpec } from './rule';
import { IGNORE_ANNOTATION } from './suppressions';

const SCHEMA = 'https://json.schemastore.org/sarif-2.1.0.json';
const PACKAGE = 'cdk8s-cnpg-i';

/** A place in a file, as SARIF locates it. */
export interface SarifFileLocation {
  /** The file relative to the working directory, with forward slashes (`artifactUri`). */
  readonly uri: string;
  /** 1-based line. */
  readonly line: number;
  /** 1-based column. */
  readonly column: number;
}

/** The tool a log is about: its name and the rules it runs. */
export interface SarifTool {
  /** `cnpg-i-doctor`, `cnpg-i-doctor plan`. */
  readonly name: string;
  /** Every rule of the tool, in the order of `ruleIndex`. */
  readonly rules: readonly RuleSpec[];
  /**
   * The version of the tool.
   * @default - the version of this package
   */
  readonly version?: string;
}

/** One finding, and where its object is written when that is known. */
export interface SarifFinding {
  readonly finding: Finding | SuppressedFinding;
  /** Where the object's document starts (none for standard input). */
  readonly location?: SarifFileLocation;
}

/** The version and home page of this package, from its package.json (above this file in a checkout, `lib/` and `node_modules`). */
let packageInfo: { readonly version?: string; readonly informationUri?: string } | undefined;

function readPackageInfo(): { readonly version?: string; readonly informationUri?: string } {
  for (let dir = __dirname; ; dir = path.dirname(dir)) {
    const file = path.join(dir, 'package.json');
    if (fs.existsSync(file)) {
      const pkg = JSON.parse(fs.readFileSync(file, 'utf8')) as { name?: unknown; version?: unknown; repository?: { url?: unknown } };
      if (pkg.name === PACKAGE) {
        const repository = typeof pkg.repository?.url === 'string' ? pkg.repository.url.replace(/^git\+/, '').replace(/\.git$/, '') : undefined;
        return { ...(typeof pkg.version === 'string' ? { version: pkg.version } : {}), ...(repository ? { informationUri: repository } : {}) };
      }
    }
    // a bundle without the package around it: SARIF makes both optional
    if (path.dirname(dir) === dir) return {};
  }
}

/** A file as a SARIF artifact URI: relative to `cwd`, with forward slashes. */
export function artifactUri(file: string, cwd: string): string {
  const rel = path.isAbsolute(file) ? path.relative(cwd, file) : path.normalize(file);
  return rel.split(path.sep).join('/');
}

function physicalLocation(location: SarifFileLocation) {
  return {
    physicalLocation: {
      artifactLocation: { uri: location.uri },
      region: { startLine: location.line, startColumn: location.column },
    },
  };
}

function driver(tool: SarifTool) {
  packageInfo ??= readPackageInfo();
  const version = tool.version ?? packageInfo.version;
  return {
    name: tool.name,
    ...(version !== undefined ? { version } : {}),
    ...(packageInfo.informationUri !== undefined ? { informationUri: packageInfo.informationUri } : {}),
    rules: tool.rules.map((r) => ({
      id: r.id,
      name: r.name,
      shortDescription: { text: r.what },
      fullDescription: { text: r.why },
      help: {
        text: `${r.fix}\n\n${r.severities.map((s) => `${s.severity}: ${s.when}`).join('\n')}`,
        markdown: `**Fix**: ${r.fix}\n\n${r.severities.map((s) => `- ${s.severity}: ${s.when}`).join('\n')}`,
      },
      defaultConfiguration: { level: r.severities.some((s) => s.severity === 'error') ? 'error' : 'warning' },
    })),
  };
}

function result({ finding: f, location }: SarifFinding, ruleIndex: ReadonlyMap<string, number>) {
  const suppressedBy = (f as SuppressedFinding).suppressedBy;
  return {
    ruleId: f.ruleId,
    ruleIndex: ruleIndex.get(f.ruleId),
    level: f.severity,
    message: { text: describeFinding(f) },
    locations: [
      {
        ...(location ? physicalLocation(location) : {}),
        logicalLocations: [{ fullyQualifiedName: f.path ? `${f.object}#${f.path}` : f.object, kind: 'object' }],
      },
    ],
    ...(suppressedBy
      ? {
          suppressions: [
            suppressedBy === 'annotation'
              ? { kind: 'inSource', justification: `${IGNORE_ANNOTATION} annotation` }
              : suppressedBy === 'acknowledgement'
                ? { kind: 'external', justification: `acknowledged: ${(f as SuppressedFinding).reason ?? ''}` }
                : { kind: 'external', justification: '--disable' },
          ],
        }
      : {}),
    // the plan's findings: the value before and after the change
    ...('before' in f || 'after' in f ? { properties: { before: f.before ?? null, after: f.after ?? null } } : {}),
  };
}

/** An error of the run itself (input it could not read), not a finding. */
export interface SarifNotification {
  readonly message: string;
  /** Where in which file, when known (none for standard input). */
  readonly location?: SarifFileLocation;
}

/** The invocation: successful, or failed with exit code 2 and one notification per error. */
function invocation(errors: readonly SarifNotification[]) {
  if (errors.length === 0) return { executionSuccessful: true };
  return {
    executionSuccessful: false,
    exitCode: 2,
    toolExecutionNotifications: errors.map((e) => ({
      level: 'error',
      message: { text: e.message },
      ...(e.location ? { locations: [physicalLocation(e.location)] } : {}),
    })),
  };
}

function log(run: object): string {
  return JSON.stringify({ $schema: SCHEMA, version: '2.1.0', runs: [run] }, null, 2) + '\n';
}

/**
 * The SARIF log of one run of `tool`: a result per finding (a suppressed one with its
 * `suppressions`), the invocation (successful, or failed with exit code 2 and a notification per
 * file in `notRead` that the run could not read), and `properties`, the run's own figures (the
 * doctor's operator namespace, the plan's counts).
 */
export function sarifLog(
  tool: SarifTool,
  findings: readonly SarifFinding[],
  properties: Readonly<Record<string, unknown>>,
  notRead: readonly SarifNotification[] = [],
): string {
  const ruleIndex = new Map(tool.rules.map((r, i) => [r.id, i]));
  return log({
    tool: { driver: driver(tool) },
    invocations: [invocation(notRead)],
    results: findings.map((f) => result(f, ruleIndex)),
    properties,
  });
}

/** The SARIF log of a run of `tool` that could not read its input: no results, one error notification, exit code 2. */
export function sarifErrorLog(tool: SarifTool, message: string, location?: SarifFileLocation): string {
  return log({
    tool: { driver: driver(tool) },
    invocations: [invocation([{ message, ...(location ? { location } : {}) }])],
    results: [],
  });
}
