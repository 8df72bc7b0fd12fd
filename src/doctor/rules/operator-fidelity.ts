/*
 * CNPGI100 to CNPGI112, CNPGI114, CNPGI115: operator fidelity (issue 12). The checks are pure functions in
 * src/doctor/fidelity/ (shared with the constructs); docs/operator-fidelity.md records the
 * deciding upstream code for each.
 */
import type { CheckIssue } from '../../checks/issue';
import type { Json } from '../../manifests/json';
import type { Manifest } from '../../manifests/manifest-index';
import { FIDELITY_FAMILIES, FidelityFamilyId, runFidelity } from '../fidelity/families';
import type { FindingTarget } from '../model';
import { Report, defineFamily } from './rule';

/** The operator-fidelity rules. */
export const operatorFidelity = defineFamily({
  rules: FIDELITY_FAMILIES,
  check(model, report) {
    const byRaw = new Map<Json, Manifest>(model.index.all.map((m) => [m.raw, m]));
    const results = runFidelity(
      model.index.all.map((m) => m.raw),
      {
        operatorNamespace: model.operatorNamespace,
        defaultNamespace: model.defaultNamespace ?? model.operatorNamespace,
        clusterResourceNamespace: model.clusterResourceNamespace,
        knownPlugins: [...model.knownPlugins, ...model.discovered.keys()],
      },
    );
    for (const r of results) {
      const m = byRaw.get(r.object as Json);
      if (!m) continue;
      // CNPGI044/CNPGI045 already report a plugin backup without a plugin name.
      if (r.family === 'CNPGI101' && r.issue.path === 'spec.pluginConfiguration.name') continue;
      // CNPGI002 reports a manager container without OPERATOR_NAMESPACE.
      if (r.family === 'CNPGI104' && r.issue.message.startsWith('OPERATOR_NAMESPACE is not set')) continue;
      emit(report, r.family, m, r.issue);
    }
  },
});

/** One literal report call per id, so each id is visibly reported by this module. */
function emit(report: Report<FidelityFamilyId>, id: FidelityFamilyId, t: FindingTarget, i: CheckIssue): void {
  const args = [i.severity, t, i.message, i.fix, i.path] as const;
  switch (id) {
    case 'CNPGI100':
      return report('CNPGI100', ...args);
    case 'CNPGI101':
      return report('CNPGI101', ...args);
    case 'CNPGI102':
      return report('CNPGI102', ...args);
    case 'CNPGI103':
      return report('CNPGI103', ...args);
    case 'CNPGI104':
      return report('CNPGI104', ...args);
    case 'CNPGI105':
      return report('CNPGI105', ...args);
    case 'CNPGI106':
      return report('CNPGI106', ...args);
    case 'CNPGI107':
      return report('CNPGI107', ...args);
    case 'CNPGI108':
      return report('CNPGI108', ...args);
    case 'CNPGI109':
      return report('CNPGI109', ...args);
    case 'CNPGI110':
      return report('CNPGI110', ...args);
    case 'CNPGI111':
      return report('CNPGI111', ...args);
    case 'CNPGI112':
      return report('CNPGI112', ...args);
    case 'CNPGI114':
      return report('CNPGI114', ...args);
    case 'CNPGI115':
      return report('CNPGI115', ...args);
  }
}
