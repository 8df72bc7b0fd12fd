export * from './plugin';
export { DEFAULT_PLUGIN_USER_ID } from './pod-security';
export type { PluginSecurityContextProps } from './pod-security';
export * from './standalone-plugin';
export { OperatorDeployment } from './cnpg-operator-deployment';
export type { IOperatorDeployment, OperatorDeploymentOptions } from './cnpg-operator-deployment';
export * from './sidecar-plugin';
export * from './cnpg-operator';
