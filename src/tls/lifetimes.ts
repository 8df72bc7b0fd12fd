import { Duration } from 'cdk8s';

/**
 * The lifetimes a certificate gets when its options leave them out (the `@default`s of
 * PluginCertificateOptions and PrivateCaOptions): the PluginTls factories judge them and the
 * certificates write them, from this one table. A default renewal goes with the default
 * lifetime only (see {@link renewBeforeOf}).
 * @internal
 */
export const DEFAULT_LIFETIMES = {
  duration: Duration.hours(2160),
  renewBefore: Duration.hours(360),
  caDuration: Duration.hours(87600),
  caRenewBefore: Duration.hours(720),
} as const;

/**
 * The `renewBefore` a certificate is written with: the one given; else the default, when the
 * lifetime is the default too; else none. A default renewal beside a lifetime the user chose
 * could contradict it (360h before a lifetime of 2h); left unset, cert-manager renews when two
 * thirds of the lifetime have passed (cert-manager v1.21.1 pkg/util/pki/renewaltime.go
 * desiredRenewalTime: a third of the lifetime before expiry), which fits any lifetime it accepts.
 * @internal
 */
export function renewBeforeOf(renewBefore: Duration | undefined, duration: Duration | undefined, defaultRenewBefore: Duration): Duration | undefined {
  return renewBefore ?? (duration === undefined ? defaultRenewBefore : undefined);
}
