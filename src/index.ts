export { CnpgIValidationError } from './common/errors';
export * from './tls';
export * from './plugins';
export * from './postgres';
export * from './presets';
export * from './doctor';
export * from './plan';
