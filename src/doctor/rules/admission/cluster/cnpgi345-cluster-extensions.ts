/*
 * CNPGI345: the Cluster webhook's check of image-volume extensions.
 */
import type { RuleDefinition } from '../../../../rules/rule';
import type { DoctorModel } from '../../../model/doctor-model';
import { reportAdmission } from '../admission-inputs';

/** An extension of `spec.postgresql.extensions` has no name, the name of another, a name that gives the same volume name as another (`_` read as `-`), no image without an image catalog, an empty, repeated or escaping path, or an env var that is reserved, `PATH` or `LD_LIBRARY_PATH`, repeated, or holds a placeholder other than `${image_root}`. */
export const rule: RuleDefinition<DoctorModel> = {
  id: 'CNPGI345',
  name: 'cluster-extensions',
  severities: [{ severity: 'error', when: 'always' }],
  what: 'An extension of `spec.postgresql.extensions` has no name, the name of another, a name that gives the same volume name as another (`_` read as `-`), no image without an image catalog, an empty, repeated or escaping path, or an env var that is reserved, `PATH` or `LD_LIBRARY_PATH`, repeated, or holds a placeholder other than `${image_root}`.',
  why: 'The Cluster webhook refuses the Cluster (cloudnative-pg v1.30.0 internal/webhook/v1/cluster_webhook.go validateExtensions, validateExtensionEnvVars; cloudnative-pg v1.30.0 pkg/specs/volumes.go SanitizeExtensionNameForVolume; cloudnative-pg v1.30.0 pkg/postgres/environment.go IsReservedEnvironmentVariable, FindUnknownPlaceholders).',
  fix: 'Name each extension once (distinct after `_` becomes `-`), give it `image.reference`, keep its paths inside the image, and set `PATH` and `LD_LIBRARY_PATH` through `bin_path` and `ld_library_path`.',
  kinds: ['postgresql.cnpg.io/Cluster'],
  check: reportAdmission('Cluster', 'validateExtensions'),
};
