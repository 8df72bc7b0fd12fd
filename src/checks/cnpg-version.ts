/*
 * CloudNativePG versions and the behaviour that changed between them.
 */

/** The newest CloudNativePG version the doctor knows; the default target. */
export const DEFAULT_CNPG_VERSION = '1.30.0';

/** A parsed `major.minor.patch`. */
export type Version = readonly [number, number, number];

/** Parses `1.26.3`, `v1.27` or `1.28.0-rc1`; undefined when it is not a version. */
export function parseVersion(value: unknown): Version | undefined {
  if (typeof value !== 'string') return undefined;
  const m = /^v?(\d{1,4})\.(\d{1,4})(?:\.(\d{1,4}))?(?:[-+][0-9A-Za-z.-]+)?$/.exec(value.trim());
  if (!m) return undefined;
  return [Number(m[1]), Number(m[2]), m[3] === undefined ? 0 : Number(m[3])];
}

function atLeast(v: Version, min: Version): boolean {
  for (let i = 0; i < 3; i++) {
    if (v[i] !== min[i]) return v[i] > min[i];
  }
  return true;
}

/**
 * True when the version is at least the first of `mins` on its minor line, or the last one:
 * `backported(v, [1,26,3], [1,27,2], [1,28,0])` means 1.26.3+, 1.27.2+ and everything from 1.28.0.
 */
function backported(v: Version, ...mins: Version[]): boolean {
  const last = mins[mins.length - 1];
  if (atLeast(v, last)) return true;
  const line = mins.find((m) => m[0] === v[0] && m[1] === v[1]);
  return line !== undefined && atLeast(v, line);
}

/** `cnpg.io/pluginServerName` is honoured from 1.26.3, 1.27.2 and 1.28.0. */
export function supportsPluginServerName(v: Version): boolean {
  return backported(v, [1, 26, 3], [1, 27, 2], [1, 28, 0]);
}

/** The operator dials `<svc>.<ns>.svc:<port>` from 1.28.4, 1.29.2 and 1.30.0; `<svc>:<port>` before. */
export function dialsFullyQualified(v: Version): boolean {
  return backported(v, [1, 28, 4], [1, 29, 2], [1, 30, 0]);
}
