/*
 * The Cluster webhook's checks of synchronous replication, `spec.postgresql.synchronous`, and of
 * the failover quorum (cloudnative-pg v1.30.0 internal/webhook/v1/cluster_webhook.go
 * validateSynchronousReplicaConfiguration, validateFailoverQuorumAlphaAnnotation,
 * validateFailoverQuorum; api/v1/cluster_funcs.go IsFailoverQuorumActive).
 */
import { describeValue } from '../../manifests/errors';
import { Json, asArray, asObject, asString, dig } from '../../manifests/json';
import type { CheckIssue } from '../issue';
import type { AdmissionCheck } from './admission-check';
import { instancesOf } from './postgres-configuration';
import { webhookText } from './webhook-text';

/** The annotation that turned the failover quorum on before `synchronous.failoverQuorum` existed. @internal */
export const FAILOVER_QUORUM_ANNOTATION = 'alpha.cnpg.io/failoverQuorum';

const GO_TRUE = ['1', 't', 'T', 'TRUE', 'true', 'True'];
const GO_FALSE = ['0', 'f', 'F', 'FALSE', 'false', 'False'];

/** A boolean as Go's `strconv.ParseBool` reads it, or `undefined` (`yes`, `on`, `TRUE ` are not booleans to Go). @internal */
export function parseGoBool(text: string): boolean | undefined {
  if (GO_TRUE.includes(text)) return true;
  return GO_FALSE.includes(text) ? false : undefined;
}

const integer = (value: unknown) => (typeof value === 'number' && Number.isInteger(value) ? value : 0);

/** The synchronous stanza with the counts the checks compare. */
function synchronousOf(cluster: Json): { number: number; standbyNames: number } | undefined {
  const synchronous = asObject(dig(cluster, 'spec', 'postgresql', 'synchronous'));
  if (synchronous === undefined) return undefined;
  return { number: integer(synchronous.number), standbyNames: asArray(synchronous.standbyNamesPre).length + asArray(synchronous.standbyNamesPost).length };
}

/**
 * validateSynchronousReplicaConfiguration: `number` is below the instances plus the standby names
 * listed (`standbyNamesPre`, `standbyNamesPost`): the primary cannot wait for itself.
 */
function synchronousReplicas(cluster: Json): CheckIssue[] {
  const synchronous = synchronousOf(cluster);
  if (synchronous === undefined) return [];
  const instances = instancesOf(cluster);
  const total = instances + synchronous.standbyNames;
  if (synchronous.number < total) return [];
  return [
    {
      severity: 'error',
      path: 'spec.postgresql.synchronous.number',
      webhookPath: 'spec.postgresql.synchronous',
      message: `the Cluster webhook refuses synchronous.number ${synchronous.number}, not below spec.instances (${instances}) plus the standby names listed (${synchronous.standbyNames}) (${webhookText('Invalid synchronous configuration: the number of synchronous replicas must be less than the total number of instances and the provided standby names.')}): one of the instances is the primary, which cannot be its own synchronous replica`,
      fix:
        total > 1
          ? `set synchronous.number to at most ${total - 1}, or raise spec.instances`
          : 'raise spec.instances to 2 or more, or remove spec.postgresql.synchronous',
    },
  ];
}

/**
 * validateFailoverQuorumAlphaAnnotation: the annotation, when present, is a Go boolean, and
 * turning it on needs `spec.postgresql.synchronous`.
 */
function failoverQuorumAnnotation(cluster: Json): CheckIssue[] {
  const value = dig(cluster, 'metadata', 'annotations', FAILOVER_QUORUM_ANNOTATION);
  const text = asString(value);
  if (text === undefined) return [];
  const path = `metadata.annotations.${FAILOVER_QUORUM_ANNOTATION}`;
  const on = parseGoBool(text);
  if (on === undefined) {
    return [
      {
        severity: 'error',
        path,
        message: `the Cluster webhook refuses ${FAILOVER_QUORUM_ANNOTATION}: ${describeValue(text)} (${webhookText('Invalid failoverQuorum annotation value, expected boolean.')}): it reads the value with Go's strconv.ParseBool`,
        fix: "write 'true' or 'false', or better set spec.postgresql.synchronous.failoverQuorum and remove the annotation",
      },
    ];
  }
  if (!on || asObject(dig(cluster, 'spec', 'postgresql', 'synchronous')) !== undefined) return [];
  return [
    {
      severity: 'error',
      path: 'spec.postgresql.synchronous',
      message: `the Cluster webhook refuses ${FAILOVER_QUORUM_ANNOTATION}: ${describeValue(text)} without spec.postgresql.synchronous (Required value, ${webhookText('Invalid failoverQuorum configuration: synchronous replication configuration is required.')}): the quorum counts synchronous replicas`,
      fix: 'configure spec.postgresql.synchronous (e.g. { method: any, number: 1 }), or remove the annotation',
    },
  ];
}

/**
 * validateFailoverQuorum: with `synchronous.failoverQuorum: true` (which the defaulter also sets
 * from the annotation), `number` exceeds the standby names listed, so that the quorum includes at
 * least one instance of the Cluster.
 */
function failoverQuorum(cluster: Json): CheckIssue[] {
  const synchronous = synchronousOf(cluster);
  if (synchronous === undefined || dig(cluster, 'spec', 'postgresql', 'synchronous', 'failoverQuorum') !== true) return [];
  if (synchronous.number > synchronous.standbyNames) return [];
  return [
    {
      severity: 'error',
      path: 'spec.postgresql.synchronous.number',
      webhookPath: 'spec.postgresql.synchronous',
      message: `the Cluster webhook refuses failoverQuorum with synchronous.number ${synchronous.number}, not above the standby names listed (${synchronous.standbyNames}) (${webhookText('Invalid failoverQuorum configuration: spec.postgresql.synchronous.number must be greater than the total number of instances in spec.postgresql.synchronous.standbyNamesPre and spec.postgresql.synchronous.standbyNamesPost to allow automatic failover.')})`,
      fix: `set synchronous.number to at least ${synchronous.standbyNames + 1}, or turn failoverQuorum off`,
    },
  ];
}

/** The synchronous replication checks, in the webhook's order. @internal */
export const CLUSTER_SYNCHRONOUS_CHECKS: readonly AdmissionCheck[] = [
  { kind: 'Cluster', upstream: 'validateSynchronousReplicaConfiguration', check: synchronousReplicas },
  { kind: 'Cluster', upstream: 'validateFailoverQuorumAlphaAnnotation', check: failoverQuorumAnnotation },
  { kind: 'Cluster', upstream: 'validateFailoverQuorum', check: failoverQuorum },
];
