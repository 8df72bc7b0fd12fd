/*
 * What the backup-plugins rules (CNPGI044, CNPGI045, CNPGI047) share: how a Backup or
 * ScheduledBackup asks for a plugin.
 */
import { asString, asObject, Json } from '../../../manifests/json';
import type { Manifest } from '../../../manifests/manifest-index';
import type { DoctorModel } from '../../model/doctor-model';

/** A Backup or ScheduledBackup of CloudNativePG, with its method after the CRD default. */
export interface BackupRequest {
  readonly object: Manifest;
  readonly kind: 'Backup' | 'ScheduledBackup';
  readonly spec: Json;
  /** `spec.method`, else the CRD default `barmanObjectStore`. */
  readonly method: string;
  readonly pluginConfiguration?: Json;
}

/** The Backups or ScheduledBackups of the input that have a spec. */
export function backupRequests(model: DoctorModel, kind: 'Backup' | 'ScheduledBackup'): BackupRequest[] {
  const out: BackupRequest[] = [];
  for (const object of model.index.ofKind(kind, 'postgresql.cnpg.io')) {
    const spec = asObject(object.raw.spec);
    if (!spec) continue;
    out.push({ object, kind, spec, method: asString(spec.method) ?? 'barmanObjectStore', pluginConfiguration: asObject(spec.pluginConfiguration) });
  }
  return out;
}

/** Whether a plugin backup names no plugin. */
export function namesNoPlugin(b: BackupRequest): boolean {
  return b.method === 'plugin' && !asString(b.pluginConfiguration?.name);
}
