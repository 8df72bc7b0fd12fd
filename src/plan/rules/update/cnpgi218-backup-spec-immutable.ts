/*
 * Refused on update: the spec of an existing Backup changes.
 */
import type { RuleDefinition } from '../../../rules/rule';
import { CNPG_GROUP, PlanContext, changedFields } from '../../plan-model';

export const rule: RuleDefinition<PlanContext> = {
  id: 'CNPGI218',
  name: 'backup-spec-immutable',
  severities: [{ severity: 'error', when: 'A Backup of the same name has a different spec (one finding per deepest changed field).' }],
  what: 'The spec of an existing Backup changes.',
  why:
    'The CRD refuses it: "BackupSpec is immutable once set" (cloudnative-pg v1.30.0 api/v1/backup_types.go BackupSpec, rule `oldSelf == self`); ' +
    'the Backup webhook itself does not compare (internal/webhook/v1/backup_webhook.go ValidateUpdate).',
  fix: 'Give the Backup a new name (cdk8s-cnpg-i: a new id in `addBackup`); a Backup runs once.',
  kinds: ['Backup'],
  check(ctx, report) {
    for (const prev of ctx.previous.ofKind('Backup', CNPG_GROUP)) {
      const next = ctx.next.get(prev);
      if (!next) continue;
      for (const change of changedFields(prev.body.spec, next.body.spec, 'spec')) {
        report(
          'error',
          next,
          'changes its spec, which the CRD refuses: a Backup spec is immutable once set',
          `leave Backup '${prev.name}' as it is and add a Backup with another name`,
          change.path,
          { before: change.before, after: change.after },
        );
      }
    }
  },
};
