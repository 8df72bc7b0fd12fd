/*
 * CNPGI090, CNPGI091: the input itself: documents that are not Kubernetes objects, and ignore
 * annotations that name no rule.
 */
import { IGNORE_ANNOTATION } from '../../rules/suppressions';
import { retiredRule } from './retired';
import { defineFamily } from './rule';

/** The rules about the input. */
export const inputRules = defineFamily({
  rules: [
    {
      id: 'CNPGI090',
      name: 'not-a-kubernetes-object',
      severities: [{ severity: 'warning', when: 'always: the document is skipped' }],
      what: 'A document is not a Kubernetes object (no `apiVersion`/`kind`, a scalar, a list).',
      why: 'It is skipped: nothing in it is checked, and `kubectl apply` refuses it.',
      fix: 'Remove it, or check that the right files were passed.',
      kinds: ['*'],
    },
    {
      id: 'CNPGI091',
      name: 'doctor-ignore-unknown-rule',
      severities: [{ severity: 'warning', when: 'always: the other ids of the annotation still apply' }],
      what: `The \`${IGNORE_ANNOTATION}\` annotation of an object names an id that is no rule of the doctor, or a retired one.`,
      why: 'A misspelled id silences nothing, so the finding it was meant to silence is still reported and the annotation reads as if it worked.',
      fix: 'Use the ids of `docs/doctor-rules.md`, comma-separated, e.g. `CNPGI027,CNPGI050`.',
      kinds: ['*'],
    },
  ],
  check(model, report) {
    for (const odd of model.index.odd) {
      report(
        'CNPGI090',
        'warning',
        { ref: `document #${odd.index + 1}`, index: odd.index },
        `not a Kubernetes object (${odd.reason}); skipped`,
        'remove it, or check that the right files were passed',
      );
    }
    for (const m of model.index.all) {
      const ignore = model.ignores.get(m.raw);
      for (const u of ignore?.unknown ?? []) {
        const retired = retiredRule(u.id);
        if (retired) {
          report(
            'CNPGI091',
            'warning',
            m,
            `annotation ${IGNORE_ANNOTATION} names '${u.id}', a retired rule (${retired.name}); ${retired.replacedBy} reports its problem now, and the old id silences nothing`,
            `write ${retired.replacedBy}, if every finding of that rule on this object is meant`,
            `metadata.annotations.${IGNORE_ANNOTATION}`,
          );
          continue;
        }
        report(
          'CNPGI091',
          'warning',
          m,
          `annotation ${IGNORE_ANNOTATION} names '${u.id}', which is no rule of the doctor${u.nearest ? ` (did you mean ${u.nearest}?)` : ''}; it silences nothing`,
          u.nearest ? `write ${u.nearest}` : 'remove it, or use an id from docs/doctor-rules.md',
          `metadata.annotations.${IGNORE_ANNOTATION}`,
        );
      }
    }
  },
});
