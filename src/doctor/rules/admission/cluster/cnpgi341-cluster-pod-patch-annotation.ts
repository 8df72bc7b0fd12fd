/*
 * CNPGI341: the Cluster webhook's check of the pod patch annotation.
 */
import type { RuleDefinition } from '../../../../rules/rule';
import type { DoctorModel } from '../../../model/doctor-model';
import { reportAdmission } from '../admission-inputs';

/** A Cluster's `cnpg.io/podPatch` annotation is not an RFC 6902 JSON patch, or does not apply to the instance Pod the operator builds (a `replace`, `remove` or `test` of a key that Pod does not have, an index past the end of a list, a path through a value that is not an object or list), or leaves a Pod that does not decode (a label value that is a number). */
export const rule: RuleDefinition<DoctorModel> = {
  id: 'CNPGI341',
  name: 'cluster-pod-patch-annotation',
  severities: [{ severity: 'error', when: 'always' }],
  what: "A Cluster's `cnpg.io/podPatch` annotation is not an RFC 6902 JSON patch, or does not apply to the instance Pod the operator builds (a `replace`, `remove` or `test` of a key that Pod does not have, an index past the end of a list, a path through a value that is not an object or list), or leaves a Pod that does not decode (a label value that is a number).",
  why: "The Cluster webhook decodes the patch and applies it to the first instance Pod of the Cluster, and refuses the Cluster when that fails (cloudnative-pg v1.30.0 internal/webhook/v1/cluster_webhook.go validatePodPatchAnnotation; cloudnative-pg v1.30.0 pkg/specs/pods.go buildInstance; evanphx/json-patch v5.9.11 DecodePatch, Patch.Apply). The doctor applies the patch to what is certain of that Pod (its metadata, which Pod spec fields the operator sets, its one container); an operation on what depends on the operator's configuration or on the container's lists is not judged, and of the patched Pod decoding back as a Pod only `metadata`, `spec` and `status` being objects and label and annotation values being strings are.",
  fix: 'Patch paths the instance Pod has: `add` creates a key of an existing object or appends to a list (`/-`); `replace`, `remove` and `test` need the key.',
  kinds: ['postgresql.cnpg.io/Cluster'],
  check: reportAdmission('Cluster', 'validatePodPatchAnnotation'),
};
