/*
 * PostgreSQL booleans as the operator reads a parameter (cloudnative-pg v1.30.0
 * pkg/postgres/booleans.go ParsePostgresConfigBoolean).
 */

const TRUE = new Set(['1', 'on', 'y', 'ye', 'yes', 't', 'tr', 'tru', 'true']);
const FALSE = new Set(['0', 'of', 'off', 'n', 'no', 'f', 'fa', 'fal', 'fals', 'false']);

/**
 * A PostgreSQL boolean (`on`, `off`, `true`, `false`, `yes`, `no`, `1`, `0`, any case, or an
 * unambiguous prefix), or `undefined` when the value is none.
 * @internal
 */
export function parsePostgresConfigBoolean(value: string): boolean | undefined {
  const v = value.toLowerCase();
  return TRUE.has(v) ? true : FALSE.has(v) ? false : undefined;
}
