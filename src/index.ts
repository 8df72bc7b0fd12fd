export { CnpgIValidationError } from './common/errors';
export * from './tls';
export * from './plugins';
export * from './postgres';
export * from './presets';

// The doctor and the plan load on first use (src/lazy-api.ts); their types are the modules' own.
export type * from './doctor';
export type * from './plan';
/** @internal */
// @ts-ignore TS2306: src/lazy-api.ts is CommonJS on purpose; the names' types are declared below
export * from './lazy-api';

type DoctorApi = typeof import('./doctor');
type PlanApi = typeof import('./plan');

/** Every rule of the doctor, sorted by id (see `docs/doctor-rules.md`). */
export declare const DOCTOR_RULES: DoctorApi['DOCTOR_RULES'];
/** The doctor inside a cdk8s app: checks the synthesized objects of an app or a chart. */
export type Doctor = import('./doctor').Doctor;
export declare const Doctor: DoctorApi['Doctor'];
/** The doctor as a cdk8s-cli validation plugin. */
export type DoctorValidationPlugin = import('./doctor').DoctorValidationPlugin;
export declare const DoctorValidationPlugin: DoctorApi['DoctorValidationPlugin'];
/** Checks plain manifest objects; returns the findings and the plugins the operator would discover. */
export declare const analyzeManifests: DoctorApi['analyzeManifests'];
/** Checks plain manifest objects as the CloudNativePG operator would read them; returns the findings, errors first. */
export declare const checkManifests: DoctorApi['checkManifests'];
/** One finding as a line of text. */
export declare const formatFinding: DoctorApi['formatFinding'];
/** Every rule of the plan (`cnpg-i-doctor plan`), sorted by id. */
export declare const PLAN_RULES: PlanApi['PLAN_RULES'];
/** Runs the plan against the previous output folder at every synth. */
export declare const addPlanValidation: PlanApi['addPlanValidation'];
/** One plan finding as a line of text. */
export declare const formatPlanFinding: PlanApi['formatPlanFinding'];
/** A plan report as JSON. */
export declare const formatPlanJson: PlanApi['formatPlanJson'];
/** A plan report as SARIF 2.1.0. */
export declare const formatPlanSarif: PlanApi['formatPlanSarif'];
/** A plan report as text. */
export declare const formatPlanText: PlanApi['formatPlanText'];
/** What applying `next` over `previous` would do: data loss, refused updates, ignored changes, broken backup chains, plugin outages. */
export declare const planChanges: PlanApi['planChanges'];
