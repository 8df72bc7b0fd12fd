/*
 * The doctor's rules: every file `cnpgiNNN-<name>.ts` under src/doctor/rules/ (listed by the
 * generated src/doctor/rules/index.ts), in one registry of the rule engine, with the retired ids.
 */
import { RuleRegistry } from '../rules/registry';
import type { RuleSpec } from '../rules/rule';
import type { DoctorModel } from './model/doctor-model';
import { RETIRED_RULES } from './retired-rules';
import { DOCTOR_RULE_DEFINITIONS } from './rules/index';

/** The doctor's rule registry: it runs the rules over the model. @internal */
export const DOCTOR_REGISTRY = new RuleRegistry<DoctorModel>(DOCTOR_RULE_DEFINITIONS, RETIRED_RULES);

/**
 * Every rule of the doctor, sorted by id, as documented in `docs/doctor-rules.md` (generated
 * from the rule files in `src/doctor/rules/`). Ids are stable: a rule that is retired keeps its
 * id unused.
 *
 * Frozen, each rule and its lists too: `Doctor.DOCTOR_RULES` is this array under the mutable
 * array type jsii needs, and no caller may change the registry through either name.
 */
export const DOCTOR_RULES: readonly RuleSpec[] = DOCTOR_REGISTRY.specs;
