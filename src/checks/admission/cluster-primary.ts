/*
 * The Cluster webhook's checks of how a primary comes to be and stays one: the promotion token of
 * a replica cluster's demotion, and the primary's lease (cloudnative-pg v1.30.0
 * internal/webhook/v1/cluster_webhook.go validatePromotionToken, validatePrimaryLease).
 */
import { Json, asObject, asString, dig } from '../../manifests/json';
import type { CheckIssue } from '../issue';
import type { AdmissionCheck } from './admission-check';
import { isReplicaCluster } from './cluster-reading';
import { decodeGoStruct, readGoJson } from './go-json';

/** The fields of a promotion token, in the order the operator checks them (cloudnative-pg v1.30.0 pkg/utils/parser.go PgControldataTokenContent). */
const TOKEN_FIELDS = [
  ['latestCheckpointTimelineID', 'LatestCheckpointTimelineID'],
  ['redoWalFile', 'REDOWALFile'],
  ['databaseSystemIdentifier', 'DatabaseSystemIdentifier'],
  ['latestCheckpointREDOLocation', 'LatestCheckpointREDOLocation'],
  ['timeOfLatestCheckpoint', 'TimeOfLatestCheckpoint'],
  ['operatorVersion', 'OperatorVersion'],
] as const;

/**
 * Go's base64.StdEncoding.DecodeString: the standard alphabet with `=` padding to a multiple of
 * four, carriage returns and newlines ignored; `undefined` when it fails.
 */
function decodeStdBase64(text: string): Buffer | undefined {
  const s = text.replace(/[\r\n]/g, '');
  if (s.length % 4 !== 0 || !/^[A-Za-z0-9+/]*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(s)) return undefined;
  return Buffer.from(s, 'base64');
}

/** Why a promotion token fails, as the webhook says it (after "Invalid promotionToken "), or undefined. */
function tokenProblem(token: string): { readonly answer: string; readonly why: string } | undefined {
  const bytes = decodeStdBase64(token);
  if (bytes === undefined) {
    return {
      answer: '"Invalid promotionToken format: invalid promotion token (Base64 decoding failed): " and the decoder\'s error',
      why: 'the token is not standard, padded base64',
    };
  }
  const json = readGoJson(new TextDecoder().decode(bytes));
  const decoded =
    json === undefined
      ? undefined
      : decodeGoStruct(
          json,
          'utils.PgControldataTokenContent',
          TOKEN_FIELDS.map(([f]) => ({ json: f, type: 'string' })),
        );
  if (decoded === undefined) {
    return {
      answer: '"Invalid promotionToken format: invalid promotion token (JSON decoding failed): " and the decoder\'s error',
      why: 'the decoded token is not JSON',
    };
  }
  if (decoded.error !== undefined) {
    return {
      answer: `"Invalid promotionToken format: invalid promotion token (JSON decoding failed): ${decoded.error}"`,
      why: 'every field of the token is a string',
    };
  }
  const empty = TOKEN_FIELDS.find(([f]) => (decoded.values[f] ?? '') === '');
  if (empty === undefined) return undefined;
  return {
    answer: `"Invalid promotionToken content: invalid promotion token (${empty[1]} is empty)"`,
    why: `the token lacks ${empty[0]}`,
  };
}

const TOKEN_FIX = "use the token exactly as the demoted cluster's status.demotionToken shows it";

/**
 * validatePromotionToken: a promotion token (which a replica cluster being promoted waits for)
 * comes without a delay on applying WAL, on a Cluster that is no longer a replica, and is the
 * base64 JSON the demoted primary wrote with every field set.
 */
function promotionToken(cluster: Json): CheckIssue[] {
  const replica = asObject(dig(cluster, 'spec', 'replica'));
  const token = asString(replica?.promotionToken) ?? '';
  if (replica === undefined || token === '') return [];
  if (replica.minApplyDelay !== undefined && replica.minApplyDelay !== null) {
    return [
      {
        severity: 'error',
        path: 'spec.replica.minApplyDelay',
        webhookPath: 'spec.replicaCluster.minApplyDelay',
        message:
          'the Cluster webhook refuses minApplyDelay beside a promotion token ("minApplyDelay cannot be applied with a promotion token"): the promotion waits for the standby to replay the WAL up to the token, which the delay holds back',
        fix: 'remove spec.replica.minApplyDelay for the promotion',
      },
    ];
  }
  if (isReplicaCluster(cluster)) {
    return [
      {
        severity: 'error',
        path: 'spec.replica.promotionToken',
        webhookPath: 'spec.replicaCluster.token',
        message:
          'the Cluster webhook refuses a promotion token on a replica cluster ("promotionToken is only allowed for primary clusters"): the token is for the cluster being promoted',
        fix: 'promote the cluster together with the token (spec.replica.primary naming this cluster, or spec.replica.enabled: false), or remove the token',
      },
    ];
  }
  const problem = tokenProblem(token);
  if (problem === undefined) return [];
  return [
    {
      severity: 'error',
      path: 'spec.replica.promotionToken',
      webhookPath: 'spec.replicaCluster.token',
      message: `the Cluster webhook refuses this promotion token (${problem.answer}): ${problem.why}`,
      fix: TOKEN_FIX,
    },
  ];
}

/** The defaults of the lease timings (cloudnative-pg v1.30.0 api/v1 DefaultPrimaryLease*Seconds; the CRD's too). */
const LEASE_DEFAULTS = { leaseDurationSeconds: 15, renewDeadlineSeconds: 10, retryPeriodSeconds: 2 } as const;

/**
 * validatePrimaryLease: with `spec.primaryLease`, the lease lasts longer than the renew
 * deadline, and the renew deadline exceeds 1.2 retry periods (client-go's leader election
 * refuses other timings, which crash-loops the primary).
 */
function primaryLease(cluster: Json): CheckIssue[] {
  const lease = asObject(dig(cluster, 'spec', 'primaryLease'));
  if (lease === undefined) return [];
  const value = (k: keyof typeof LEASE_DEFAULTS) => (typeof lease[k] === 'number' ? (lease[k] as number) : LEASE_DEFAULTS[k]);
  const duration = value('leaseDurationSeconds');
  const renew = value('renewDeadlineSeconds');
  const retry = value('retryPeriodSeconds');
  const out: CheckIssue[] = [];
  if (duration <= renew) {
    out.push({
      severity: 'error',
      path: 'spec.primaryLease.leaseDurationSeconds',
      message: `the Cluster webhook refuses a lease of ${duration}s with a renew deadline of ${renew}s ("leaseDurationSeconds must be greater than renewDeadlineSeconds"): the primary must renew its lease before it expires`,
      fix: `make leaseDurationSeconds greater than ${renew}, or lower renewDeadlineSeconds`,
    });
  }
  if (5 * renew <= 6 * retry) {
    out.push({
      severity: 'error',
      path: 'spec.primaryLease.renewDeadlineSeconds',
      message: `the Cluster webhook refuses a renew deadline of ${renew}s with a retry period of ${retry}s ("renewDeadlineSeconds must be greater than retryPeriodSeconds multiplied by 1.2"): the primary must get to retry the renewal before the deadline`,
      fix: `make renewDeadlineSeconds greater than ${(retry * 6) / 5}, or lower retryPeriodSeconds`,
    });
  }
  return out;
}

/** The primary checks, in the webhook's order. @internal */
export const CLUSTER_PRIMARY_CHECKS: readonly AdmissionCheck[] = [
  { kind: 'Cluster', upstream: 'validatePromotionToken', check: promotionToken },
  { kind: 'Cluster', upstream: 'validatePrimaryLease', check: primaryLease },
];
