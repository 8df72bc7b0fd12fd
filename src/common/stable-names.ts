import { Construct, IConstruct } from 'constructs';
import { invalid } from '../manifests/errors';
import { isDns1035Label, isDnsSubdomain } from '../manifests/k8s-names';

/**
 * What a stateful object's name must be, and how to say so.
 * @internal
 */
export interface StableNameRule {
  /** The kind, for messages: `Cluster`, `ObjectStore`. */
  readonly kind: string;
  /** Whether `name` is acceptable. */
  readonly test: (name: string) => boolean;
  /** What the rule is, completing "is not ...". */
  readonly describe: string;
}

/** CloudNativePG derives Service and pod names from a Cluster's name (validateName): a DNS-1035 label of at most 50. */
export const CLUSTER_NAME_RULE: StableNameRule = {
  kind: 'Cluster',
  test: (n) => isDns1035Label(n) && n.length <= 50,
  describe: "a DNS-1035 label of at most 50 characters (lower-case letters, digits and '-', a letter first)",
};

/** Any namespaced custom resource name: an RFC 1123 subdomain. */
export const SUBDOMAIN_NAME_RULE = (kind: string): StableNameRule => ({
  kind,
  test: isDnsSubdomain,
  describe: "an RFC 1123 subdomain (lower-case letters, digits, '-' and '.', at most 253 characters)",
});

/**
 * The default name of an object that holds data or points at data: the construct's own id, not
 * its path, so that moving the construct under another parent (or renaming a parent) keeps the
 * object, instead of a GitOps prune deleting it and creating an empty one.
 * An id that cannot be a name is refused, with the fix.
 * @internal
 */
export function nameFromId(scope: Construct, rule: StableNameRule, candidate: string = scope.node.id): string {
  if (!rule.test(candidate)) {
    const id = scope.node.id;
    invalid(
      scope,
      'id',
      id,
      candidate === id
        ? `cannot make the ${rule.kind} name ${JSON.stringify(candidate)}: by default the name is the construct id, which must be ${rule.describe}`
        : `cannot make the ${rule.kind} name ${JSON.stringify(candidate)}: by default the name is made from the construct id as shown, and must be ${rule.describe}`,
      `give the construct an id such as 'orders-db', or pin the name with metadata: { name: 'orders-db' }`,
    );
  }
  return candidate;
}

interface Claim {
  readonly construct: IConstruct;
  readonly kind: string;
  readonly namespace: string | undefined;
  readonly name: string;
}

// Claims per construct tree (the root is the App, or the chart in tests), so that separate apps
// never see each other's names.
const CLAIMS = new WeakMap<IConstruct, Map<string, Claim[]>>();
const CLAIMS_BY_NAME = new WeakMap<IConstruct, Map<string, Claim[]>>();

/**
 * The namespaces in which constructs of the app claimed `kind`/`name` (e.g. where the app's
 * ObjectStores of a name live), without walking the construct tree.
 * @internal
 */
export function claimedNamespaces(scope: IConstruct, kind: string, name: string): Array<string | undefined> {
  return (CLAIMS_BY_NAME.get(scope.node.root)?.get(`${kind}\u0000${name}`) ?? []).map((c) => c.namespace);
}

/**
 * Records that `construct` writes the `kind` object `name` in `namespace`, and returns a check
 * that throws, at synth, when another construct of the same tree claimed the same object: two
 * constructs writing one object means one silently replaces the other.
 * @internal
 */
export function claimName(construct: IConstruct, kind: string, namespace: string | undefined, name: string): () => void {
  const root = construct.node.root;
  let claims = CLAIMS.get(root);
  if (claims === undefined) {
    claims = new Map();
    CLAIMS.set(root, claims);
  }
  const key = `${kind}\u0000${namespace ?? ''}\u0000${name}`;
  const list = claims.get(key) ?? [];
  list.push({ construct, kind, namespace, name });
  claims.set(key, list);
  let byName = CLAIMS_BY_NAME.get(root);
  if (byName === undefined) {
    byName = new Map();
    CLAIMS_BY_NAME.set(root, byName);
  }
  const nameKey = `${kind}\u0000${name}`;
  byName.set(nameKey, [...(byName.get(nameKey) ?? []), { construct, kind, namespace, name }]);
  return () => {
    const all = claims.get(key) ?? [];
    if (all.length < 2) return;
    const others = all.filter((c) => c.construct !== construct).map((c) => c.construct.node.path);
    invalid(
      construct,
      'metadata.name',
      name,
      `is also the name of the ${kind} of ${others.join(', ')} in namespace '${namespace ?? '(the default)'}'; one would silently replace the other`,
      'give one of the constructs another id, or pin a distinct metadata.name on one of them',
    );
  };
}
