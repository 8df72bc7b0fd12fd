/*
 * Data loss without any deletion: an existing Database is switched to `ensure: absent`.
 */
import type { RuleDefinition } from '../../../rules/rule';
import { CNPG_GROUP, PlanContext, asString, dig } from '../../plan-model';

export const rule: RuleDefinition<PlanContext> = {
  id: 'CNPGI263',
  name: 'database-ensure-absent',
  severities: [{ severity: 'error', when: 'A Database present in both sets had `ensure: present` (the CRD default) and now has `ensure: absent`.' }],
  what: 'An existing Database object asks for its database to be absent.',
  why:
    'With `ensure: absent` the instance manager drops the database at the next reconciliation, whatever the reclaim policy ' +
    '(cloudnative-pg v1.30.0 internal/management/controller/database_controller.go reconcileDatabaseResource, which calls dropDatabase).',
  fix: 'Keep `ensure: present`; drop a database deliberately, after a backup, outside routine GitOps changes.',
  kinds: ['Database'],
  check(ctx, report) {
    for (const prev of ctx.previous.ofKind('Database', CNPG_GROUP)) {
      const next = ctx.next.get(prev);
      if (!next) continue;
      const before = asString(dig(prev.body, 'spec', 'ensure')) ?? 'present';
      const after = asString(dig(next.body, 'spec', 'ensure')) ?? 'present';
      if (before !== 'present' || after !== 'absent') continue;
      report(
        'error',
        next,
        `switches to ensure: absent: the operator drops the database '${asString(dig(next.body, 'spec', 'name')) ?? next.name}' and its data`,
        'keep `spec.ensure: present`',
        'spec.ensure',
        { before, after },
      );
    }
  },
};
