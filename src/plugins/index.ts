export * from './plugin';
export * from './pod-security';
export * from './standalone-plugin';
export * from './cnpg-operator-deployment';
export * from './sidecar-plugin';
export * from './cnpg-operator';
