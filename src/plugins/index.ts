export * from './plugin';
export * from './pod-security';
export * from './standalone-plugin';
