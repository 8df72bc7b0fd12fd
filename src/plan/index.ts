export type { PlanFinding, PlanOptions, PlanReport, PlanRule, PlanSeverity } from './plan-model';
export { PLAN_RULES, planChanges } from './plan';
export { formatPlanJson, formatPlanSarif, formatPlanText } from './plan-format';
export * from './plan-validation';
