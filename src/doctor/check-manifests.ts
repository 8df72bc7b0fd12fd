import { DEFAULT_CNPG_VERSION, parseVersion } from '../checks/cnpg-version';
import { invalid } from '../manifests/errors';
import { variableFinderFor, withoutSopsMetadata } from '../manifests/flux-variables';
import { refuseUnknownKeys } from '../manifests/option-keys';
import type { UnappliedPatch } from '../manifests/unapplied-patches';
import { recordingReads, touchesUnrendered, trackUnrendered, unrenderedFields } from '../manifests/unrendered';
import type { Finding } from '../rules/finding';
import { validateRuleIds } from '../rules/suppressions';
import { buildModel } from './model/doctor-model';
import { DOCTOR_REGISTRY } from './registry';
import { DoctorOptions, DoctorReport } from './report';
import { rule as unrenderedRule } from './rules/input/cnpgi092-unrendered-variable';

const UNRENDERED_RULE = unrenderedRule.id;

/**
 * What the live doctor (`cnpg-i-doctor cluster`) adds: the objects are a running cluster's, read
 * at `now`. The live rules (CNPGI4xx) run only then.
 * @internal
 */
export interface LiveState {
  /** When the objects were read, for certificate validity. */
  readonly now: Date;
  /** The kinds that could not be listed (forbidden, not served): the rules do not judge them missing. */
  readonly unread: ReadonlySet<string>;
}

/** How option names are shown in errors: the API's words by default, the CLI's from the CLI. */
export type OptionNames = Readonly<
  Record<
    | 'scope'
    | 'options'
    | 'operatorNamespace'
    | 'defaultNamespace'
    | 'cnpgVersion'
    | 'knownPlugins'
    | 'disable'
    | 'sidecarPlugins'
    | 'verbose'
    | 'clusterResourceNamespace'
    | 'complete',
    string
  >
>;

/** The API's words: `options.cnpgVersion`. */
export const API_OPTION_NAMES: OptionNames = {
  scope: 'checkManifests',
  options: 'options',
  operatorNamespace: 'options.operatorNamespace',
  defaultNamespace: 'options.defaultNamespace',
  cnpgVersion: 'options.cnpgVersion',
  knownPlugins: 'options.knownPlugins',
  disable: 'options.disable',
  sidecarPlugins: 'options.sidecarPlugins',
  verbose: 'options.verbose',
  clusterResourceNamespace: 'options.clusterResourceNamespace',
  complete: 'options.complete',
};

/** `options.knownPlugins[1]` for the API; `--known-plugin` (repeatable) for the CLI. */
function item(name: string, i: number | string): string {
  if (name.startsWith('--')) return name;
  return typeof i === 'number' ? `${name}[${i}]` : `${name}.${i}`;
}

const DOCTOR_OPTION_KEY_SET: { readonly [K in keyof Required<DoctorOptions>]: true } = {
  clusterResourceNamespace: true,
  cnpgVersion: true,
  complete: true,
  defaultNamespace: true,
  disable: true,
  knownPlugins: true,
  operatorNamespace: true,
  sidecarPlugins: true,
  verbose: true,
};

/** The keys of `DoctorOptions` (the compiler keeps the list complete). @internal */
export const DOCTOR_OPTION_KEYS: readonly string[] = Object.keys(DOCTOR_OPTION_KEY_SET).sort();

function readOptions(options: unknown, names: OptionNames) {
  const scope = names.scope;
  const optionalString = (prop: string, value: unknown, fix: string): string | undefined => {
    if (value === undefined || value === null) return undefined;
    if (typeof value !== 'string' || value.trim() === '') invalid(scope, prop, value, 'must be a non-empty string', fix);
    return value;
  };
  if (options !== undefined && options !== null && (typeof options !== 'object' || Array.isArray(options))) {
    invalid(
      scope,
      names.options,
      options,
      'must be an object',
      'pass { operatorNamespace?, cnpgVersion?, knownPlugins?, defaultNamespace?, disable?, sidecarPlugins?, verbose?, clusterResourceNamespace? }',
    );
  }
  refuseUnknownKeys(scope, names.options, options ?? {}, DOCTOR_OPTION_KEYS);
  const o = (options ?? {}) as Record<string, unknown>;
  const operatorNamespace = optionalString(names.operatorNamespace, o.operatorNamespace, "pass the operator's namespace, e.g. 'cnpg-system'");
  const defaultNamespace = optionalString(names.defaultNamespace, o.defaultNamespace, "pass a namespace, e.g. 'cnpg-system'");
  const clusterResourceNamespace = optionalString(
    names.clusterResourceNamespace,
    o.clusterResourceNamespace,
    "pass the namespace cert-manager's controller reads ClusterIssuer Secrets from, e.g. 'cert-manager'",
  );
  const versionString = optionalString(names.cnpgVersion, o.cnpgVersion, "pass a version such as '1.27.1'") ?? DEFAULT_CNPG_VERSION;
  const version = parseVersion(versionString);
  if (!version) invalid(scope, names.cnpgVersion, versionString, 'is not a version', "use MAJOR.MINOR.PATCH, e.g. '1.27.1'");
  let knownPlugins: string[] = [];
  if (o.knownPlugins !== undefined && o.knownPlugins !== null) {
    if (!Array.isArray(o.knownPlugins)) invalid(scope, names.knownPlugins, o.knownPlugins, 'must be an array of plugin names', "pass ['backup.example.com']");
    knownPlugins = (o.knownPlugins as unknown[]).map((p, i) => optionalString(item(names.knownPlugins, i), p, 'pass the plugin name as a string') ?? '');
  }
  let disable: string[] = [];
  if (o.disable !== undefined && o.disable !== null) {
    if (!Array.isArray(o.disable)) invalid(scope, names.disable, o.disable, 'must be an array of rule ids', "pass ['CNPGI050']");
    disable = validateRuleIds(DOCTOR_REGISTRY, o.disable as unknown[], (i) => item(names.disable, i), scope);
  }
  const sidecarPlugins = new Map<string, string>();
  if (o.sidecarPlugins !== undefined && o.sidecarPlugins !== null) {
    if (typeof o.sidecarPlugins !== 'object' || Array.isArray(o.sidecarPlugins)) {
      invalid(
        scope,
        names.sidecarPlugins,
        o.sidecarPlugins,
        'must map sidecar container names to plugin names',
        "pass { 'barman-cloud': 'barman-cloud.cloudnative-pg.io' }",
      );
    }
    for (const [container, name] of Object.entries(o.sidecarPlugins as Record<string, unknown>)) {
      if (container.trim() === '')
        invalid(scope, names.sidecarPlugins, o.sidecarPlugins, 'has an empty container name', 'name the sidecar container of the operator Deployment');
      sidecarPlugins.set(container, optionalString(item(names.sidecarPlugins, container), name, 'pass the plugin name the container serves') ?? '');
    }
  }
  if (o.verbose !== undefined && o.verbose !== null && typeof o.verbose !== 'boolean')
    invalid(scope, names.verbose, o.verbose, 'must be true or false', 'pass verbose: true');
  const verbose = o.verbose === true;
  if (o.complete !== undefined && o.complete !== null && typeof o.complete !== 'boolean')
    invalid(scope, names.complete, o.complete, 'must be true or false', 'pass complete: true when the input is everything that is installed');
  const complete = o.complete === true;
  return {
    operatorNamespace,
    defaultNamespace,
    clusterResourceNamespace,
    versionString: versionString.replace(/^v/, ''),
    version: version!,
    knownPlugins,
    disable,
    sidecarPlugins,
    verbose,
    complete,
  };
}

/**
 * Checks plain Kubernetes manifest objects as the CloudNativePG operator would read them, and
 * returns the findings together with the plugins the operator would discover.
 *
 * Works on any YAML (this library's output, upstream release manifests, Helm output): it needs
 * no cdk8s. Odd input never throws: scalars, lists, documents without `kind` are reported as
 * CNPGI090 and skipped, `kind: List` is expanded, wrong types in fields are treated as absent.
 * Only invalid `options` throw (a `CnpgIValidationError`).
 */
export function analyzeManifests(objects: readonly unknown[], options?: DoctorOptions): DoctorReport {
  return analyzeWithNames(objects, options, API_OPTION_NAMES);
}

/**
 * `analyzeManifests` with the option names used in error messages (the CLI passes its flags).
 * @internal
 */
export function analyzeWithNames(
  objects: readonly unknown[],
  options: DoctorOptions | undefined,
  names: OptionNames,
  live?: LiveState,
  unappliedPatches?: ReadonlyMap<number, readonly UnappliedPatch[]>,
): DoctorReport {
  if (!Array.isArray(objects)) invalid(names.scope, 'objects', objects, 'must be an array of manifest objects', 'pass the parsed YAML documents as an array');
  const opts = readOptions(options, names);
  const model = buildModel(
    objects.map((o) => trackUnrendered(withoutSopsMetadata(o), variableFinderFor)),
    { ...opts, rules: DOCTOR_REGISTRY, ...(live ? { live } : {}), ...(unappliedPatches ? { unappliedPatches } : {}) },
  );
  for (const m of model.index.all) {
    const fields = unrenderedFields(m.raw);
    if (fields.length > 0) model.unrendered.set(m.raw, fields);
  }
  const { findings, suppressed, withheld } = DOCTOR_REGISTRY.run(model, {
    disable: new Set(opts.disable),
    ignored: (target, ruleId) => target.raw !== undefined && model.ignores.get(target.raw)?.ids.has(ruleId) === true,
    withholding: (ruleId, run) => {
      // a rule judges an object unless it read a field of it that holds unrendered text, or
      // reported at such a field (or above or below it); CNPGI092 is the rule that says so
      const { read } = recordingReads(run);
      if (ruleId === UNRENDERED_RULE) return () => false;
      return (target, path) => {
        const fields = target.raw === undefined ? undefined : model.unrendered.get(target.raw);
        return fields !== undefined && (read.has(target.raw!) || touchesUnrendered(fields, path));
      };
    },
  });
  const order = (f: Finding) => (f.severity === 'error' ? 0 : 1);
  const sorted = findings
    .map((f, i) => ({ f, i }))
    .sort((a, b) => order(a.f) - order(b.f) || (a.f.index ?? -1) - (b.f.index ?? -1) || a.i - b.i)
    .map((x) => x.f);
  return {
    findings: sorted,
    plugins: [...model.discovered.values()],
    operatorNamespace: model.operatorNamespace,
    cnpgVersion: opts.versionString,
    objectCount: model.index.all.length,
    suppressed,
    withheld,
    ...(opts.verbose ? { notEvaluated: model.notEvaluated } : {}),
  };
}

/**
 * Checks plain Kubernetes manifest objects as the CloudNativePG operator would read them.
 *
 * `objects` are parsed YAML/JSON documents (anything: odd documents are reported, never thrown
 * on). Returns the findings, errors first; an empty array means the operator would discover and
 * connect to every plugin, and accept every Cluster, Backup and ScheduledBackup.
 *
 * @example
 * const findings = checkManifests(YAML.parseAllDocuments(text).map((d) => d.toJS()), { cnpgVersion: '1.27.1' });
 */
export function checkManifests(objects: readonly unknown[], options?: DoctorOptions): Finding[] {
  return analyzeManifests(objects, options).findings;
}
