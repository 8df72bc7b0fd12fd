export * from './finding';
export * from './rules';
export type { RuleId, SeverityCase } from './rules/index';
export { analyzeManifests, checkManifests } from './check-manifests';
export * from './synth-validation';
export * from './cdk8s-validation-plugin';
