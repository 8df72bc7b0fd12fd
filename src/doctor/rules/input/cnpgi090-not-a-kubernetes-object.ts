/*
 * CNPGI090: documents of the input that are not Kubernetes objects.
 */
import type { RuleDefinition } from '../../../rules/rule';
import type { DoctorModel } from '../../model/doctor-model';

/** A document is not a Kubernetes object; it is skipped. */
export const rule: RuleDefinition<DoctorModel> = {
  id: 'CNPGI090',
  name: 'not-a-kubernetes-object',
  severities: [{ severity: 'warning', when: 'always: the document is skipped' }],
  what: 'A document is not a Kubernetes object (no `apiVersion`/`kind`, a scalar, a list).',
  why: 'It is skipped: nothing in it is checked, and `kubectl apply` refuses it.',
  fix: 'Remove it, or check that the right files were passed.',
  kinds: ['*'],
  check(model, report) {
    for (const odd of model.index.odd) {
      report(
        'warning',
        { ref: `document #${odd.index + 1}`, index: odd.index },
        `not a Kubernetes object (${odd.reason}); skipped`,
        'remove it, or check that the right files were passed',
      );
    }
  },
};
