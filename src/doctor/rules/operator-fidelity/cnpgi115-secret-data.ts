/*
 * CNPGI115: what the API server refuses in any Secret.
 */
import { checkSecretData } from '../../../checks/secret-contents';
import type { RuleDefinition } from '../../../rules/rule';
import type { DoctorModel } from '../../model/doctor-model';
import { reportIssues } from './fidelity-inputs';

/** A Secret the API server refuses. */
export const rule: RuleDefinition<DoctorModel> = {
  id: 'CNPGI115',
  name: 'secret-data',
  severities: [
    { severity: 'error', when: 'always, but for a vals reference' },
    {
      severity: 'warning',
      when: 'a `data` value that is a whole vals reference (`ref+op://...`, helmfile/vals v0.46.0 pkg/expansion/expand_match.go DefaultRefRegexp), which vals replaces before the Secret is applied',
    },
  ],
  what: 'A Secret the API server refuses: a `data` value that is not standard padded base64 (or not a string), a key that is not a valid config key, more than 1 MiB, or a `kubernetes.io/tls` Secret without `tls.crt` and `tls.key`.',
  why: 'Secret.data is map[string][]byte, and a []byte is decoded from a JSON string with Go base64.StdEncoding (kubernetes-sigs/json 9aa6b5e internal/golang/encoding/json/decode.go decodeState.literalStore, the decoder of apimachinery v0.32.13 pkg/runtime/serializer/json/json.go Serializer.unmarshal): invalid base64 fails the request with `illegal base64 data at input byte N`. Then kubernetes pkg/apis/core/validation/validation.go ValidateSecret checks every key with apimachinery v0.32.13 pkg/util/validation/validation.go IsConfigMapKey, the total against MaxSecretSize (1 MiB), and requires tls.crt and tls.key for type kubernetes.io/tls (stringData is merged into data first).',
  fix: 'Write base64 (`base64 -w0`) under data, or plain text under stringData; keep keys to letters, digits, -, _ and .',
  kinds: ['Secret'],
  check(model, report) {
    for (const secret of model.index.ofKind('Secret')) reportIssues(report, secret, checkSecretData(secret.raw));
  },
};
