export type { PlanFinding, PlanOptions, PlanReport, PlanRule, PlanRuleSeverities, PlanSeverity } from './plan-model';
export { Plan } from './plan-api';
export { PLAN_RULES, planChanges } from './plan';
export { formatPlanJson, formatPlanSarif, formatPlanText } from './plan-format';
export * from './plan-validation';
