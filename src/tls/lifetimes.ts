import { Duration } from 'cdk8s';

/**
 * The lifetimes a certificate gets when its options leave them out (the `@default`s of
 * PluginCertificateOptions and PrivateCaOptions): the PluginTls factories judge them and the
 * certificates write them, from this one table.
 * @internal
 */
export const DEFAULT_LIFETIMES = {
  duration: Duration.hours(2160),
  renewBefore: Duration.hours(360),
  caDuration: Duration.hours(87600),
  caRenewBefore: Duration.hours(720),
} as const;
