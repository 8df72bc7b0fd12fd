/*
 * What the admission rules' tests share: CloudNativePG objects as a user writes them, and the
 * findings of one rule over them.
 */
import { checkManifests } from '../../../../src/doctor/check-manifests';
import type { Finding } from '../../../../src/rules/finding';
import { ofRule } from '../../helpers';

/** An object of `kind` in the postgresql.cnpg.io group, namespace `app`. */
export function cnpg(kind: string, name: string, spec: Record<string, unknown>, metadata: Record<string, unknown> = {}): Record<string, unknown> {
  return { apiVersion: 'postgresql.cnpg.io/v1', kind, metadata: { name, namespace: 'app', ...metadata }, spec };
}

/** A Pooler `pg-pooler-rw` of the Cluster `pg`, with `spec` merged into a valid one. */
export function pooler(spec: Record<string, unknown> = {}, metadata: Record<string, unknown> = {}): Record<string, unknown> {
  return cnpg('Pooler', 'pg-pooler-rw', { cluster: { name: 'pg' }, instances: 1, type: 'rw', pgbouncer: { poolMode: 'session' }, ...spec }, metadata);
}

/** A Database `app` of the Cluster `pg`, with `spec` merged into a valid one. */
export function database(spec: Record<string, unknown> = {}): Record<string, unknown> {
  return cnpg('Database', 'app', { cluster: { name: 'pg' }, name: 'app', owner: 'app', ...spec });
}

/** The findings of rule `id` over `objects`. */
export function findingsOf(id: string, ...objects: unknown[]): Finding[] {
  return ofRule(checkManifests(objects), id);
}
