/**
 * The log levels of CloudNativePG components and of plugins built on its `machinery` logging
 * flags (`--log-level`): Barman Cloud's plugin and instance sidecar, hello-world.
 *
 * The values are the wire values. An unknown level is not rejected by the plugins: they log
 * "Invalid log level, defaulting" and use `info`, which is why this library checks it instead.
 */
export enum PluginLogLevel {
  /** Errors only. */
  ERROR = 'error',
  /** Errors and warnings. */
  WARNING = 'warning',
  /** The upstream default. */
  INFO = 'info',
  /** Verbose; what the upstream Barman Cloud manifest sets. */
  DEBUG = 'debug',
  /** Everything, including the gRPC calls. */
  TRACE = 'trace',
}
