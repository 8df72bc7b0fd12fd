/*
 * The generated CloudNativePG bindings (imports/postgresql.cnpg.io.ts) name some fields other than
 * the CRD does (`enablePDB` is `enablePdb`, `pg_basebackup` is `pgBasebackup`). A construct runner
 * that passes a table case's JSON through a construct's typed props needs the bindings' names: read
 * from the `@schema Type#jsonName` comment above each field of the generated interfaces.
 */
import * as fs from 'fs';
import * as path from 'path';

interface Field {
  /** The field's name in the bindings. */
  readonly name: string;
  /** The generated type of its value (or of its items, or of its map values), when it is one. */
  readonly type?: string;
  /** The value is a map (`{ [key: string]: Type }`) of that type. */
  readonly map: boolean;
}

const BINDINGS = path.join(__dirname, '..', '..', 'imports', 'postgresql.cnpg.io.ts');
const FIELD = /@schema (\w+)#(\S+)\s*\n\s*\*\/\n\s*readonly (\w+)\??: ([^;]+);/g;

let fields: Map<string, Map<string, Field>> | undefined;

/** Every generated type's fields, by JSON name. */
function bindingFields(): Map<string, Map<string, Field>> {
  if (fields === undefined) {
    fields = new Map();
    for (const [, type, json, name, declared] of fs.readFileSync(BINDINGS, 'utf8').matchAll(FIELD)) {
      const m = /^(\{ \[key: string\]: )?(\w+)(?:\[\])?(?: \})?$/.exec(declared.trim());
      const child = m?.[2];
      if (!fields.has(type)) fields.set(type, new Map());
      fields.get(type)!.set(json, { name, type: child !== undefined && /^[A-Z]/.test(child) ? child : undefined, map: m?.[1] !== undefined });
    }
  }
  return fields;
}

/** Whether `type` is a generated object type (one with fields). */
export function isBindingType(type: string): boolean {
  return bindingFields().has(type);
}

/**
 * `value`, JSON of the generated type `type`, with the bindings' field names: what a caller of
 * the generated types writes. A key the type does not declare is kept as it is (the construct
 * then refuses it, as the bindings would drop it).
 */
export function toBindingNames(value: unknown, type: string): unknown {
  const own = bindingFields().get(type);
  if (Array.isArray(value)) return value.map((v) => toBindingNames(v, type));
  if (own === undefined || value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([k, v]) => {
      const field = own.get(k);
      if (field === undefined) return [k, v];
      if (field.type === undefined || !isBindingType(field.type)) return [field.name, v];
      if (!field.map || v === null || typeof v !== 'object' || Array.isArray(v)) return [field.name, toBindingNames(v, field.type)];
      return [field.name, Object.fromEntries(Object.entries(v).map(([key, item]) => [key, toBindingNames(item, field.type!)]))];
    }),
  );
}
