/*
 * The four doctor rules of validateConfiguration (CNPGI324-327): each reports the issues of one
 * of its subjects (src/checks/admission/cluster-parameters.ts configurationTopic).
 */
import { ConfigurationTopic, configurationTopic } from '../../../../checks/admission/cluster-parameters';
import type { RuleDefinition } from '../../../../rules/rule';
import type { DoctorModel } from '../../../model/doctor-model';
import { reportIssues } from '../../operator-fidelity/fidelity-inputs';
import { admitted } from '../admission-inputs';

/** The check of a rule that reports, on every Cluster, the validateConfiguration issues of `topic`. */
export function reportConfigurationTopic(topic: ConfigurationTopic): RuleDefinition<DoctorModel>['check'] {
  return (model, report) => {
    for (const { object, admission } of admitted(model, 'Cluster')) {
      reportIssues(
        report,
        object,
        (admission.issues.get('validateConfiguration') ?? []).filter((i) => configurationTopic(i) === topic),
      );
    }
  };
}
