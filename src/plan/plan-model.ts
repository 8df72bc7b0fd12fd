/*
 * The plan's data model: its options and report, and the index of one manifest set that its
 * rules read. No cdk8s here: the plan compares anyone's YAML (a committed dist/, `kubectl get -o
 * yaml`).
 */
import { dig, asArray, asString, asObject, differences, Json } from '../manifests/json';
import { CLUSTER_SCOPED_KINDS } from '../manifests/kinds';
import type { Finding } from '../rules/finding';
import type { AcknowledgedFinding, PlanAcknowledgement } from './acknowledgements';

export type { Json };
export { asArray, asObject, asString, dig };

/** Options of `planChanges`. */
export interface PlanOptions {
  /**
   * Namespace assumed for namespaced objects that have none, on both sides (as `kubectl apply -n`
   * or a kustomization's `namespace:` would set).
   * @default 'default'
   */
  readonly defaultNamespace?: string;
  /**
   * Findings accepted on purpose, each naming a plan rule, one object and the reason, e.g.
   * `[{ rule: 'CNPGI201', object: 'Cluster/payments/ledger', reason: 'moved to ledger-v2' }]`.
   * The finding of that rule on that object is reported as acknowledged (with the reason) and
   * fails nothing; an acknowledgement that matches no finding is reported as stale. A wildcard
   * object is refused: each deliberate change is named.
   * @default []
   */
  readonly acknowledge?: PlanAcknowledgement[];
}

/** What `planChanges` found. */
export interface PlanReport {
  /**
   * The findings, errors first, then by object, rule and path. Each has the value before and
   * after the change (`null` when there is none) and the field path it is about.
   */
  readonly findings: Finding[];
  /** The findings that an acknowledgement accepted, in the same order, each with its reason; they fail nothing. */
  readonly acknowledged: AcknowledgedFinding[];
  /** The acknowledgements that matched no finding: stale, a warning to remove them. */
  readonly staleAcknowledgements: PlanAcknowledgement[];
  /** Objects in the previous set (after expanding `kind: List`). */
  readonly previousCount: number;
  /** Objects in the next set. */
  readonly nextCount: number;
  /** Objects only in the next set. */
  readonly added: number;
  /** Objects only in the previous set. */
  readonly removed: number;
  /** Objects in both sets whose content differs. */
  readonly changed: number;
}

/** JSON with sorted keys, so that two equal objects compare equal whatever their key order. @internal */
export function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  const o = asObject(value);
  if (o) {
    return `{${Object.keys(o)
      .sort()
      .filter((k) => o[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${canonical(o[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** A field that differs between two versions of an object, and its value before and after (`null` where it is missing). @internal */
export interface FieldChange {
  readonly path: string;
  readonly before: unknown;
  readonly after: unknown;
}

/**
 * The deepest fields where `before` and `after` differ, as paths under `base`: a changed recovery
 * target under `spec.bootstrap` is `spec.bootstrap.recovery.recoveryTarget.targetTime`, not the
 * whole subtree. A field added or removed is named where it starts; a list whose length changes
 * is named as the list. Sorted by path.
 * @internal
 */
export function changedFields(before: unknown, after: unknown, base: string): FieldChange[] {
  return differences(before ?? null, after ?? null).map((d) => ({
    path: d.path === '' ? base : d.path.startsWith('[') ? `${base}${d.path}` : `${base}.${d.path}`,
    before: d.before ?? null,
    after: d.after ?? null,
  }));
}

/** One object of a manifest set. @internal */
export interface PlanObject {
  readonly kind: string;
  /** The API group (`postgresql.cnpg.io`, `''` for core): a version change is not a new object. */
  readonly group: string;
  readonly namespace: string | undefined;
  readonly name: string;
  readonly body: Json;
  /** `Kind/namespace/name`. */
  readonly ref: string;
  /** The lookup key: group, kind, namespace, name. */
  readonly key: string;
}

function groupOf(apiVersion: string): string {
  const slash = apiVersion.indexOf('/');
  return slash < 0 ? '' : apiVersion.slice(0, slash);
}

/** @internal */
export function keyOf(group: string, kind: string, namespace: string | undefined, name: string): string {
  return `${group}\u0000${kind}\u0000${namespace ?? ''}\u0000${name}`;
}

/**
 * One manifest set, indexed in a single pass by key and by kind, so that every rule is a
 * lookup: planning stays linear in the number of objects.
 * @internal
 */
export class PlanIndex {
  public readonly byKey = new Map<string, PlanObject>();
  private readonly byKind = new Map<string, PlanObject[]>();
  public count = 0;

  constructor(objects: readonly unknown[], defaultNamespace: string) {
    const add = (value: unknown) => {
      const o = asObject(value);
      if (!o) return;
      const kind = asString(o.kind);
      const apiVersion = asString(o.apiVersion);
      if (kind === undefined || apiVersion === undefined) return;
      if (kind === 'List' || kind.endsWith('List')) {
        for (const item of asArray(o.items)) add(item);
        return;
      }
      const name = asString(dig(o, 'metadata', 'name'));
      if (name === undefined || name === '') return;
      this.count++;
      const group = groupOf(apiVersion);
      const namespace = CLUSTER_SCOPED_KINDS.has(kind) ? undefined : asString(dig(o, 'metadata', 'namespace')) || defaultNamespace;
      const obj: PlanObject = {
        kind,
        group,
        namespace,
        name,
        body: o,
        ref: namespace === undefined ? `${kind}/${name}` : `${kind}/${namespace}/${name}`,
        key: keyOf(group, kind, namespace, name),
      };
      // A later duplicate wins, as a later `kubectl apply` would.
      this.byKey.set(obj.key, obj);
      const list = this.byKind.get(kind);
      if (list) list.push(obj);
      else this.byKind.set(kind, [obj]);
    };
    for (const value of objects) add(value);
    // Drop the earlier copies of duplicates from the kind lists.
    for (const [kind, list] of this.byKind) {
      this.byKind.set(
        kind,
        list.filter((o) => this.byKey.get(o.key) === o),
      );
    }
  }

  /** The objects of `kind` (any group unless given). */
  public ofKind(kind: string, group?: string): readonly PlanObject[] {
    const list = this.byKind.get(kind) ?? [];
    return group === undefined ? list : list.filter((o) => o.group === group);
  }

  /** The same object (group, kind, namespace, name) in this set. */
  public get(o: PlanObject): PlanObject | undefined {
    return this.byKey.get(o.key);
  }
}

/** What every plan rule reads: the two manifest sets. @internal */
export class PlanContext {
  private readonly facts = new Map<(ctx: PlanContext) => unknown, unknown>();

  constructor(
    public readonly previous: PlanIndex,
    public readonly next: PlanIndex,
  ) {}

  /**
   * What `derive` works out from the two sets, computed once however many rules ask (several
   * rules read the same facts, such as the Clusters of both sets or the plugins the Services
   * offer), so that planning stays linear in the number of objects.
   */
  public derived<T>(derive: (ctx: PlanContext) => T): T {
    if (!this.facts.has(derive)) this.facts.set(derive, derive(this));
    return this.facts.get(derive) as T;
  }
}

/** The API groups of the kinds the rules read. @internal */
export const CNPG_GROUP = 'postgresql.cnpg.io';
/** @internal */
export const BARMAN_GROUP = 'barmancloud.cnpg.io';
