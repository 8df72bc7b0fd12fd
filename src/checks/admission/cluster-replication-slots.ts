/*
 * The Cluster webhook's checks of `spec.replicationSlots` (cloudnative-pg v1.30.0
 * internal/webhook/v1/cluster_webhook.go validateReplicationSlots,
 * validateSynchronizeLogicalDecoding; api/v1/cluster_funcs.go GetEnabled, compileRegex;
 * pkg/postgres/configuration.go IsManagedExtensionUsed).
 */
import { describeValue } from '../../manifests/errors';
import { Json, asArray, asObject, dig, stringMap } from '../../manifests/json';
import type { CheckIssue } from '../issue';
import type { AdmissionCheck, AdmissionContext } from './admission-check';
import { postgresMajor } from './cluster-reading';
import { goRegexpError } from './go-regexp';
import { parsePostgresConfigBoolean } from './parse-postgres-config-boolean';
import { usesPgFailoverSlots } from './postgres-configuration';
import { webhookText } from './webhook-text';

/** A stanza's `enabled`, which the operator reads as true when the stanza or the field is missing. */
const enabled = (stanza: Json | undefined) => stanza?.enabled !== false;

/**
 * validateReplicationSlots: while replication slots are in use (high availability or
 * synchronizeReplicas enabled, both the default), each `synchronizeReplicas.excludePatterns`
 * entry is a Go regular expression. The webhook answers one error for all the bad patterns.
 */
function replicationSlots(cluster: Json): CheckIssue[] {
  const slots = asObject(dig(cluster, 'spec', 'replicationSlots'));
  // a missing stanza reads as both features enabled, with no patterns
  if (slots === undefined) return [];
  const synchronize = asObject(slots.synchronizeReplicas);
  if (!enabled(synchronize) && !enabled(asObject(slots.highAvailability))) return [];
  const bad = asArray(synchronize?.excludePatterns)
    .map((pattern, i) => ({ pattern, i, reason: typeof pattern === 'string' ? goRegexpError(pattern) : undefined }))
    .filter((p) => p.reason !== undefined);
  if (bad.length === 0) return [];
  return [
    {
      severity: 'error',
      path: `spec.replicationSlots.synchronizeReplicas.excludePatterns[${bad[0].i}]`,
      webhookPath: 'spec.replicationSlots.synchronizeReplicas.excludePatterns',
      message: `the Cluster webhook refuses excludePatterns ${bad.map((p) => `${describeValue(p.pattern)} (${p.reason})`).join(', ')} (${webhookText('Cannot configure synchronizeReplicas. Invalid regexes were found')}): the patterns are Go (RE2) regular expressions, which have no lookarounds or backreferences`,
      fix: "write each pattern as a Go regular expression, e.g. '^logical_.*' (escape a literal '(' as '\\(')",
    },
  ];
}

/**
 * validateSynchronizeLogicalDecoding: `highAvailability.synchronizeLogicalDecoding` needs the
 * pg_failover_slots extension (any `pg_failover_slots.*` parameter) or, from PostgreSQL 17 on,
 * `hot_standby_feedback` and `sync_replication_slots` both on.
 */
function synchronizeLogicalDecoding(cluster: Json, context: AdmissionContext): CheckIssue[] {
  if (dig(cluster, 'spec', 'replicationSlots', 'highAvailability', 'synchronizeLogicalDecoding') !== true || usesPgFailoverSlots(cluster)) return [];
  const major = postgresMajor(cluster, context);
  if (major === undefined) return [];
  if (major < 17) {
    return [
      {
        severity: 'error',
        path: 'spec.replicationSlots.highAvailability.synchronizeLogicalDecoding',
        message: `the Cluster webhook refuses synchronizeLogicalDecoding on PostgreSQL ${major} without pg_failover_slots (${webhookText('pg_failover_slots extension must be enabled to use synchronizeLogicalDecoding with Postgres versions < 17')}): PostgreSQL synchronizes logical slots itself only from 17 on`,
        fix: "set a pg_failover_slots parameter (e.g. 'pg_failover_slots.synchronize_slot_names': 'name_like:%') with an image that has the extension, or use PostgreSQL 17 or later",
      },
    ];
  }
  const parameters = stringMap(dig(cluster, 'spec', 'postgresql', 'parameters'));
  const needed: Array<[string, string, string]> = [
    [
      'hot_standby_feedback',
      '`hot_standby_feedback` must be enabled to enable `spec.replicationSlots.highAvailability.synchronizeLogicalDecoding`',
      "set hot_standby_feedback: 'on'",
    ],
    [
      'sync_replication_slots',
      'either `sync_replication_slots` setting or pg_failover_slots extension must be enabled to enable `spec.replicationSlots.highAvailability.synchronizeLogicalDecoding`',
      "set sync_replication_slots: 'on' (PostgreSQL 17 and later), or use the pg_failover_slots extension",
    ],
  ];
  return needed
    .filter(([name]) => parsePostgresConfigBoolean(parameters[name] ?? '') !== true)
    .map(([name, text, fix]) => ({
      severity: 'error',
      path: `spec.postgresql.parameters.${name}`,
      message: `the Cluster webhook refuses synchronizeLogicalDecoding with ${name} ${parameters[name] === undefined ? 'left out (off)' : describeValue(parameters[name])} (${webhookText(text)})`,
      fix,
    }));
}

/** The replication slot checks, in the webhook's order. @internal */
export const CLUSTER_REPLICATION_SLOT_CHECKS: readonly AdmissionCheck[] = [
  { kind: 'Cluster', upstream: 'validateReplicationSlots', check: replicationSlots },
  { kind: 'Cluster', upstream: 'validateSynchronizeLogicalDecoding', check: synchronizeLogicalDecoding },
];
