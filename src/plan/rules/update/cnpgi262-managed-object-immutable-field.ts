/*
 * Refused on update: a field that the CRD of a Database, DatabaseRole, Publication, Subscription
 * or Pooler keeps fixed changes.
 */
import type { RuleDefinition } from '../../../rules/rule';
import { CNPG_GROUP, PlanContext, dig } from '../../plan-model';

/** The fields each CRD fixes with the transition rule `self == oldSelf`, under `spec`. */
const IMMUTABLE: ReadonlyArray<{ readonly kind: string; readonly fields: readonly string[] }> = [
  {
    kind: 'Database',
    fields: [
      'cluster',
      'name',
      'template',
      'encoding',
      'locale',
      'localeProvider',
      'localeCollate',
      'localeCType',
      'icuLocale',
      'icuRules',
      'builtinLocale',
      'collationVersion',
    ],
  },
  { kind: 'DatabaseRole', fields: ['cluster', 'name'] },
  { kind: 'Publication', fields: ['cluster', 'name', 'dbname', 'target.allTables'] },
  { kind: 'Subscription', fields: ['cluster', 'name', 'dbname'] },
  { kind: 'Pooler', fields: ['cluster', 'serviceAccountName'] },
];

export const rule: RuleDefinition<PlanContext> = {
  id: 'CNPGI262',
  name: 'managed-object-immutable-field',
  severities: [
    {
      severity: 'error',
      when: 'A field the CRD fixes is in both versions of the object and differs (a transition rule does not run when the field is added or removed).',
    },
  ],
  what:
    'The Cluster, the PostgreSQL name or another field fixed at creation changes on an existing Database (encoding, locale fields, template), ' +
    'DatabaseRole, Publication (dbname, target.allTables), Subscription (dbname) or Pooler (serviceAccountName).',
  why:
    'The CRDs hold these fields with the transition rule `self == oldSelf`, and the API server refuses the update: cloudnative-pg v1.30.0 ' +
    'api/v1/database_types.go DatabaseSpec, api/v1/databaserole_types.go DatabaseRoleSpec (`self.name == oldSelf.name`), ' +
    'api/v1/publication_types.go PublicationSpec and PublicationTarget, api/v1/subscription_types.go SubscriptionSpec, ' +
    'api/v1/pooler_types.go PoolerSpec. A GitOps sync then stays out of sync.',
  fix: 'Keep the old value; for another database, role or Cluster, write a new object with another name (and mind the reclaim policy of the old one).',
  kinds: IMMUTABLE.map((k) => k.kind),
  check(ctx, report) {
    for (const { kind, fields } of IMMUTABLE) {
      for (const prev of ctx.previous.ofKind(kind, CNPG_GROUP)) {
        const next = ctx.next.get(prev);
        if (!next) continue;
        for (const field of fields) {
          const path = ['spec', ...field.split('.')];
          const before = dig(prev.body, ...path);
          const after = dig(next.body, ...path);
          if (before === undefined || after === undefined || JSON.stringify(before) === JSON.stringify(after)) continue;
          const shown = (v: unknown) => (typeof v === 'object' && v !== null && 'name' in v ? (v as { name: unknown }).name : v);
          const sub = field === 'cluster' ? 'spec.cluster.name' : `spec.${field}`;
          report(
            'error',
            next,
            `changes from ${JSON.stringify(shown(before))} to ${JSON.stringify(shown(after))}, which the ${kind} CRD refuses: the field is immutable`,
            `keep \`${sub}: ${String(shown(before))}\`, or write a new ${kind} with another name`,
            sub,
            { before: shown(before) ?? null, after: shown(after) ?? null },
          );
        }
      }
    }
  },
};
