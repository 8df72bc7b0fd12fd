/*
 * What the restorability rules (CNPGI120 to CNPGI123) share: the Clusters of the input and the
 * ObjectStores they name, read once per run and handed to the pure checks of
 * src/checks/wal-archive.ts, which the constructs call too.
 */
import { ArchiveIndex } from '../../../checks/wal-archive';
import type { Manifest } from '../../../manifests/manifest-index';
import { DoctorModel, modelPart } from '../../model/doctor-model';

/** The Clusters of the input (any API group) and how the checks read the rest of the input. */
export interface ArchiveInputs {
  readonly clusters: readonly Manifest[];
  /** The Clusters by where they archive. */
  readonly index: ArchiveIndex;
}

const ARCHIVE_INPUTS = modelPart((model): ArchiveInputs => {
  const clusters = model.index.ofKind('Cluster');
  return {
    clusters,
    index: new ArchiveIndex(
      clusters.map((c) => c.raw),
      {
        lookup: (namespace, name) => model.lastNamed('ObjectStore', namespace, name)?.raw,
        namespaceOf: model.index.namespaceOf,
        complete: model.complete,
      },
    ),
  };
});

/** The Clusters of the input and the options of the restorability checks, once per run. */
export function archiveInputs(model: DoctorModel): ArchiveInputs {
  return model.part(ARCHIVE_INPUTS);
}
