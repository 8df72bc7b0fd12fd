import { invalid } from '../common/errors';
import { DEFAULT_CNPG_VERSION, parseVersion } from './cnpg-version';
import { DoctorContext } from './doctor-context';
import { DoctorOptions, DoctorReport, Finding } from './finding';
import { ManifestIndex } from './manifest-index';
import { DEFAULT_OPERATOR_NAMESPACE, findOperatorCandidates } from './operator-rules';
import { checkPluginServices } from './plugin-service-rules';
import { checkPodSecurity } from './pod-security-rules';
import { checkPostgres } from './postgres-rules';
import { checkSidecars } from './sidecar-rules';
import { checkPluginTls } from './tls-rules';

const SCOPE = 'checkManifests';

function optionalString(prop: string, value: unknown, fix: string): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string' || value.trim() === '') invalid(SCOPE, prop, value, 'must be a non-empty string', fix);
  return value;
}

function readOptions(options: unknown) {
  if (options !== undefined && options !== null && (typeof options !== 'object' || Array.isArray(options))) {
    invalid(SCOPE, 'options', options, 'must be an object', 'pass { operatorNamespace?, cnpgVersion?, knownPlugins?, defaultNamespace? }');
  }
  const o = (options ?? {}) as Record<string, unknown>;
  const operatorNamespace = optionalString('options.operatorNamespace', o.operatorNamespace, "pass the operator's namespace, e.g. 'cnpg-system'");
  const defaultNamespace = optionalString('options.defaultNamespace', o.defaultNamespace, "pass a namespace, e.g. 'cnpg-system'");
  const versionString = optionalString('options.cnpgVersion', o.cnpgVersion, "pass a version such as '1.27.1'") ?? DEFAULT_CNPG_VERSION;
  const version = parseVersion(versionString);
  if (!version) invalid(SCOPE, 'options.cnpgVersion', versionString, 'is not a version', "use MAJOR.MINOR.PATCH, e.g. '1.27.1'");
  let knownPlugins: string[] = [];
  if (o.knownPlugins !== undefined && o.knownPlugins !== null) {
    if (!Array.isArray(o.knownPlugins)) invalid(SCOPE, 'options.knownPlugins', o.knownPlugins, 'must be an array of plugin names', "pass ['backup.example.com']");
    knownPlugins = (o.knownPlugins as unknown[]).map((p, i) => optionalString(`options.knownPlugins[${i}]`, p, 'pass the plugin name as a string') ?? '');
  }
  return { operatorNamespace, defaultNamespace, versionString: versionString.replace(/^v/, ''), version, knownPlugins };
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
  if (!Array.isArray(objects)) invalid(SCOPE, 'objects', objects, 'must be an array of manifest objects', 'pass the parsed YAML documents as an array');
  const opts = readOptions(options);
  const early: Array<Omit<Finding, 'object'> & { object: string }> = [];

  // The operator namespace first: it is also the default namespace of unnamespaced objects.
  const candidates = findOperatorCandidates(objects);
  let operatorNamespace = opts.operatorNamespace;
  if (!operatorNamespace) {
    const resolved = candidates.map((c) => ({ c, ns: c.envNamespace ?? c.namespace ?? opts.defaultNamespace }));
    const first = resolved.find((r) => r.ns !== undefined);
    const describe = (c: typeof candidates[number]) => `Deployment/${c.namespace ?? opts.defaultNamespace ?? '?'}/${c.name}`;
    if (first) {
      operatorNamespace = first.ns!;
      const others = resolved.filter((r) => r.ns !== undefined && r.ns !== first.ns);
      if (others.length > 0) {
        early.push({ ruleId: 'CNPGI001', severity: 'warning', object: describe(first.c), index: first.c.index,
          message: `several operator Deployments run in different namespaces (${[first, ...others].map((r) => `'${r.ns}'`).join(', ')}); the checks use '${operatorNamespace}'`,
          fix: 'pass --operator-namespace (operatorNamespace) to choose' });
      }
    } else {
      operatorNamespace = DEFAULT_OPERATOR_NAMESPACE;
      const c = candidates[0];
      early.push({ ruleId: 'CNPGI001', severity: 'warning', object: c ? describe(c) : 'input', ...(c ? { index: c.index } : {}),
        message: c ? `the operator Deployment has no namespace; assumed '${DEFAULT_OPERATOR_NAMESPACE}'`
          : `no operator namespace given and no operator Deployment in the input; assumed '${DEFAULT_OPERATOR_NAMESPACE}'`,
        fix: 'pass --operator-namespace <namespace> (operatorNamespace), or include the operator Deployment' });
    }
  }
  for (const c of candidates) {
    if (!c.hasNamespaceEnv) {
      early.push({ ruleId: 'CNPGI002', severity: 'warning', object: `Deployment/${c.namespace ?? opts.defaultNamespace ?? operatorNamespace}/${c.name}`, index: c.index,
        message: 'the manager container does not set OPERATOR_NAMESPACE; the operator takes its namespace from it, and without it no plugin Service is discovered',
        fix: 'add env OPERATOR_NAMESPACE with valueFrom.fieldRef.fieldPath: metadata.namespace', path: 'spec.template.spec.containers' });
    }
  }

  const index = new ManifestIndex(objects, opts.defaultNamespace ?? operatorNamespace);
  const ctx = new DoctorContext(index, operatorNamespace, opts.version!, opts.versionString, new Set(opts.knownPlugins));
  for (const f of early) ctx.report(f.ruleId, f.severity, { ref: f.object, index: f.index }, f.message, f.fix, f.path);
  for (const odd of index.odd) {
    ctx.report('CNPGI090', 'warning', { ref: `document #${odd.index + 1}`, index: odd.index }, `not a Kubernetes object (${odd.reason}); skipped`, 'remove it, or check that the right files were passed');
  }

  checkPluginServices(ctx);
  checkSidecars(ctx);
  for (const name of opts.knownPlugins) ctx.discover({ name, source: 'known' });
  checkPluginTls(ctx);
  checkPostgres(ctx);
  checkPodSecurity(ctx);

  const order = (f: Finding) => (f.severity === 'error' ? 0 : 1);
  const findings = ctx.findings
    .map((f, i) => ({ f, i }))
    .sort((a, b) => order(a.f) - order(b.f) || (a.f.index ?? -1) - (b.f.index ?? -1) || a.i - b.i)
    .map((x) => x.f);
  return {
    findings,
    plugins: [...ctx.discovered.values()],
    operatorNamespace,
    cnpgVersion: opts.versionString,
    objectCount: index.all.length,
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
