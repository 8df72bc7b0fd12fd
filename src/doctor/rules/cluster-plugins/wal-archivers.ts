/*
 * What the cluster-plugins rules (CNPGI041, CNPGI042, CNPGI046) share: the named entries of a
 * Cluster's `spec.plugins`, and which of them archive WAL.
 */
import { objectsOf, asString, Json } from '../../../manifests/json';

/** A `spec.plugins` entry that has a name (a nameless one is CNPGI039's). */
export interface NamedPlugin {
  readonly name: string;
  readonly i: number;
  readonly item: Json;
}

/** The named entries of `spec.plugins`, in order. */
export function namedPlugins(spec: Json): NamedPlugin[] {
  const out: NamedPlugin[] = [];
  for (const { item, i } of objectsOf(spec.plugins)) {
    const name = asString(item.name);
    if (name) out.push({ name, i, item });
  }
  return out;
}

/** The names of the enabled entries that set `isWALArchiver: true`, in order. */
export function walArchivers(spec: Json): string[] {
  return namedPlugins(spec)
    .filter((p) => p.item.enabled !== false && p.item.isWALArchiver === true)
    .map((p) => p.name);
}
