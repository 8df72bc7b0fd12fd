export * from './finding';
export * from './rules';
export type { RuleId, RuleSpec, SeverityCase } from './rules/index';
export { analyzeManifests, checkManifests } from './check-manifests';
export * from './synth-validation';
export * from './cdk8s-validation-plugin';
