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
