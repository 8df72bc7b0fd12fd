/*
 * CNPGI117: one object declared more than once with different content.
 */
import { declarationDifference } from '../../../manifests/manifest-index';
import type { RuleDefinition } from '../../../rules/rule';
import type { DoctorModel } from '../../model/doctor-model';

/** An object is declared twice with different content; identical repeats are one object. */
export const rule: RuleDefinition<DoctorModel> = {
  id: 'CNPGI117',
  name: 'conflicting-declarations',
  severities: [{ severity: 'warning', when: 'always: either declaration may be the one applied' }],
  what: 'The input declares one object (API group, kind, namespace, name) more than once with different content. Identical repeats, such as a release manifest beside the files it was built from, count as one object and are not reported.',
  why: 'The API server keeps one object per API group, kind, namespace and name: applying both declarations leaves the one applied last (`kubectl apply -f <folder>` goes through the files in name order). A kustomization refuses any resource it is given twice, even an identical one (kustomize v5.8.1 api/resmap/reswrangler.go resWrangler.Append, sigs.k8s.io/kustomize/api v0.21.1); the doctor reads files, not kustomizations. It checks every declaration, but only one of them takes effect.',
  fix: 'Keep one declaration: delete the stale copy, or leave the built file (or the files it was built from) out of the checked input.',
  kinds: ['*'],
  check(model, report) {
    for (const declarations of model.index.conflictingDeclarations()) {
      const [first, ...later] = declarations;
      for (const m of later) {
        const path = declarationDifference(first.raw, m.raw) ?? '';
        report(
          'warning',
          m,
          `is declared ${declarations.length} times with different content (this declaration differs from the first at ${path === '' ? 'the top level' : path}); only the one applied last takes effect`,
          'keep one declaration: delete the stale copy, or leave the built file or its sources out of the input',
          path === '' ? undefined : path,
        );
      }
    }
  },
};
