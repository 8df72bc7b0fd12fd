/*
 * What the kind of an object says about it: whether it is namespaced, and how the library names
 * an object in messages.
 */

/** Kinds that have no namespace (the doctor's index and the plan read namespaces the same way). @internal */
export const CLUSTER_SCOPED_KINDS: ReadonlySet<string> = new Set([
  'Namespace',
  'Node',
  'PersistentVolume',
  'ClusterRole',
  'ClusterRoleBinding',
  'CustomResourceDefinition',
  'ClusterIssuer',
  'StorageClass',
  'PriorityClass',
  'MutatingWebhookConfiguration',
  'ValidatingWebhookConfiguration',
  'ValidatingAdmissionPolicy',
  'ValidatingAdmissionPolicyBinding',
  'APIService',
  'IngressClass',
  'RuntimeClass',
  'CSIDriver',
  'CSINode',
  'VolumeAttachment',
  'VolumeSnapshotClass',
  'ClusterImageCatalog',
  'PodSecurityPolicy',
  'CertificateSigningRequest',
  'ComponentStatus',
]);

/** `Kind/namespace/name` for messages. */
export function refOf(kind: string, namespace: string | undefined, name: string): string {
  return namespace === undefined ? `${kind}/${name}` : `${kind}/${namespace}/${name}`;
}
