/*
 * The Database webhook (cloudnative-pg v1.30.0 internal/webhook/v1/database_webhook.go
 * DatabaseCustomValidator.validate): validateExtensions, validateSchemas, validateFDWs and
 * validateForeignServers, on the object as the API server leaves it (its defaulting webhook
 * changes nothing; the CRD gives each entry `ensure: present`). It has no warnings, and its
 * update check (validateDatabaseChanges) returns nothing: the CRD's transition rules keep the
 * database's name, owner cluster and locale fixed.
 */
import { Json, asString, dig, objectsOf } from '../../manifests/json';
import type { CheckIssue } from '../issue';
import type { AdmissionCheck } from './admission-check';

/** One list the webhook looks for repeated names in. */
interface NamedList {
  /** The JSON path of the list, e.g. `spec.fdws[0].usage`. */
  readonly path: string;
  /** The path the webhook names, where it differs (it says `usages` for the JSON field `usage`). */
  readonly webhookPath?: string;
  /** What an entry is, for the message: `extension`, `option of foreign data wrapper 'x'`. */
  readonly entry: string;
}

/** The name of an entry as Go reads it: `''` when it is not a string. */
const nameOf = (item: Json): string => asString(item.name) ?? '';

/**
 * Every entry of `list` whose name an earlier entry has (Go: a `field.Duplicate` at
 * `<path>[i].name`), with the position of the first one for the fix.
 */
function duplicates(value: unknown, list: NamedList): CheckIssue[] {
  const first = new Map<string, number>();
  const issues: CheckIssue[] = [];
  for (const { item, i } of objectsOf(value)) {
    const name = nameOf(item);
    const earlier = first.get(name);
    if (earlier === undefined) {
      first.set(name, i);
      continue;
    }
    const webhookPath = list.webhookPath === undefined ? undefined : `${list.webhookPath}[${i}].name`;
    issues.push({
      severity: 'error',
      path: `${list.path}[${i}].name`,
      ...(webhookPath === undefined ? {} : { webhookPath }),
      message: `the Database webhook refuses a second ${list.entry} named '${name}' (${webhookPath ?? `${list.path}[${i}].name`}: Duplicate value: ${JSON.stringify(name)}): the operator manages each name once`,
      fix: `remove ${list.path}[${i}], or merge it into ${list.path}[${earlier}]`,
    });
  }
  return issues;
}

/** validateExtensions: no two extensions of one name. */
function extensions(database: Json): CheckIssue[] {
  return duplicates(dig(database, 'spec', 'extensions'), { path: 'spec.extensions', entry: 'extension' });
}

/** validateSchemas: no two schemas of one name. */
function schemas(database: Json): CheckIssue[] {
  return duplicates(dig(database, 'spec', 'schemas'), { path: 'spec.schemas', entry: 'schema' });
}

/**
 * The options and usages of one foreign data wrapper or server (validateNameOptionsUsages, after
 * its own name, which the caller checks across the list).
 */
function optionsAndUsages(item: Json, path: string, what: string): CheckIssue[] {
  return [
    ...duplicates(item.options, { path: `${path}.options`, entry: `option of ${what}` }),
    ...duplicates(item.usage, { path: `${path}.usage`, webhookPath: `${path}.usages`, entry: `usage of ${what}` }),
  ];
}

/**
 * The entries of a list of foreign data wrappers or servers in the webhook's order: for each
 * entry, `before` (the server's reference), its name against the entries before it, then its
 * options and usages.
 */
function namedWithOptions(value: unknown, path: string, entry: string, before: (item: Json, at: string) => CheckIssue[]): CheckIssue[] {
  const issues: CheckIssue[] = [];
  const names = duplicates(value, { path, entry });
  for (const { item, i } of objectsOf(value)) {
    const at = `${path}[${i}]`;
    issues.push(...before(item, at), ...names.filter((n) => n.path === `${at}.name`));
    issues.push(...optionsAndUsages(item, at, `${entry} '${nameOf(item)}'`));
  }
  return issues;
}

/** validateFDWs: no two foreign data wrappers of one name, nor two options or usages of one name in a wrapper. */
function fdws(database: Json): CheckIssue[] {
  return namedWithOptions(dig(database, 'spec', 'fdws'), 'spec.fdws', 'foreign data wrapper', () => []);
}

/**
 * validateForeignServers: each server that is not to be dropped names a wrapper of `spec.fdws`
 * (validateServerFDWReference), and the duplicates of validateFDWs.
 */
function foreignServers(database: Json): CheckIssue[] {
  const wrappers = new Set(objectsOf(dig(database, 'spec', 'fdws')).map(({ item }) => nameOf(item)));
  const reference = (server: Json, at: string): CheckIssue[] => {
    const fdw = asString(server.fdw) ?? '';
    if (server.ensure === 'absent' || wrappers.has(fdw)) return [];
    const declared = [...wrappers].filter((w) => w !== '');
    return [
      {
        severity: 'error',
        path: `${at}.fdw`,
        message: `the Database webhook refuses foreign server '${nameOf(server)}' on foreign data wrapper '${fdw}' ("referenced fdw not defined in spec.fdws"): the Database declares no such wrapper`,
        fix:
          declared.length > 0
            ? `name one of the wrappers of spec.fdws (${declared.map((w) => `'${w}'`).join(', ')})${fdw === '' ? '' : `, or add { name: '${fdw}' } to spec.fdws`}`
            : fdw === ''
              ? "add a foreign data wrapper to spec.fdws, e.g. { name: 'postgres_fdw' }, and name it in fdw"
              : `add { name: '${fdw}' } to spec.fdws`,
      },
    ];
  };
  return namedWithOptions(dig(database, 'spec', 'servers'), 'spec.servers', 'foreign server', reference);
}

/**
 * The Database webhook, one check per function of its `validate`, in its order.
 * @internal
 */
export const DATABASE_CHECKS: readonly AdmissionCheck[] = [
  { kind: 'Database', upstream: 'validateExtensions', check: extensions },
  { kind: 'Database', upstream: 'validateSchemas', check: schemas },
  { kind: 'Database', upstream: 'validateFDWs', check: fdws },
  { kind: 'Database', upstream: 'validateForeignServers', check: foreignServers },
];
