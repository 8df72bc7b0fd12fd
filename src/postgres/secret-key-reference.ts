import { ErrorScope, invalid } from '../common/errors';
import { declaredKeys } from '../common/keys';
import { isDnsSubdomain } from '../common/validate';
import { propsOf } from './internal';

/**
 * One key of a Secret in the namespace of the object that refers to it. Only the reference goes
 * into the manifest: the Secret itself is made elsewhere (by hand, External Secrets, Sealed
 * Secrets...), so no credential appears in the synthesized YAML.
 */
export interface SecretKeyReference {
  /** The Secret's name (an RFC 1123 subdomain). */
  readonly name: string;
  /** The key inside the Secret's `data`. */
  readonly key: string;
}

const KEYS = declaredKeys<SecretKeyReference>({ name: true, key: true });
const SECRET_DATA_KEY = /^[-._a-zA-Z0-9]{1,253}$/;

/**
 * Checks a Secret key reference: the CRDs type both fields as plain strings, but the Secret can
 * only exist with a subdomain name and a data key of `[-._a-zA-Z0-9]` (Kubernetes
 * pkg/apis/core/validation ValidateSecret, IsConfigMapKey), so anything else never resolves.
 * @internal
 */
export function secretKeyReferenceOf(scope: ErrorScope, prop: string, value: unknown): SecretKeyReference | undefined {
  if (value === undefined) return undefined;
  const { name, key } = propsOf(scope, prop, value as SecretKeyReference, KEYS);
  const bad = typeof name !== 'string' || !isDnsSubdomain(name) ? ['name', name, 'is not a Secret name (an RFC 1123 subdomain)']
    : typeof key !== 'string' || !SECRET_DATA_KEY.test(key) ? ['key', key, 'is not a Secret data key (letters, digits, -, _ and .)'] : undefined;
  if (bad) invalid(scope, `${prop}.${bad[0]}`, bad[1], bad[2] as string, "pass { name: 'backup-credentials', key: 'ACCESS_KEY_ID' }");
  return { name, key };
}
