/*
 * The Cluster webhook's checks of what goes into the instance Pods: environment variables,
 * image-volume extensions, pod selectors for pg_hba, the ServiceAccount (cloudnative-pg v1.30.0
 * internal/webhook/v1/cluster_webhook.go validateEnv, validatePodSelectorRefs,
 * validateExtensions, validateServiceAccountConfig).
 */
import { describeValue } from '../../manifests/errors';
import { Json, asArray, asObject, asString, dig } from '../../manifests/json';
import { isLabelKey, isLabelValue } from '../../manifests/k8s-names';
import type { CheckIssue } from '../issue';
import type { AdmissionCheck } from './admission-check';

/**
 * Whether the operator keeps an environment variable name for itself: any case of a name
 * starting `CNPG_` or `PG`, or `POD_NAME`, `NAMESPACE`, `CLUSTER_NAME` (cloudnative-pg v1.30.0
 * pkg/postgres/environment.go IsReservedEnvironmentVariable).
 * @internal
 */
export function isReservedEnvironmentVariable(name: string): boolean {
  const n = name.toUpperCase();
  return n.startsWith('CNPG_') || n.startsWith('PG') || n === 'POD_NAME' || n === 'NAMESPACE' || n === 'CLUSTER_NAME';
}

const RESERVED = 'the usage of this environment variable is reserved for the operator';
const RESERVED_FIX = 'use a name that does not start with PG or CNPG_ and is not POD_NAME, NAMESPACE or CLUSTER_NAME (any case)';

/** validateEnv: no `spec.env` entry may use a name the operator sets itself. */
function env(cluster: Json): CheckIssue[] {
  const out: CheckIssue[] = [];
  asArray(dig(cluster, 'spec', 'env')).forEach((e, i) => {
    const name = asString(asObject(e)?.name) ?? '';
    if (!isReservedEnvironmentVariable(name)) return;
    out.push({
      severity: 'error',
      path: `spec.env[${i}].name`,
      webhookPath: `spec.postgresql.env[${i}].name`,
      message: `the Cluster webhook refuses the environment variable ${name} ("${RESERVED}"): the operator sets PGDATA, PGPORT, PGHOST, POD_NAME, NAMESPACE, CLUSTER_NAME and the like in every instance, so it keeps these names for itself`,
      fix: `${RESERVED_FIX}; PostgreSQL settings belong in spec.postgresql.parameters`,
    });
  });
  return out;
}

/**
 * Why a label key is refused (k8s.io/apimachinery v0.36.2 pkg/util/validation IsQualifiedName,
 * which accepts exactly what isLabelKey does).
 */
const LABEL_KEY_RULE =
  "a name of at most 63 characters of letters, digits, '-', '_' and '.', starting and ending with a letter or digit, optionally after a DNS subdomain prefix and '/'";
const LABEL_VALUE_RULE = "at most 63 characters of letters, digits, '-', '_' and '.', starting and ending with a letter or digit, or empty";

/** ValidateLabelSelector (k8s.io/apimachinery v0.36.2 pkg/apis/meta/v1/validation), without its options. */
function labelSelectorIssues(selector: unknown, base: string): CheckIssue[] {
  const out: CheckIssue[] = [];
  const issue = (path: string, webhookPath: string | undefined, message: string, fix: string): void => {
    out.push({ severity: 'error', path, ...(webhookPath !== undefined && webhookPath !== path ? { webhookPath } : {}), message, fix });
  };
  const s = asObject(selector) ?? {};
  const labels = asObject(s.matchLabels) ?? {};
  // Go walks the map in no fixed order; the library reports in key order.
  for (const key of Object.keys(labels).sort()) {
    const value = labels[key];
    if (!isLabelKey(key)) {
      issue(
        `${base}.matchLabels.${key}`,
        `${base}.matchLabels`,
        `the Cluster webhook refuses the label key ${describeValue(key)} of this pod selector: it is not a valid label key (${LABEL_KEY_RULE})`,
        'use a valid label key, such as app or app.kubernetes.io/name',
      );
    }
    if (typeof value === 'string' && !isLabelValue(value)) {
      issue(
        `${base}.matchLabels.${key}`,
        `${base}.matchLabels`,
        `the Cluster webhook refuses the label value ${describeValue(value)} of this pod selector: it is not a valid label value (${LABEL_VALUE_RULE})`,
        'use a valid label value',
      );
    }
  }
  asArray(s.matchExpressions).forEach((e, j) => {
    const expr = asObject(e) ?? {};
    const at = `${base}.matchExpressions[${j}]`;
    const operator = expr.operator;
    const values = asArray(expr.values);
    if (operator === 'In' || operator === 'NotIn') {
      if (values.length === 0) {
        issue(
          `${at}.values`,
          undefined,
          `the Cluster webhook refuses this pod selector expression ("must be specified when \`operator\` is 'In' or 'NotIn'"): ${operator} without values matches nothing`,
          `list the values to match, or use the operator ${operator === 'In' ? 'Exists' : 'DoesNotExist'}`,
        );
      }
    } else if (operator === 'Exists' || operator === 'DoesNotExist') {
      if (values.length > 0) {
        issue(
          `${at}.values`,
          undefined,
          `the Cluster webhook refuses this pod selector expression ("may not be specified when \`operator\` is 'Exists' or 'DoesNotExist'"): ${operator} looks at the key only`,
          `remove the values, or use the operator ${operator === 'Exists' ? 'In' : 'NotIn'}`,
        );
      }
    } else {
      issue(
        `${at}.operator`,
        undefined,
        `the Cluster webhook refuses the operator ${describeValue(operator ?? '')} of this pod selector expression ("not a valid selector operator")`,
        'use In, NotIn, Exists or DoesNotExist',
      );
    }
    const key = asString(expr.key) ?? '';
    if (!isLabelKey(key)) {
      issue(
        `${at}.key`,
        undefined,
        `the Cluster webhook refuses the key ${describeValue(key)} of this pod selector expression: it is not a valid label key (${LABEL_KEY_RULE})`,
        'use a valid label key, such as app or app.kubernetes.io/name',
      );
    }
    values.forEach((v, k) => {
      if (typeof v === 'string' && !isLabelValue(v)) {
        issue(
          `${at}.values[${k}]`,
          undefined,
          `the Cluster webhook refuses the value ${describeValue(v)} of this pod selector expression: it is not a valid label value (${LABEL_VALUE_RULE})`,
          'use a valid label value',
        );
      }
    });
  });
  return out;
}

/** A `${type:name}` reference in a pg_hba line (cloudnative-pg v1.30.0 pkg/postgres/hba/hba.go). */
const DESCRIPTOR_REFERENCE = /\$\{([^:]+):([^}]+)\}/g;

/** hba.ValidateLine: the first problem of a pg_hba line's references, or undefined. */
function hbaLineProblem(line: string, known: ReadonlySet<string>): { readonly detail: string; readonly why: string; readonly fix: string } | undefined {
  let selectors = 0;
  for (const [, type, name] of line.matchAll(DESCRIPTOR_REFERENCE)) {
    if (type !== 'podselector') {
      return {
        detail: `unknown descriptor type: ${type}`,
        why: `the only reference a pg_hba line can hold is \${podselector:<name>}, not \${${type}:${name}}`,
        fix: 'write ${podselector:<name>} with the name of an entry of spec.podSelectorRefs, or a literal address',
      };
    }
    selectors++;
    if (!known.has(name)) {
      return {
        detail: `pod selector not found: ${name}`,
        why: `no entry of spec.podSelectorRefs is named '${name}'`,
        fix: `add a spec.podSelectorRefs entry named '${name}', or refer to one that exists`,
      };
    }
  }
  if (selectors > 1) {
    return {
      detail: 'at most one podselector reference is allowed per line',
      why: `the line holds ${selectors} \${podselector:...} references; the operator expands a line into one line per matching Pod address, from one selector`,
      fix: 'write one line per pod selector',
    };
  }
  return undefined;
}

/**
 * validatePodSelectorRefs: pod selector names are unique, each selector is a valid label
 * selector, and every `${podselector:name}` of a pg_hba line names one of them (one per line).
 */
function podSelectorRefs(cluster: Json): CheckIssue[] {
  const out: CheckIssue[] = [];
  const known = new Set<string>();
  asArray(dig(cluster, 'spec', 'podSelectorRefs')).forEach((r, i) => {
    const ref = asObject(r) ?? {};
    const name = asString(ref.name) ?? '';
    if (known.has(name)) {
      out.push({
        severity: 'error',
        path: `spec.podSelectorRefs[${i}].name`,
        message: `the Cluster webhook refuses a second pod selector named '${name}' (Duplicate value: ${JSON.stringify(name)}): pg_hba lines refer to pod selectors by name`,
        fix: 'rename one of the two selectors, or merge them',
      });
    }
    known.add(name);
    out.push(...labelSelectorIssues(ref.selector, `spec.podSelectorRefs[${i}].selector`));
  });
  asArray(dig(cluster, 'spec', 'postgresql', 'pg_hba')).forEach((l, i) => {
    if (typeof l !== 'string') return;
    const problem = hbaLineProblem(l, known);
    if (problem === undefined) return;
    out.push({
      severity: 'error',
      path: `spec.postgresql.pg_hba[${i}]`,
      message: `the Cluster webhook refuses the pg_hba line ${describeValue(l)} ("${problem.detail}"): ${problem.why}`,
      fix: problem.fix,
    });
  });
  return out;
}

/** Go path/filepath.Clean on a Unix path. */
function cleanPath(p: string): string {
  const rooted = p.startsWith('/');
  const out: string[] = [];
  for (const part of p.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') {
      if (out.length > 0 && out[out.length - 1] !== '..') out.pop();
      else if (!rooted) out.push('..');
      continue;
    }
    out.push(part);
  }
  const s = (rooted ? '/' : '') + out.join('/');
  return s === '' ? '.' : s;
}

/** The path lists of an extension, in the webhook's order. */
const PATH_LISTS = ['extension_control_path', 'dynamic_library_path', 'ld_library_path', 'bin_path'] as const;

/** The env vars of an extension that have a field of their own. */
const DEDICATED: Readonly<Record<string, string>> = { PATH: 'bin_path', LD_LIBRARY_PATH: 'ld_library_path' };

/** An odd run of `$` before `{name}` is a placeholder (an even one is escaped). */
const PLACEHOLDER = /(\$+)\{([^}]+)\}/g;

/** The placeholders of an extension env var value other than `${image_root}` (FindUnknownPlaceholders). */
function unknownPlaceholders(value: string): string[] {
  return [...value.matchAll(PLACEHOLDER)].filter(([, dollars, name]) => dollars.length % 2 === 1 && name !== 'image_root').map(([, , name]) => `\${${name}}`);
}

/** validateExtensions: the image-volume extensions of `spec.postgresql.extensions`. */
function extensions(cluster: Json): CheckIssue[] {
  const out: CheckIssue[] = [];
  const hasCatalog = asObject(dig(cluster, 'spec', 'imageCatalogRef')) !== undefined;
  const names = new Set<string>();
  const volumes = new Map<string, string>();
  asArray(dig(cluster, 'spec', 'postgresql', 'extensions')).forEach((e, i) => {
    const ext = asObject(e) ?? {};
    const base = `spec.postgresql.extensions[${i}]`;
    const name = asString(ext.name) ?? '';
    if (name === '') {
      out.push({
        severity: 'error',
        path: `${base}.name`,
        message: 'the Cluster webhook refuses an extension without a name ("value cannot be empty")',
        fix: 'give the extension its name, e.g. pgvector',
      });
      return;
    }
    if (names.has(name)) {
      out.push({
        severity: 'error',
        path: `${base}.name`,
        message: `the Cluster webhook refuses a second extension named '${name}' (Duplicate value: ${JSON.stringify(name)})`,
        fix: 'list each extension once',
      });
      return;
    }
    names.add(name);
    const volume = `ext-${name.replace(/_/g, '-')}`;
    const clash = volumes.get(volume);
    if (clash !== undefined) {
      out.push({
        severity: 'error',
        path: `${base}.name`,
        message: `the Cluster webhook refuses the extension '${name}' ("extension name results in duplicate volume name ${JSON.stringify(volume)} after sanitization (underscores are converted to hyphens)"): the extension '${clash}' gets the same image volume`,
        fix: `rename one of '${clash}' and '${name}' so that they differ after replacing '_' with '-'`,
      });
    } else {
      volumes.set(volume, name);
    }
    if (!hasCatalog && (asString(dig(ext, 'image', 'reference')) ?? '') === '') {
      out.push({
        severity: 'error',
        path: `${base}.image.reference`,
        message: `the Cluster webhook refuses the extension '${name}' without an image ("Image reference for extension \`${name}\` must be set when no image catalog is configured")`,
        fix: 'set image.reference to the extension image, or use spec.imageCatalogRef with a catalog that lists the extension',
      });
    }
    for (const list of PATH_LISTS) out.push(...pathListIssues(asArray(ext[list]), `${base}.${list}`));
    out.push(...extensionEnvIssues(asArray(ext.env), base));
  });
  return out;
}

/** The entries of one path list of an extension: not empty, not repeated, inside the extension. */
function pathListIssues(paths: readonly unknown[], at: string): CheckIssue[] {
  const out: CheckIssue[] = [];
  const seen = new Set<string>();
  paths.forEach((p, j) => {
    const path = asString(p) ?? '';
    if (path === '') {
      out.push({
        severity: 'error',
        path: `${at}[${j}]`,
        message: 'the Cluster webhook refuses an empty path ("value cannot be empty")',
        fix: 'remove the entry',
      });
    } else if (seen.has(path)) {
      out.push({
        severity: 'error',
        path: `${at}[${j}]`,
        message: `the Cluster webhook refuses the path '${path}' listed twice (Duplicate value: ${JSON.stringify(path)})`,
        fix: 'remove the second entry',
      });
    } else if (cleanPath(path).startsWith('..')) {
      out.push({
        severity: 'error',
        path: `${at}[${j}]`,
        message: `the Cluster webhook refuses the path '${path}' ("path must not escape the extension directory"): the paths are relative to the directory the extension image is mounted in`,
        fix: "use a path inside the extension image, such as 'lib' or 'share/extension'",
      });
    } else {
      seen.add(path);
    }
  });
  return out;
}

/** validateExtensionEnvVars: an extension's env vars. */
function extensionEnvIssues(vars: readonly unknown[], base: string): CheckIssue[] {
  const out: CheckIssue[] = [];
  const seen = new Set<string>();
  vars.forEach((v, k) => {
    const e = asObject(v) ?? {};
    const name = asString(e.name) ?? '';
    const value = asString(e.value) ?? '';
    const at = `${base}.env[${k}]`;
    if (isReservedEnvironmentVariable(name)) {
      out.push({
        severity: 'error',
        path: `${at}.name`,
        message: `the Cluster webhook refuses the extension environment variable ${name} ("${RESERVED}")`,
        fix: RESERVED_FIX,
      });
    }
    const dedicated = DEDICATED[name];
    if (dedicated !== undefined) {
      out.push({
        severity: 'error',
        path: `${at}.name`,
        message: `the Cluster webhook refuses the extension environment variable ${name} ("${name} must be configured via ${base}.${dedicated}")`,
        fix: `list the directories in ${base}.${dedicated} instead`,
      });
    }
    const unknown = unknownPlaceholders(value);
    if (unknown.length > 0) {
      out.push({
        severity: 'error',
        path: `${at}.value`,
        message: `the Cluster webhook refuses the value of ${name} ("unsupported placeholder(s): ${unknown.join(', ')}; supported: \${image_root}")`,
        fix: 'use ${image_root} (the directory the extension image is mounted in), or write $$ to keep a literal $',
      });
    }
    if (seen.has(name)) {
      out.push({
        severity: 'error',
        path: `${at}.name`,
        message: `the Cluster webhook refuses the extension environment variable ${name} set twice (Duplicate value: ${JSON.stringify(name)})`,
        fix: 'set each variable once',
      });
    }
    seen.add(name);
  });
  return out;
}

/** validateServiceAccountConfig: an existing ServiceAccount, or one the operator makes from a template, not both. */
function serviceAccountConfig(cluster: Json): CheckIssue[] {
  const name = asString(dig(cluster, 'spec', 'serviceAccountName')) ?? '';
  const template = dig(cluster, 'spec', 'serviceAccountTemplate');
  if (name === '' || template === undefined || template === null) return [];
  return [
    {
      severity: 'error',
      path: 'spec.serviceAccountName',
      message: `the Cluster webhook refuses serviceAccountName '${name}' beside serviceAccountTemplate ("serviceAccountName and serviceAccountTemplate are mutually exclusive"): the instances either run as an existing ServiceAccount or as one the operator creates from the template`,
      fix: `remove serviceAccountTemplate to run as the existing ServiceAccount '${name}', or remove serviceAccountName`,
    },
  ];
}

/** The Pod checks, in the webhook's order. @internal */
export const CLUSTER_POD_SPEC_CHECKS: readonly AdmissionCheck[] = [
  { kind: 'Cluster', upstream: 'validateEnv', check: env },
  { kind: 'Cluster', upstream: 'validatePodSelectorRefs', check: podSelectorRefs },
  { kind: 'Cluster', upstream: 'validateExtensions', check: extensions },
  { kind: 'Cluster', upstream: 'validateServiceAccountConfig', check: serviceAccountConfig },
];
