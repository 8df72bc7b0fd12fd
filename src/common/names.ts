import { createHash } from 'crypto';
import { Chart, Names } from 'cdk8s';
import { Construct } from 'constructs';
import { describeValue, invalid } from '../manifests/errors';
import { isDns1035Label, isDnsLabel, isDnsSubdomain } from '../manifests/k8s-names';

/**
 * Which rule the API server applies to an object's `metadata.name`:
 * - `subdomain`: an RFC 1123 subdomain (most kinds: ServiceAccount, Secret, Certificate, ...),
 *   at most 253 characters;
 * - `label`: an RFC 1123 label (Namespaces; and what workloads such as Deployments should be,
 *   since a dot in a Deployment name draws an API server warning), at most 63;
 * - `dns1035`: an RFC 1035 label, a letter first (Services; CloudNativePG Clusters, whose name
 *   becomes Service names), at most 63.
 * @internal
 */
export type NameKind = 'subdomain' | 'label' | 'dns1035';

/**
 * Options of {@link childObjectName}.
 * @internal
 */
export interface ChildObjectNameOptions {
  /**
   * Extra name components after the path, as `Names.toDnsLabel` takes them.
   * @default - none
   */
  readonly extra?: string[];
  /**
   * The id of the ApiObject inside the child, for cdk8s-plus constructs, whose ApiObject is the
   * child's `Resource` (`new kplus.Deployment(parent, 'Workload')` names
   * `parent/Workload/Resource`); the id takes part in the hash of the name.
   * @default - the child itself is the ApiObject
   */
  readonly apiObjectId?: string;
  /**
   * The `kind` the object will have; cdk8s gives a CronJob a shorter name (52 characters).
   * @default - not a CronJob
   */
  readonly apiKind?: string;
  /**
   * A shorter limit than the kind's own (50 for a CloudNativePG Cluster).
   * @default - 253 for `subdomain`, 63 for `label` and `dns1035`
   */
  readonly maxLength?: number;
}

const LIMITS: Record<NameKind, number> = { subdomain: 253, label: 63, dns1035: 63 };

const VALID: Record<NameKind, (name: string) => boolean> = {
  subdomain: isDnsSubdomain,
  label: isDnsLabel,
  dns1035: isDns1035Label,
};

/**
 * The `metadata.name` to pass explicitly for an object the library creates as
 * `new X(parent, childId, ...)`.
 *
 * When the name cdk8s would generate for that child is valid for `kind`, it is returned as is,
 * byte for byte (so existing manifests keep their names); cdk8s keeps `_` and `.` and allows a
 * leading digit, which the API server refuses for some kinds, and then a valid name is derived
 * from it: lower case, every character the kind does not allow turned into `-`, runs of `-`
 * collapsed, each part trimmed, non-letters dropped from the front for `dns1035`, and the front
 * cut when it is too long, so cdk8s's path hash at the end still keeps names apart.
 * @internal
 */
export function childObjectName(parent: Construct, childId: string, kind: NameKind, options: ChildObjectNameOptions = {}): string {
  const generated = generatedName(parent, childId, options);
  const max = Math.min(LIMITS[kind], options.maxLength ?? LIMITS[kind]);
  if (VALID[kind](generated) && generated.length <= max) return generated;
  const name = deriveName(generated, kind, max);
  if (!VALID[kind](name)) {
    // Only reachable without cdk8s's hash (a chart with disableResourceNameHashes) and an id with
    // no letter (or, for dns1035, no letter at all).
    invalid(
      parent,
      'id',
      childId,
      `gives the object name ${describeValue(generated)}, from which no valid name can be derived`,
      "use an id with letters, such as 'barman'",
    );
  }
  return name;
}

/**
 * Makes a valid name of `kind` from a generated one, within `max` characters. Deterministic, and
 * the identity on names that are already valid and short enough.
 * @internal
 */
export function deriveName(generated: string, kind: NameKind, max: number): string {
  const dots = kind === 'subdomain';
  let name = generated.toLowerCase().replace(dots ? /[^a-z0-9.-]+/g : /[^a-z0-9-]+/g, '-');
  name = tidy(name, dots);
  if (name.length > max) name = tidy(name.slice(name.length - max), dots);
  if (kind === 'dns1035') name = name.replace(/^[^a-z]+/, '');
  return name;
}

/** Collapses `-` runs and trims every dot-separated part of `-`, dropping empty parts. */
function tidy(name: string, dots: boolean): string {
  const parts = dots ? name.split('.') : [name];
  return parts
    .map((p) => p.replace(/-+/g, '-').replace(/^-|-$/g, ''))
    .filter((p) => p !== '')
    .join('.');
}

/** What cdk8s generates for an ApiObject at `parent/childId[/apiObjectId]`, asked of the chart itself. */
function generatedName(parent: Construct, childId: string, options: ChildObjectNameOptions): string {
  let chart: Chart;
  try {
    chart = Chart.of(parent);
  } catch {
    return invalid(parent, 'scope', parent.node.path, 'is not inside a cdk8s Chart', 'create the construct inside a Chart');
  }
  const ids = [...parent.node.scopes.map((s) => s.node.id), ...[childId, options.apiObjectId].filter((x): x is string => x !== undefined).map(sanitizeId)];
  const path = ids.filter((id) => id !== '').join('/');
  const node = { path, addr: addressOf(ids) };
  const fake = { node, kind: options.apiKind ?? '' } as unknown as Parameters<Chart['generateObjectName']>[0];
  if (options.extra === undefined || options.extra.length === 0) return chart.generateObjectName(fake);
  // Names.toDnsLabel is what Chart.generateObjectName calls; with extra components it is called
  // directly, with the chart's hash setting.
  const disabled = (chart as unknown as { _disableResourceNameHashes?: boolean })._disableResourceNameHashes === true;
  return Names.toDnsLabel(fake as unknown as Construct, { extra: options.extra, includeHash: !disabled });
}

/** As constructs sanitizes ids: the path and address separators become `--`. */
function sanitizeId(id: string): string {
  return id.replace(/[/\n]/g, '--');
}

/**
 * A construct's `node.addr` from its scope ids (constructs v10 addressOf): SHA-1 over each id
 * but `Default`, each followed by a newline, prefixed with `c8`.
 */
function addressOf(ids: readonly string[]): string {
  const hash = createHash('sha1');
  for (const id of ids) {
    if (id === 'Default') continue;
    hash.update(id);
    hash.update('\n');
  }
  return `c8${hash.digest('hex')}`;
}
