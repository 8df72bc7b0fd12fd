/*
 * CNPGI091: ignore annotations that name no rule, or a retired one.
 */
import type { RuleDefinition } from '../../../rules/rule';
import { IGNORE_ANNOTATION } from '../../../rules/suppressions';
import type { DoctorModel } from '../../model/doctor-model';

/** An ignore annotation names an id that is no rule of the doctor. */
export const rule: RuleDefinition<DoctorModel> = {
  id: 'CNPGI091',
  name: 'doctor-ignore-unknown-rule',
  severities: [{ severity: 'warning', when: 'always: the other ids of the annotation still apply' }],
  what: `The \`${IGNORE_ANNOTATION}\` annotation of an object names an id that is no rule of the doctor, or a retired one.`,
  why: 'A misspelled id silences nothing, so the finding it was meant to silence is still reported and the annotation reads as if it worked.',
  fix: 'Use the ids of `docs/doctor-rules.md`, comma-separated, e.g. `CNPGI027,CNPGI050`.',
  kinds: ['*'],
  check(model, report) {
    for (const m of model.index.all) {
      const ignore = model.ignores.get(m.raw);
      for (const u of ignore?.unknown ?? []) {
        const retired = model.rules.retiredRule(u.id);
        if (retired) {
          report(
            'warning',
            m,
            `annotation ${IGNORE_ANNOTATION} names '${u.id}', a retired rule (${retired.name}); ${retired.replacedBy} reports its problem now, and the old id silences nothing`,
            `write ${retired.replacedBy}, if every finding of that rule on this object is meant`,
            `metadata.annotations.${IGNORE_ANNOTATION}`,
          );
          continue;
        }
        report(
          'warning',
          m,
          `annotation ${IGNORE_ANNOTATION} names '${u.id}', which is no rule of the doctor${u.nearest ? ` (did you mean ${u.nearest}?)` : ''}; it silences nothing`,
          u.nearest ? `write ${u.nearest}` : 'remove it, or use an id from docs/doctor-rules.md',
          `metadata.annotations.${IGNORE_ANNOTATION}`,
        );
      }
    }
  },
};
