/*
 * What the cluster-plugins rules (CNPGI041, CNPGI042, CNPGI046) share: the named entries of a
 * Cluster's `spec.plugins`, and the Cluster webhook's check of its WAL archivers.
 */
import { objectsOf, asString, Json } from '../../../manifests/json';
import type { RuleDefinition } from '../../../rules/rule';
import type { DoctorModel } from '../../model/doctor-model';
import { admitted } from '../admission/admission-inputs';
import { reportIssues } from '../operator-fidelity/fidelity-inputs';

/** A `spec.plugins` entry that has a name (a nameless one is CNPGI039's). */
export interface NamedPlugin {
  readonly name: string;
  readonly i: number;
  readonly item: Json;
}

/** The named entries of `spec.plugins`, in order. */
export function namedPlugins(spec: Json): NamedPlugin[] {
  const out: NamedPlugin[] = [];
  for (const { item, i } of objectsOf(spec.plugins)) {
    const name = asString(item.name);
    if (name) out.push({ name, i, item });
  }
  return out;
}

/**
 * The check of a rule that reports, on every Cluster, the answer of the webhook's
 * validatePluginConfiguration (src/checks/admission/cluster-plugins.ts) at `path`: CNPGI041 the
 * second WAL archiver (`spec.plugins`), CNPGI042 the archiver beside
 * `spec.backup.barmanObjectStore`.
 */
export function reportPluginConfiguration(path: 'spec.plugins' | 'spec.backup.barmanObjectStore'): RuleDefinition<DoctorModel>['check'] {
  return (model, report) => {
    for (const { object, admission } of admitted(model, 'Cluster')) {
      reportIssues(
        report,
        object,
        (admission.issues.get('validatePluginConfiguration') ?? []).filter((i) => i.path === path),
      );
    }
  };
}
