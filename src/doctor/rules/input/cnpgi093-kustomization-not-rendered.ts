/*
 * CNPGI093: a kustomize folder read file by file instead of rendered.
 */
import type { RuleDefinition } from '../../../rules/rule';
import type { DoctorModel } from '../../model/doctor-model';

/** A kustomization file is in the input: its folder was not rendered. */
export const rule: RuleDefinition<DoctorModel> = {
  id: 'CNPGI093',
  name: 'kustomization-not-rendered',
  severities: [{ severity: 'warning', when: 'always: the objects of its folder are judged as written, not as kustomize renders them' }],
  what: 'The input holds a kustomize Kustomization or Component (`kustomize.config.k8s.io`): its folder was read file by file, not rendered.',
  why:
    'kustomize applies the namespace, name prefixes and suffixes, labels, images, patches and generators a kustomization lists before anything reaches the cluster ' +
    '(kustomize api v0.21.1 api/krusty/kustomizer.go Run); the files as written are not the objects applied, and its patches are not whole objects. ' +
    'The CLI renders such a folder with `kustomize build` or `kubectl kustomize` when one is on the PATH, and otherwise reads the files but for the patches.',
  fix: 'Install kustomize or kubectl, or render the folder and pipe it: `kustomize build DIR | cnpg-i-doctor -`.',
  kinds: ['Kustomization', 'Component'],
  check(model, report) {
    for (const k of model.index.kustomizeFiles) {
      report(
        'warning',
        { ref: `${k.kind} (kustomize) document #${k.index + 1}`, index: k.index },
        `this kustomize ${k.kind} was not rendered: the files of its folder were read one by one (its patches left out), not as kustomize builds them`,
        'render it and pipe the output: kustomize build DIR | cnpg-i-doctor - (or install kustomize or kubectl for the doctor to run it)',
      );
    }
  },
};
