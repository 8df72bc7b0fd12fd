/*
 * CNPGI306: the Cluster webhook's validateImageName.
 */
import type { RuleDefinition } from '../../../../rules/rule';
import type { DoctorModel } from '../../../model/doctor-model';
import { reportAdmission } from '../admission-inputs';

/** What the Cluster webhook's validateImageName refuses. */
export const rule: RuleDefinition<DoctorModel> = {
  id: 'CNPGI306',
  name: 'cluster-image-name',
  severities: [{ severity: 'error', when: 'always' }],
  what: "A Cluster's `spec.imageName` uses the `latest` tag (or no tag), a digest alone, or a tag that does not start with a PostgreSQL version.",
  why: 'The Cluster webhook refuses it (cloudnative-pg v1.30.0 internal/webhook/v1/cluster_webhook.go validateImageName; machinery v0.5.0 pkg/image/reference New, pkg/postgres/version FromTag): the operator reads the PostgreSQL major version from the tag to detect upgrades.',
  fix: 'Pin a tag that starts with the PostgreSQL version, e.g. `ghcr.io/cloudnative-pg/postgresql:18.4-system-trixie`, or use `imageCatalogRef`.',
  kinds: ['postgresql.cnpg.io/Cluster'],
  check: reportAdmission('Cluster', 'validateImageName'),
};
