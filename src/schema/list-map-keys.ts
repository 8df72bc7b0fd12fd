/**
 * The one check of `x-kubernetes-list-type: map` that JSON Schema cannot say: no two items of
 * the list have the same values for the `x-kubernetes-list-map-keys`
 * (kubernetes/apiextensions-apiserver v0.32.13 pkg/apiserver/schema/listtype/validation.go
 * `ValidateListSetsAndMaps`). Used by the `k8sListMapKeys` ajv keyword, both when ajv compiles a
 * schema at run time and from the validators `npm run import` generates ahead of time, so it
 * must stay free of heavy imports.
 */

/** For each item whose keys repeat an earlier item's, the pair `[first, duplicate]` of indexes. */
export function duplicateListMapKeys(data: readonly unknown[], keys: readonly string[]): [number, number][] {
  const seen = new Map<string, number>();
  const out: [number, number][] = [];
  for (let i = 0; i < data.length; i++) {
    const item = data[i];
    if (item === null || typeof item !== 'object') continue;
    const id = JSON.stringify(keys.map((k) => (item as Record<string, unknown>)[k] ?? null));
    const first = seen.get(id);
    if (first === undefined) seen.set(id, i);
    else out.push([first, i]);
  }
  return out;
}
