/*
 * The Cluster webhook's checks of the volumes a Cluster asks for (cloudnative-pg v1.30.0
 * internal/webhook/v1/cluster_webhook.go): the size of the data, WAL and tablespace volumes, and
 * the ephemeral volume settings.
 */
import { describeValue } from '../../manifests/errors';
import { Json, asObject, dig, objectsOf } from '../../manifests/json';
import { quantitySign } from '../../manifests/quantity';
import type { CheckIssue } from '../issue';
import type { AdmissionCheck } from './admission-check';
import { goString, isSet } from './go-values';

/**
 * Whether a PVC template's storage request is zero as the webhook reads it
 * (`Resources.Requests.Storage().IsZero()`: absent is zero). A request that is no quantity at all
 * the API server refuses first (the CRD's pattern), so it is not read as zero here.
 */
function requestIsZero(template: unknown): boolean {
  const request = dig(template, 'resources', 'requests', 'storage');
  if (request === undefined || request === null) return true;
  if (typeof request === 'number') return request === 0;
  return typeof request === 'string' && quantitySign(request.trim()) === 0;
}

/**
 * validateStorageConfigurationSize: `size` is a quantity, and a volume has a size: `size`, or a
 * storage request in `pvcTemplate`. `path` is the storage stanza's JSON path, `webhookPath` where
 * the webhook's answer puts it when that differs.
 */
function storageSize(storage: unknown, path: string, what: string, webhookPath?: string): CheckIssue[] {
  const size = goString(dig(storage, 'size'));
  const answerPath = `${webhookPath ?? path}.size`;
  const at = webhookPath === undefined ? {} : { webhookPath: answerPath };
  const where = webhookPath === undefined ? '' : `, at ${answerPath}`;
  if (size !== '') {
    if (quantitySign(size) !== undefined) return [];
    return [
      {
        severity: 'error',
        path: `${path}.size`,
        ...at,
        message: `the Cluster webhook refuses ${what} size ${describeValue(size)} ("Size value isn't valid"${where}): it is no Kubernetes quantity`,
        fix: "write a quantity such as '10Gi' or '500M'",
      },
    ];
  }
  const template = dig(storage, 'pvcTemplate');
  if (isSet(template) && !requestIsZero(template)) return [];
  return [
    {
      severity: 'error',
      path: `${path}.size`,
      ...at,
      message: `the Cluster webhook refuses ${what} without a size ("Size not configured. Please add it, or a storage request in the pvcTemplate."${where}): the operator cannot create the volume`,
      fix: `set ${path}.size (e.g. '10Gi'), or a storage request in ${path}.pvcTemplate.resources.requests`,
    },
  ];
}

/** validateStorageSize: the data volume. */
function dataStorageSize(cluster: Json): CheckIssue[] {
  return storageSize(dig(cluster, 'spec', 'storage'), 'spec.storage', 'spec.storage');
}

/** validateWalStorageSize: the WAL volume, when the Cluster has one. */
function walStorageSize(cluster: Json): CheckIssue[] {
  const wal = dig(cluster, 'spec', 'walStorage');
  return isSet(wal) ? storageSize(wal, 'spec.walStorage', 'spec.walStorage') : [];
}

/** validateEphemeralVolumeSource: a custom ephemeral volume or a size limit for the temporary data, not both. */
function ephemeralVolumeSource(cluster: Json): CheckIssue[] {
  if (!isSet(dig(cluster, 'spec', 'ephemeralVolumeSource')) || !isSet(dig(cluster, 'spec', 'ephemeralVolumesSizeLimit', 'temporaryData'))) return [];
  return [
    {
      severity: 'error',
      path: 'spec.ephemeralVolumeSource',
      message:
        'the Cluster webhook refuses ephemeralVolumeSource beside ephemeralVolumesSizeLimit.temporaryData (Duplicate value: "Conflicting settings: provide either ephemeralVolumeSource or ephemeralVolumesSizeLimit.TemporaryData, not both."): both define the volume of the temporary data',
      fix: 'size the volume inside ephemeralVolumeSource and remove ephemeralVolumesSizeLimit.temporaryData, or remove ephemeralVolumeSource',
    },
  ];
}

/** validateTablespaceStorageSize: each tablespace's volume (the webhook says `spec.tablespaces[i].size`). */
function tablespaceStorageSize(cluster: Json): CheckIssue[] {
  return objectsOf(dig(cluster, 'spec', 'tablespaces')).flatMap(({ item, i }) =>
    storageSize(asObject(item.storage), `spec.tablespaces[${i}].storage`, `tablespace ${describeValue(goString(item.name))}`, `spec.tablespaces[${i}]`),
  );
}

/** The volume checks, in the webhook's order. @internal */
export const CLUSTER_STORAGE_CHECKS: readonly AdmissionCheck[] = [
  { kind: 'Cluster', upstream: 'validateStorageSize', check: dataStorageSize },
  { kind: 'Cluster', upstream: 'validateWalStorageSize', check: walStorageSize },
  { kind: 'Cluster', upstream: 'validateEphemeralVolumeSource', check: ephemeralVolumeSource },
  { kind: 'Cluster', upstream: 'validateTablespaceStorageSize', check: tablespaceStorageSize },
];
