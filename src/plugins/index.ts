export * from './plugin';
export { DEFAULT_PLUGIN_USER_ID } from './pod-security';
export type { PluginSecurityContextProps } from './pod-security';
export {
  DEFAULT_OPERATOR_POD_LABELS,
  PLUGIN_CLIENT_SECRET_ANNOTATION,
  PLUGIN_NAME_LABEL,
  PLUGIN_PORT_ANNOTATION,
  PLUGIN_SERVER_NAME_ANNOTATION,
  PLUGIN_SERVER_SECRET_ANNOTATION,
  StandalonePlugin,
} from './standalone-plugin';
export type { PluginDeploymentProps, StandalonePluginObjectNames, StandalonePluginProps } from './standalone-plugin';
export { OperatorDeployment } from './cnpg-operator-deployment';
export type { IOperatorDeployment, OperatorDeploymentOptions } from './cnpg-operator-deployment';
export * from './sidecar-plugin';
export * from './cnpg-operator';
export * from './plugin-manifest';
