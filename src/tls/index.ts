export * from './issuer-ref';
export * from './plugin-tls';
export { PluginCertificates } from './plugin-certificates';
export type { PluginCertificateNames, PluginCertificatesProps } from './plugin-certificates';
