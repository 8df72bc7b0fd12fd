/**
 * The library's model of the API server, as the doctor's admission rules and the constructs use
 * it: the CRD schema (the schema guard's `apiServerIssues`) and CloudNativePG's admission (`admit`:
 * CRD defaults, the defaulting webhook, every validating check). The control-plane suites compare
 * it with the real API server.
 */
import type { AdmissionKind } from '../../src/checks/admission/admission-check';
import { admissionErrors, admit } from '../../src/checks/admission/index';
import type { Json } from '../../src/manifests/json';
import { apiServerIssues } from '../../src/schema/guard';
import type { AdmissionResult, KubeObject } from './control-plane';

const CNPG_KINDS: ReadonlySet<string> = new Set(['Cluster', 'Backup', 'ScheduledBackup', 'Pooler', 'Database']);

/** What the model decides about one object. */
export interface ModelVerdict {
  readonly refused: boolean;
  /** The fields of the refusal (the webhook's names where they differ from the JSON ones). */
  readonly fields: readonly string[];
  readonly messages: readonly string[];
}

/** The model's verdict on a create of `object`. */
export function modelVerdict(object: KubeObject): ModelVerdict {
  const copy = JSON.parse(JSON.stringify(object)) as KubeObject;
  const schema = apiServerIssues(copy);
  const fields: string[] = schema.map((i) => i.path);
  const messages: string[] = schema.map((i) => `schema ${i.path}: ${i.message}`);
  if (copy.apiVersion === 'postgresql.cnpg.io/v1' && CNPG_KINDS.has(String(copy.kind))) {
    for (const i of admissionErrors(admit(copy.kind as AdmissionKind, copy as unknown as { [k: string]: Json }))) {
      fields.push(i.webhookPath ?? i.path);
      messages.push(`admission ${i.webhookPath ?? i.path}: ${i.message}`);
    }
  }
  return { refused: fields.length > 0, fields, messages };
}

/** The fields a real refusal names (its causes), without array-element brackets' quotes. */
export function realFields(r: AdmissionResult): string[] {
  return r.causes.map((c) => c.field ?? '').filter((f) => f !== '');
}

/** Both verdicts side by side, for a failure message. */
export function bothMessages(real: AdmissionResult, model: ModelVerdict): string {
  return `real: ${real.allowed ? 'allowed' : `refused: ${real.message}`}\nlibrary: ${model.refused ? `refused: ${model.messages.join(' | ')}` : 'allowed'}`;
}
