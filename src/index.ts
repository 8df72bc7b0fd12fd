export { CnpgIValidationError } from './common/errors';
export * from './tls';
export * from './plugins';
export * from './postgres';
export * from './presets';
export * from './doctor';
export * from './plan';

// The generated L1 types that the API uses (ClusterBootstrap.initdb and fromSpec take the CRD's
// own sections), as a submodule, the way cdk8s-plus exports `k8s`: jsii languages need every
// type of the public API exported, and TypeScript users can name them too.
export * as cnpg from '../imports/postgresql.cnpg.io';
