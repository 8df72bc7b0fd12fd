/*
 * What the operator-namespace rules (CNPGI001, CNPGI002) share: the finding target of an operator
 * Deployment, named as every other rule names it (the manifest index's namespace).
 */
import { refOf } from '../../../manifests/kinds';
import type { OperatorCandidate } from '../../../manifests/operator';
import type { FindingTarget } from '../../../rules/rule';
import type { DoctorModel } from '../../model/doctor-model';

/** The operator Deployment as a finding target: its index entry, so that its findings group under one object. */
export function operatorTarget(model: DoctorModel, c: OperatorCandidate): FindingTarget {
  // a Deployment without metadata.name is not in the index (CNPGI090 reports it)
  return model.index.manifestOf(c.raw) ?? { ref: refOf('Deployment', c.namespace ?? model.index.defaultNamespace, c.name), index: c.index, raw: c.raw };
}
