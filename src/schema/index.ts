export * from './issue';
export * from './validate-object';
export { crdSchemaKeys } from './crd-schemas';
export type { CelRuleSpec, StructuralSchema } from './crd-schemas';
