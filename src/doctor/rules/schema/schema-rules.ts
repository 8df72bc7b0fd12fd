/*
 * What the schema rules (CNPGI060 to CNPGI064) share: the schema layer reads each object once
 * (the model's `schema` part) and its issues are sorted among these rules here; the kinds and
 * the upstream code the rules cite.
 */
import { describeValue } from '../../../manifests/errors';
import type { Report } from '../../../rules/rule';
import type { SchemaIssue } from '../../../schema/issue';
import type { DoctorModel } from '../../model/doctor-model';

/** The kinds of the pinned CRDs (imports/schemas/index.json; a test keeps the two equal). */
export const CRD_KINDS = [
  'postgresql.cnpg.io/Cluster',
  'postgresql.cnpg.io/Backup',
  'postgresql.cnpg.io/ScheduledBackup',
  'postgresql.cnpg.io/Pooler',
  'postgresql.cnpg.io/Database',
  'postgresql.cnpg.io/DatabaseRole',
  'postgresql.cnpg.io/Publication',
  'postgresql.cnpg.io/Subscription',
  'postgresql.cnpg.io/ImageCatalog',
  'postgresql.cnpg.io/ClusterImageCatalog',
  'postgresql.cnpg.io/FailoverQuorum',
  'cert-manager.io/Certificate',
  'cert-manager.io/Issuer',
  'cert-manager.io/ClusterIssuer',
  'barmancloud.cnpg.io/ObjectStore',
  'monitoring.coreos.com/PodMonitor',
  'monitoring.coreos.com/PrometheusRule',
];
export const AX = 'apiextensions-apiserver v0.32.13';
export const AM = 'apimachinery v0.32.13';
export const PINNED =
  'the CRDs pinned in imports/schemas (every CRD of the cloudnative-pg v1.30.0 release manifest releases/cnpg-1.30.0.yaml, cert-manager v1.21.1, plugin-barman-cloud v0.14.0, prometheus-operator v0.93.0)';

type SchemaRuleId = 'CNPGI060' | 'CNPGI061' | 'CNPGI062' | 'CNPGI063' | 'CNPGI064';

/** Which rule an issue of the schema layer belongs to. */
function ruleOf(issue: SchemaIssue): SchemaRuleId | undefined {
  switch (issue.kind) {
    case 'pruned-unknown-field':
    case 'null-dropped':
      return 'CNPGI061';
    case 'cel':
      return 'CNPGI062';
    case 'cel-not-evaluated':
      return undefined; // verbose output only: a skipped check, not a finding
    case 'invalid-port':
      return 'CNPGI064';
    default:
      if (issue.path === 'metadata' || issue.path.startsWith('metadata.') || issue.kind.startsWith('invalid-')) return 'CNPGI063';
      return 'CNPGI060';
  }
}

/**
 * Reports, as errors of rule `id`, the schema layer's issues that belong to it. A required field
 * missing from an object whose kustomization lists a patch that was not applied (its folder read
 * file by file) and may be the one that sets it is a warning naming the patch.
 */
export function reportSchemaIssues(model: DoctorModel, id: SchemaRuleId, report: Report): void {
  for (const [m, issues] of model.schema.issues) {
    for (const found of issues) {
      if (ruleOf(found) !== id) continue;
      const value = found.value === undefined ? '' : ` ${describeValue(found.value)}`;
      const at = found.path === '<root>' ? undefined : found.path;
      const patches = found.kind === 'required' ? (model.unappliedPatches.get(m.index) ?? []) : [];
      if (patches.length > 0) {
        const named = patches.map((p) => (p.missing ? `${p.shown} (not in the input)` : p.shown)).join(', ');
        report(
          'warning',
          m,
          `${found.path}${value} ${found.problem} as written; the kustomization's patch${patches.length === 1 ? '' : 'es'} ${named} ${patches.length === 1 ? 'was' : 'were'} not applied and may set it`,
          'render the folder with its patches: kustomize build DIR | cnpg-i-doctor -',
          at,
        );
        continue;
      }
      report('error', m, `${found.path}${value} ${found.problem}`, found.fix, at);
    }
  }
}
