export * from './report';
export type { Finding, SuppressedFinding } from '../rules/finding';
export type { RuleSpec, Severity, SeverityCase, Subsumption } from '../rules/rule';
export { DOCTOR_RULES } from './registry';
export { analyzeManifests, checkManifests } from './check-manifests';
export * from './synth-validation';
export * from './cdk8s-validation-plugin';
