/*
 * CNPGI140: a Cluster's Scale-to-Zero annotations, as the plugin's sidecar reads them.
 */
import { checkScaleToZeroAnnotations } from '../../../checks/scale-to-zero';
import type { RuleDefinition } from '../../../rules/rule';
import type { DoctorModel } from '../../model/doctor-model';
import { reportIssues } from '../operator-fidelity/fidelity-inputs';

/** The `xata.io/scale-to-zero-*` annotations the sidecar ignores or replaces by its default. */
export const rule: RuleDefinition<DoctorModel> = {
  id: 'CNPGI140',
  name: 'scale-to-zero-annotations',
  severities: [{ severity: 'warning', when: 'always: the Cluster runs, but is hibernated otherwise than written, or never' }],
  what: 'Scale-to-Zero annotations the sidecar does not read as written: `xata.io/scale-to-zero-enabled` other than exactly "true" (or missing) on a Cluster that enables the plugin, `xata.io/scale-to-zero-inactivity-minutes` that is not a Go integer, and either annotation on a Cluster without the plugin.',
  why: 'cnpg-i-scale-to-zero v0.1.9 internal/sidecar/scale_to_zero.go getClusterScaleToZeroConfig enables hibernation only when the annotation equals "true" and reads the minutes with strconv.Atoi, logging an error and using defaultInactivityMinutes (30) when it fails; internal/plugin/lifecycle/lifecycle.go reconcileMetadata injects the sidecar only into the pods of Clusters that list the plugin, so without it nothing reads the annotations.',
  fix: 'Enable the plugin in spec.plugins and write `xata.io/scale-to-zero-enabled: "true"` and a whole number of minutes.',
  kinds: ['postgresql.cnpg.io/Cluster'],
  check(model, report) {
    for (const c of model.index.ofKind('Cluster', 'postgresql.cnpg.io')) reportIssues(report, c, checkScaleToZeroAnnotations(c.raw));
  },
};
