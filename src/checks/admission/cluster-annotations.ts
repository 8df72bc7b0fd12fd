/*
 * The Cluster webhook's checks of the annotations the operator reads (cloudnative-pg v1.30.0
 * internal/webhook/v1/cluster_webhook.go validateHibernationAnnotation,
 * validatePodPatchAnnotation, validateLivenessPingerProbe).
 */
import { describeValue } from '../../manifests/errors';
import { Json, asObject, dig } from '../../manifests/json';
import type { CheckIssue } from '../issue';
import type { AdmissionCheck } from './admission-check';
import { decodeGoStruct, readGoJson } from './go-json';
import { instancePod, podDecodeProblem } from './instance-pod';
import { applyPatch, decodePatch } from './json-patch';

const HIBERNATION = 'cnpg.io/hibernation';
const POD_PATCH = 'cnpg.io/podPatch';
const LIVENESS_PINGER = 'alpha.cnpg.io/livenessPinger';

/** An annotation of the Cluster: its value when it is there (a string, as the API server requires). */
function annotation(cluster: Json, key: string): string | undefined {
  const annotations = asObject(dig(cluster, 'metadata', 'annotations'));
  if (annotations === undefined || !Object.prototype.hasOwnProperty.call(annotations, key)) return undefined;
  const v = annotations[key];
  return typeof v === 'string' ? v : undefined;
}

/** validateHibernationAnnotation: `cnpg.io/hibernation`, when present, is `on` or `off`. */
function hibernation(cluster: Json): CheckIssue[] {
  const value = annotation(cluster, HIBERNATION);
  if (value === undefined || value === 'on' || value === 'off') return [];
  return [
    {
      severity: 'error',
      path: `metadata.annotations.${HIBERNATION}`,
      message: `the Cluster webhook refuses ${HIBERNATION}: ${describeValue(value)} ('Annotation value for hibernation should be "on" or "off"')`,
      fix: "write 'on' to hibernate the Cluster, 'off' to wake it, or remove the annotation",
    },
  ];
}

/**
 * validatePodPatchAnnotation: `cnpg.io/podPatch`, when present, is an RFC 6902 JSON patch that
 * applies to the instance Pod the operator builds for the Cluster. The patch is applied to what
 * the library knows of that Pod (./instance-pod.ts); where it reaches beyond that, it is not
 * judged.
 */
function podPatch(cluster: Json): CheckIssue[] {
  const value = annotation(cluster, POD_PATCH);
  if (value === undefined) return [];
  const path = `metadata.annotations.${POD_PATCH}`;
  const decoded = decodePatch(value);
  if (!decoded.ok) {
    return [
      {
        severity: 'error',
        path,
        message: `the Cluster webhook refuses ${POD_PATCH} ("error decoding JSON patch: ${decoded.error}"): the value must be a JSON array of RFC 6902 operations`,
        fix: 'write a JSON patch such as [{"op": "add", "path": "/metadata/labels/team", "value": "db"}]',
      },
    ];
  }
  const pod = instancePod(cluster);
  const outcome = applyPatch(pod, decoded.operations);
  if (outcome.applies === false) {
    return [
      {
        severity: 'error',
        path,
        message: `the Cluster webhook refuses ${POD_PATCH} ("jsonpatch doesn't apply cleanly to the pod: while applying JSON patch from annotation: ${outcome.error}"): the webhook applies the patch to the instance Pod the operator builds for this Cluster, and the operator would fail the same way for every instance`,
        fix: "patch paths the instance Pod has: 'add' creates a key of an existing object (or appends with '/-'), while 'replace', 'remove' and 'test' need the key to exist",
      },
    ];
  }
  const problem = outcome.applies === true ? podDecodeProblem(pod) : undefined;
  if (problem === undefined) return [];
  return [
    {
      severity: 'error',
      path,
      message: `the Cluster webhook refuses ${POD_PATCH} ("jsonpatch doesn't apply cleanly to the pod: while deserializing pod to JSON: " and the JSON decoder's error): the patch applies, but ${problem}`,
      fix: 'write values of the type the Pod field has (quote a number or boolean meant as a label or annotation value)',
    },
  ];
}

/**
 * validateLivenessPingerProbe: `alpha.cnpg.io/livenessPinger`, when present, is the JSON of an
 * isolation check configuration with `enabled` set (cloudnative-pg v1.30.0 api/v1
 * cluster_defaults.go NewLivenessPingerConfigFromAnnotations).
 */
function livenessPinger(cluster: Json): CheckIssue[] {
  const value = annotation(cluster, LIVENESS_PINGER);
  if (value === undefined) return [];
  const json = readGoJson(value);
  let detail: string | undefined;
  let why: string;
  if (json === undefined) {
    why = 'the value is not JSON';
  } else {
    const decoded = decodeGoStruct(json, 'v1.IsolationCheckConfiguration', [
      { json: 'enabled', type: 'bool' },
      { json: 'requestTimeout', type: 'int' },
      { json: 'connectionTimeout', type: 'int' },
    ]);
    if (decoded.error !== undefined) {
      detail = `while unmarshalling pinger config: ${decoded.error}`;
      why = 'enabled is a boolean, requestTimeout and connectionTimeout whole milliseconds';
    } else if (decoded.values.enabled === undefined) {
      detail = 'pinger config is missing the enabled field';
      why = 'the configuration must say whether the isolation check is enabled';
    } else {
      return [];
    }
  }
  const answer =
    detail === undefined
      ? '"error decoding liveness pinger config: while unmarshalling pinger config: " and the JSON error'
      : `"error decoding liveness pinger config: ${detail}"`;
  return [
    {
      severity: 'error',
      path: `metadata.annotations.${LIVENESS_PINGER}`,
      message: `the Cluster webhook refuses ${LIVENESS_PINGER} (${answer}): ${why}`,
      fix: 'write JSON such as {"enabled": true, "requestTimeout": 1000, "connectionTimeout": 1000}, or configure spec.probes.liveness.isolationCheck instead',
    },
  ];
}

/** The annotation checks, in the webhook's order. @internal */
export const CLUSTER_ANNOTATION_CHECKS: readonly AdmissionCheck[] = [
  { kind: 'Cluster', upstream: 'validateHibernationAnnotation', check: hibernation },
  { kind: 'Cluster', upstream: 'validatePodPatchAnnotation', check: podPatch },
  { kind: 'Cluster', upstream: 'validateLivenessPingerProbe', check: livenessPinger },
];
