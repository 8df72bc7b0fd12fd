/*
 * What the update rules share: the Clusters present in both sets, with their two specs, and the
 * parts of a spec more than one rule compares.
 */
import { CNPG_GROUP, Json, PlanContext, PlanObject, asArray, asObject, asString } from '../../plan-model';

/** The webhook whose update validation most of these rules follow. */
export const WEBHOOK = 'cloudnative-pg v1.30.0 internal/webhook/v1/cluster_webhook.go';

/** A Cluster of both sets: the two objects (findings are about the next one) and their specs. */
export interface ClusterUpdate {
  readonly prev: PlanObject;
  readonly next: PlanObject;
  readonly before: Json | undefined;
  readonly after: Json | undefined;
}

function matchClusters(ctx: PlanContext): readonly ClusterUpdate[] {
  const out: ClusterUpdate[] = [];
  for (const prev of ctx.previous.ofKind('Cluster', CNPG_GROUP)) {
    const next = ctx.next.get(prev);
    if (next) out.push({ prev, next, before: asObject(prev.body.spec), after: asObject(next.body.spec) });
  }
  return out;
}

/** Every Cluster of the previous set that the next set still has, in the previous set's order. */
export function clusterUpdates(ctx: PlanContext): readonly ClusterUpdate[] {
  return ctx.derived(matchClusters);
}

/** A spec's declarative tablespaces by name; undefined when it has no `tablespaces`. */
export function tablespaces(spec: Json | undefined): Map<string, Json> | undefined {
  if (spec?.tablespaces === undefined) return undefined;
  const out = new Map<string, Json>();
  for (const t of asArray(spec.tablespaces)) {
    const o = asObject(t);
    const name = asString(o?.name);
    if (o && name !== undefined) out.set(name, o);
  }
  return out;
}
