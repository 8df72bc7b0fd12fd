/*
 * What the update rules share: the Clusters present in both sets, with their two specs, and the
 * parts of a spec more than one rule compares.
 */
import type { AdmissionContext, ChangeIssue } from '../../../checks/admission/admission-check';
import { postgresMajor } from '../../../checks/admission/cluster-reading';
import { admitChange } from '../../../checks/admission/index';
import { CNPG_GROUP, Json, PlanContext, PlanObject, asObject, dig } from '../../plan-model';

/** The webhook whose update validation most of these rules follow. */
export const WEBHOOK = 'cloudnative-pg v1.30.0 internal/webhook/v1/cluster_webhook.go';

/** A Cluster of both sets: the two objects (findings are about the next one) and their specs. */
export interface ClusterUpdate {
  readonly prev: PlanObject;
  readonly next: PlanObject;
  readonly before: Json | undefined;
  readonly after: Json | undefined;
  /**
   * What the Cluster webhook's update checks (src/checks/admission, `admitChange`) find on the
   * change, by upstream function: the rules of this folder report them.
   */
  readonly changes: ReadonlyMap<string, readonly ChangeIssue[]>;
}

/** The plan knows no operator settings: the release defaults (the default image's major among them). */
const CONTEXT: AdmissionContext = {};

/**
 * The previous Cluster as the webhook holds it when the next one is applied. The webhook reads
 * the major of the data directory from `status.pgDataImageInfo`, which a manifest from git has
 * not: the plan then takes the data directory to run the major the previous spec asks for.
 */
function asStored(previous: Json): Json {
  if (asObject(dig(previous, 'status', 'pgDataImageInfo'))) return previous;
  const major = postgresMajor(previous, CONTEXT);
  if (major === undefined) return previous;
  return { ...previous, status: { ...asObject(previous.status), pgDataImageInfo: { majorVersion: major } } };
}

function matchClusters(ctx: PlanContext): readonly ClusterUpdate[] {
  const out: ClusterUpdate[] = [];
  for (const prev of ctx.previous.ofKind('Cluster', CNPG_GROUP)) {
    const next = ctx.next.get(prev);
    if (!next) continue;
    const { issues } = admitChange('Cluster', next.body, asStored(prev.body), CONTEXT);
    out.push({ prev, next, before: asObject(prev.body.spec), after: asObject(next.body.spec), changes: issues });
  }
  return out;
}

/** The issues the update checks of the `upstream` functions find on a Cluster's change. */
export function changeIssues(update: ClusterUpdate, ...upstream: string[]): ChangeIssue[] {
  return upstream.flatMap((u) => update.changes.get(u) ?? []);
}

/** Every Cluster of the previous set that the next set still has, in the previous set's order. */
export function clusterUpdates(ctx: PlanContext): readonly ClusterUpdate[] {
  return ctx.derived(matchClusters);
}
