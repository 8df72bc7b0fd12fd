export * from './issuer-ref';
export * from './plugin-tls';
export * from './plugin-certificates';
