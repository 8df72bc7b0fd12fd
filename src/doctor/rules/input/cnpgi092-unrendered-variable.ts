/*
 * CNPGI092: objects that hold text a GitOps tool renders before applying them (Flux variables the
 * doctor has no value for). The fields that hold it are not judged by any rule.
 */
import type { RuleDefinition } from '../../../rules/rule';
import type { DoctorModel } from '../../model/doctor-model';

/** How many field paths a message names before it counts the rest. */
const SHOWN = 3;

/** An object holds a Flux variable the doctor has no value for; the fields that hold one are not judged. */
export const rule: RuleDefinition<DoctorModel> = {
  id: 'CNPGI092',
  name: 'unrendered-variable',
  severities: [{ severity: 'warning', when: 'always: the fields are not judged' }],
  what: 'An object holds a Flux post-build variable (`${APP}`, `${PG_REPLICAS}`) that neither `--var`, `--vars-from` nor a Flux Kustomization of the input gives a value.',
  why: "Flux's kustomize-controller replaces the variables before the object is applied (fluxcd/pkg kustomize SubstituteVariables), so the API server and CloudNativePG never see the text: judging it would report a name, a quantity or an integer that is not the one applied. The doctor reports nothing that rests on such a field, and says which fields it left unjudged.",
  fix: 'Give the doctor the values: `--var NAME=VALUE`, `--vars-from FILE` (a ConfigMap, a Secret or a dotenv file), or the Flux Kustomization that substitutes them, in the input.',
  kinds: ['*'],
  check(model, report) {
    for (const m of model.index.all) {
      const fields = model.unrendered.get(m.raw);
      if (fields === undefined) continue;
      const variables = [...new Set(fields.flatMap((f) => f.variables))];
      const paths = fields.map((f) => f.path);
      const shown = paths.slice(0, SHOWN).join(', ') + (paths.length > SHOWN ? ` and ${paths.length - SHOWN} more` : '');
      const first = variables[0];
      report(
        'warning',
        { ref: m.ref, index: m.index, raw: m.raw },
        `${variables.length === 1 ? 'variable' : 'variables'} ${variables.map((v) => `\${${v}}`).join(', ')} ${variables.length === 1 ? 'has' : 'have'} no value here, so ${paths.length === 1 ? 'the field' : 'the fields'} ${shown} ${paths.length === 1 ? 'is' : 'are'} not judged`,
        `give ${variables.length === 1 ? 'its value' : 'their values'} with --var ${first}=VALUE (or --vars-from FILE), or put the Flux Kustomization that substitutes ${variables.length === 1 ? 'it' : 'them'} in the input`,
      );
    }
  },
};
