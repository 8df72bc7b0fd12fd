/*
 * The Cluster webhook's checks of where instances may run: `spec.affinity.tolerations` and
 * `spec.affinity.podAntiAffinityType` (cloudnative-pg v1.30.0
 * internal/webhook/v1/cluster_webhook.go validateTolerations, validateTaintEffect,
 * validateAntiAffinity). The CRD types these as plain strings, so only the webhook refuses a bad
 * value.
 */
import { describeValue } from '../../manifests/errors';
import { Json, asString, dig, objectsOf } from '../../manifests/json';
import { labelKeyProblems, labelValueProblems } from '../../manifests/k8s-names';
import type { CheckIssue } from '../issue';
import type { AdmissionCheck } from './admission-check';
import { webhookText } from './webhook-text';

const OPERATORS = ['Equal', 'Exists'];
const EFFECTS = ['NoSchedule', 'PreferNoSchedule', 'NoExecute'];
const quoted = (values: readonly string[]) => values.map((v) => JSON.stringify(v)).join(', ');

/**
 * validateTolerations: each toleration as Kubernetes validates a Pod's (the webhook carries over
 * that code). The webhook names the list `spec.affinity.toleration` (singular), and reports a bad
 * `value` at the toleration's `operator`.
 */
function tolerations(cluster: Json): CheckIssue[] {
  const out: CheckIssue[] = [];
  for (const { item, i } of objectsOf(dig(cluster, 'spec', 'affinity', 'tolerations'))) {
    const at = (field: string) => `spec.affinity.tolerations[${i}].${field}`;
    const webhookAt = (field: string) => `spec.affinity.toleration[${i}].${field}`;
    const issue = (field: string, webhookField: string, message: string, fix: string): CheckIssue => ({
      severity: 'error',
      path: at(field),
      webhookPath: webhookAt(webhookField),
      message,
      fix,
    });
    const key = asString(item.key) ?? '';
    const operator = asString(item.operator) ?? '';
    const value = asString(item.value) ?? '';
    const effect = asString(item.effect) ?? '';
    const name = `toleration ${i}`;
    for (const problem of key === '' ? [] : labelKeyProblems(key)) {
      out.push(
        issue(
          'key',
          'key',
          `the Cluster webhook refuses the key ${describeValue(key)} of ${name} (${webhookText(problem)}): a taint's key is a label key`,
          "write the taint's key, e.g. 'dedicated' or 'node-role.kubernetes.io/postgres'",
        ),
      );
    }
    if (key === '' && operator !== 'Exists') {
      out.push(
        issue(
          'operator',
          'operator',
          `the Cluster webhook refuses ${name}: it has no key and its operator is ${operator === '' ? 'empty (Equal)' : describeValue(operator)} (${webhookText('operator must be Exists when `key` is empty, which means "match all values and all keys"')})`,
          "name the taint's key, or use operator: Exists to tolerate every taint",
        ),
      );
    }
    if (item.tolerationSeconds !== undefined && item.tolerationSeconds !== null && effect !== 'NoExecute') {
      out.push(
        issue(
          'effect',
          'effect',
          `the Cluster webhook refuses tolerationSeconds on ${name}, whose effect is ${effect === '' ? 'empty (every effect)' : describeValue(effect)} (${webhookText("effect must be 'NoExecute' when `tolerationSeconds` is set")}): only a NoExecute taint evicts a running Pod, so only it has a time to wait`,
          'use effect: NoExecute, or leave tolerationSeconds out',
        ),
      );
    }
    if (operator === 'Equal' || operator === '') {
      const problems = labelValueProblems(value);
      if (problems.length > 0) {
        out.push(
          issue(
            'value',
            'operator',
            `the Cluster webhook refuses the value ${describeValue(value)} of ${name} (${webhookText(problems.join(';'))}): a taint's value is a label value`,
            "write the taint's value, e.g. 'postgres'",
          ),
        );
      }
    } else if (operator === 'Exists') {
      if (value !== '') {
        out.push(
          issue(
            'value',
            'operator',
            `the Cluster webhook refuses ${name}: its operator is Exists and its value is ${describeValue(value)} (${webhookText("value must be empty when `operator` is 'Exists'")})`,
            'leave value out with operator: Exists, or use operator: Equal to match that value',
          ),
        );
      }
    } else {
      out.push(
        issue(
          'operator',
          'operator',
          `the Cluster webhook refuses the operator ${describeValue(operator)} of ${name} (Unsupported value; supported values: ${quoted(OPERATORS)})`,
          'use operator: Equal (with a value) or operator: Exists',
        ),
      );
    }
    if (effect !== '' && !EFFECTS.includes(effect)) {
      out.push(
        issue(
          'effect',
          'effect',
          `the Cluster webhook refuses the effect ${describeValue(effect)} of ${name} (Unsupported value; supported values: ${quoted(EFFECTS)})`,
          'use NoSchedule, PreferNoSchedule or NoExecute, or leave effect out to tolerate every effect',
        ),
      );
    }
  }
  return out;
}

/** validateAntiAffinity: `podAntiAffinityType` is `preferred`, `required` or empty. */
function antiAffinity(cluster: Json): CheckIssue[] {
  const type = dig(cluster, 'spec', 'affinity', 'podAntiAffinityType');
  if (type === undefined || type === null || type === '' || type === 'preferred' || type === 'required') return [];
  return [
    {
      severity: 'error',
      path: 'spec.affinity.podAntiAffinityType',
      message: `the Cluster webhook refuses podAntiAffinityType ${describeValue(type)} (${webhookText("pod anti-affinity type must be 'preferred' (default if empty) or 'required'")})`,
      fix: "use 'preferred' (instances spread over nodes when they can) or 'required' (never two instances on one node), or leave it out for 'preferred'",
    },
  ];
}

/** The scheduling checks, in the webhook's order. @internal */
export const CLUSTER_SCHEDULING_CHECKS: readonly AdmissionCheck[] = [
  { kind: 'Cluster', upstream: 'validateTolerations', check: tolerations },
  { kind: 'Cluster', upstream: 'validateAntiAffinity', check: antiAffinity },
];
