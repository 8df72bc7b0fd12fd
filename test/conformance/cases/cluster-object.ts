/*
 * cloudnative-pg v1.30.0 internal/webhook/v1/cluster_webhook_test.go as data, the object as a
 * whole: validateName, the annotation checks (validateHibernationAnnotation,
 * validatePodPatchAnnotation, validateLivenessPingerProbe) and validateClusterChanges without an
 * old object.
 */
import { AdmissionCase, cluster } from '../case';

const POD_PATCH = 'cnpg.io/podPatch';
const LIVENESS_PINGER = 'alpha.cnpg.io/livenessPinger';

export const CLUSTER_OBJECT_CASES: readonly AdmissionCase[] = [
  // validateName
  {
    id: 'cluster/validateName/1',
    upstream: { file: 'cluster_webhook_test.go', line: 2331, describe: 'Cluster name validation', it: 'should be a valid DNS label' },
    function: 'validateName',
    kind: 'Cluster',
    input: cluster({}, { name: 'test.one' }),
    verdict: { errors: 'some' },
  },
  {
    id: 'cluster/validateName/2',
    upstream: { file: 'cluster_webhook_test.go', line: 2340, describe: 'Cluster name validation', it: 'should not be too long' },
    function: 'validateName',
    kind: 'Cluster',
    input: cluster({}, { name: 'abcdefghi'.repeat(9) }),
    verdict: { errors: 'some' },
  },
  {
    id: 'cluster/validateName/3',
    upstream: { file: 'cluster_webhook_test.go', line: 2357, describe: 'Cluster name validation', it: 'should not raise errors when the name is ok' },
    function: 'validateName',
    kind: 'Cluster',
    input: cluster({}, { name: 'abcdefghi'.repeat(4) }),
    verdict: { errors: 0 },
  },
  {
    id: 'cluster/validateName/4',
    upstream: {
      file: 'cluster_webhook_test.go',
      line: 2369,
      describe: 'Cluster name validation',
      it: 'should return errors when the name is not DNS-1035 compliant',
    },
    function: 'validateName',
    kind: 'Cluster',
    input: cluster({}, { name: '4b96d026-a956-47eb-bae8-a99b840805c3' }),
    verdict: { errors: 'some' },
  },
  {
    id: 'cluster/validateName/5',
    upstream: {
      file: 'cluster_webhook_test.go',
      line: 2378,
      describe: 'Cluster name validation',
      it: 'should return errors when the name length is greater than 50',
    },
    function: 'validateName',
    kind: 'Cluster',
    input: cluster({}, { name: 'toomuchlong'.repeat(4) + '-after4times' }),
    verdict: { errors: 'some' },
  },
  {
    id: 'cluster/validateName/6',
    upstream: { file: 'cluster_webhook_test.go', line: 2387, describe: 'Cluster name validation', it: 'should return errors when having a name with dots' },
    function: 'validateName',
    kind: 'Cluster',
    input: cluster({}, { name: 'wrong.name' }),
    verdict: { errors: 'some' },
  },
  // validateClusterChanges without an old object
  {
    id: 'cluster/validateClusterChanges/4',
    upstream: { file: 'cluster_webhook_test.go', line: 3533, describe: 'Validation changes', it: "doesn't complain if given old cluster is nil" },
    function: 'validateClusterChanges',
    kind: 'Cluster',
    input: cluster(),
    verdict: { errors: 0 },
    note: 'No old object: the update checks are skipped.',
  },
  // validateHibernationAnnotation
  {
    id: 'cluster/validateHibernationAnnotation/1',
    upstream: { file: 'cluster_webhook_test.go', line: 5379, describe: 'Validate hibernation', it: "should succeed if hibernation is set to 'on'" },
    function: 'validateHibernationAnnotation',
    kind: 'Cluster',
    input: cluster({}, { annotations: { 'cnpg.io/hibernation': 'on' } }),
    verdict: { errors: 0 },
  },
  {
    id: 'cluster/validateHibernationAnnotation/2',
    upstream: { file: 'cluster_webhook_test.go', line: 5390, describe: 'Validate hibernation', it: "should succeed if hibernation is set to 'off'" },
    function: 'validateHibernationAnnotation',
    kind: 'Cluster',
    input: cluster({}, { annotations: { 'cnpg.io/hibernation': 'off' } }),
    verdict: { errors: 0 },
  },
  {
    id: 'cluster/validateHibernationAnnotation/3',
    upstream: { file: 'cluster_webhook_test.go', line: 5401, describe: 'Validate hibernation', it: 'should fail if hibernation is set to an invalid value' },
    function: 'validateHibernationAnnotation',
    kind: 'Cluster',
    input: cluster({}, { annotations: { 'cnpg.io/hibernation': '' } }),
    verdict: { errors: 1 },
  },
  // validatePodPatchAnnotation
  {
    id: 'cluster/validatePodPatchAnnotation/1',
    upstream: { file: 'cluster_webhook_test.go', line: 5628, describe: 'validatePodPatchAnnotation', it: 'returns nil if the annotation is not present' },
    function: 'validatePodPatchAnnotation',
    kind: 'Cluster',
    input: cluster({}, { annotations: {} }),
    verdict: { errors: 0 },
  },
  {
    id: 'cluster/validatePodPatchAnnotation/2',
    upstream: {
      file: 'cluster_webhook_test.go',
      line: 5633,
      describe: 'validatePodPatchAnnotation',
      it: 'returns an error if decoding the JSON patch fails to decode',
    },
    function: 'validatePodPatchAnnotation',
    kind: 'Cluster',
    input: cluster({}, { annotations: { [POD_PATCH]: 'invalid-json-patch' } }),
    verdict: {
      errors: 1,
      paths: [`metadata.annotations.${POD_PATCH}`],
      details: [{ index: 0, path: `metadata.annotations.${POD_PATCH}`, reason: 'FieldValueInvalid', messageContains: ['error decoding JSON patch'] }],
    },
  },
  {
    id: 'cluster/validatePodPatchAnnotation/3',
    upstream: {
      file: 'cluster_webhook_test.go',
      line: 5649,
      describe: 'validatePodPatchAnnotation',
      it: 'returns an error if decoding the JSON patch fails to apply',
    },
    function: 'validatePodPatchAnnotation',
    kind: 'Cluster',
    input: cluster({}, { annotations: { [POD_PATCH]: '[{"op": "replace", "path": "/spec/podInvalidSection", "value": "test"}]' } }),
    verdict: {
      errors: 1,
      paths: [`metadata.annotations.${POD_PATCH}`],
      details: [
        { index: 0, path: `metadata.annotations.${POD_PATCH}`, reason: 'FieldValueInvalid', messageContains: ["jsonpatch doesn't apply cleanly to the pod"] },
      ],
    },
    note:
      'The patch is applied to the instance Pod the operator would build for this Cluster; a replace needs an existing path, ' +
      'and no Pod has /spec/podInvalidSection.',
  },
  {
    id: 'cluster/validatePodPatchAnnotation/4',
    upstream: {
      file: 'cluster_webhook_test.go',
      line: 5665,
      describe: 'validatePodPatchAnnotation',
      it: 'returns nil if the JSON patch is decoded successfully',
    },
    function: 'validatePodPatchAnnotation',
    kind: 'Cluster',
    input: cluster({}, { annotations: { [POD_PATCH]: '[{"op": "replace", "path": "/metadata/name", "value": "test"}]' } }),
    verdict: { errors: 0 },
  },
  // validateLivenessPingerProbe
  {
    id: 'cluster/validateLivenessPingerProbe/1',
    upstream: {
      file: 'cluster_webhook_test.go',
      line: 5735,
      describe: 'liveness probe validation',
      it: 'returns no errors if the liveness pinger annotation is not present',
    },
    function: 'validateLivenessPingerProbe',
    kind: 'Cluster',
    input: cluster({}, { annotations: {} }),
    verdict: { errors: 0 },
  },
  {
    id: 'cluster/validateLivenessPingerProbe/2',
    upstream: {
      file: 'cluster_webhook_test.go',
      line: 5744,
      describe: 'liveness probe validation',
      it: 'returns no errors if the liveness pinger annotation is valid',
    },
    function: 'validateLivenessPingerProbe',
    kind: 'Cluster',
    input: cluster({}, { annotations: { [LIVENESS_PINGER]: '{"connectionTimeout": 1000, "requestTimeout": 5000, "enabled": true}' } }),
    verdict: { errors: 0 },
  },
  {
    id: 'cluster/validateLivenessPingerProbe/3',
    upstream: {
      file: 'cluster_webhook_test.go',
      line: 5755,
      describe: 'liveness probe validation',
      it: 'returns an error if the liveness pinger annotation is invalid',
    },
    function: 'validateLivenessPingerProbe',
    kind: 'Cluster',
    input: cluster({}, { annotations: { [LIVENESS_PINGER]: '{"requestTimeout": 5000}' } }),
    verdict: { errors: 1, details: [{ index: 0, messageContains: ['error decoding liveness pinger config'] }] },
    note: 'Valid JSON, but without the required `enabled` field.',
  },
];
