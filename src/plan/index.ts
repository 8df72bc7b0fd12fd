export type { AcknowledgedFinding, PlanAcknowledgement } from './acknowledgements';
export type { PlanOptions, PlanReport } from './plan-model';
// the listing of PLAN_RULES is the rule engine's, which the doctor's rules share
export type { RuleSpec, Subsumption } from '../rules/rule';
export { Plan } from './plan-api';
export { PlanBaseline } from './plan-baseline';
export { PLAN_RULES, planChanges } from './plan';
export { formatPlanJson, formatPlanSarif, formatPlanText } from './plan-format';
export * from './plan-validation';
