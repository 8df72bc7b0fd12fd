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
  what: 'An object holds a Flux post-build variable (`${APP}`, `${PG_REPLICAS}`) that neither `--var`, `--vars-from` nor a Flux Kustomization of the input gives a value, or a value encrypted with SOPS (`ENC[AES256_GCM,...]`).',
  why: "Flux's kustomize-controller replaces the variables before the object is applied (fluxcd/pkg kustomize SubstituteVariables), so the API server and CloudNativePG never see the text: judging it would report a name, a quantity or an integer that is not the one applied. Its decryption of SOPS-encrypted objects (fluxcd/kustomize-controller v1.9.4 internal/decryptor/decryptor.go DecryptResource, for a Kustomization with `spec.decryption.provider: sops`) likewise replaces `ENC[...]` values and removes the `sops` metadata before applying. The doctor reports nothing that rests on such a field, reads such a file without its `sops` metadata, and says which fields it left unjudged.",
  fix: 'Give the doctor the values: `--var NAME=VALUE`, `--vars-from FILE` (a ConfigMap, a Secret or a dotenv file), or the Flux Kustomization that substitutes them, in the input.',
  kinds: ['*'],
  check(model, report) {
    for (const m of model.index.all) {
      const fields = model.unrendered.get(m.raw);
      if (fields === undefined) continue;
      const variables = [...new Set(fields.flatMap((f) => f.variables))];
      const encrypted = fields.some((f) => f.encrypted === true);
      const paths = fields.map((f) => f.path);
      const shown = paths.slice(0, SHOWN).join(', ') + (paths.length > SHOWN ? ` and ${paths.length - SHOWN} more` : '');
      const one = variables.length === 1;
      const causes = [
        ...(variables.length > 0
          ? [`${one ? 'variable' : 'variables'} ${variables.map((v) => `\${${v}}`).join(', ')} ${one ? 'has' : 'have'} no value here`]
          : []),
        ...(encrypted ? ['values encrypted with SOPS are decrypted by Flux only'] : []),
      ];
      const fixes = [
        ...(variables.length > 0
          ? [
              `give ${one ? 'its value' : 'their values'} with --var ${variables[0]}=VALUE (or --vars-from FILE), or put the Flux Kustomization that substitutes ${one ? 'it' : 'them'} in the input`,
            ]
          : []),
        ...(encrypted ? ['decrypt the file to check its values (sops -d FILE | cnpg-i-doctor -)'] : []),
      ];
      report(
        'warning',
        { ref: m.ref, index: m.index, raw: m.raw },
        `${causes.join(', and ')}, so ${paths.length === 1 ? 'the field' : 'the fields'} ${shown} ${paths.length === 1 ? 'is' : 'are'} not judged`,
        fixes.join('; '),
      );
    }
  },
};
