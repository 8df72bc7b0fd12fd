import { Construct } from 'constructs';
import type { AdmissionKind } from '../checks/admission/admission-check';
import type * as Admission from '../checks/admission/index';
import { checkBarmanCloudCluster, referencedObjectStores } from '../checks/barman-cloud';
import { CheckIssue } from '../checks/issue';
import { missingScaleToZeroAnnotation } from '../checks/scale-to-zero';
import { checkArchiveSources, checkSharedArchive } from '../checks/wal-archive';
import { claimedNamespaces } from '../common/stable-names';
import { Problem } from '../manifests/errors';
import { Json, asObject } from '../manifests/json';
import { BARMAN_CLOUD_PLUGIN_NAME, SCALE_TO_ZERO_PLUGIN_NAME } from '../manifests/known-plugins';
import { appArchives } from './internal';

/**
 * The first error CloudNativePG's admission gives a rendered object of `kind` (the CRD defaults
 * and the defaulting webhook first, then every admission check registered in
 * src/checks/admission, in the webhook's order), as a problem of the construct that writes it
 * (`object` may be a function that renders it, called only when a check judges the kind):
 * the prop is the JSON path, the problem the check's message. The doctor's admission rules run
 * the same checks, so the constructs refuse at synth what the doctor reports.
 * @internal
 */
export function admissionProblem(kind: AdmissionKind, object: Json | (() => Json)): Problem | undefined {
  const { admissionErrors, admit, hasAdmissionChecks } = admission();
  if (!hasAdmissionChecks(kind)) return undefined;
  const rendered = typeof object === 'function' ? object() : object;
  return problemOf(admissionErrors(admit(kind, rendered))[0], rendered);
}

let admissionModule: typeof Admission | undefined;

/**
 * The admission checks (about 40 modules), loaded at the first synth-time check rather than with
 * the constructs: an app pays for them when it synthesizes, and `require('cdk8s-cnpg-i')` stays
 * within its load-time budget (docs/development/performance.md).
 */
function admission(): typeof Admission {
  admissionModule ??= require('../checks/admission/index') as typeof Admission;
  return admissionModule;
}

/**
 * The first of what the doctor reports as an error for a Cluster, found with the same checks
 * (`src/checks/`), so that the constructs (which refuse it at synth) and the doctor
 * agree: the Cluster's admission ({@link admissionProblem}), then Barman Cloud's ObjectStore
 * namespace and recovery destination. What the doctor only warns about is not refused: a Barman
 * Cloud parameter other than barmanObjectName and serverName is ignored by the plugin and the
 * Cluster works (the doctor's CNPGI106 warning, also at synth with `Doctor.addValidation`).
 * `cluster` is the rendered `postgresql.cnpg.io/v1` Cluster JSON; `scope` the construct whose
 * app holds the ObjectStores.
 * @internal
 */
export function clusterMistake(scope: Construct, cluster: Json): Problem | undefined {
  const admission = admissionProblem('Cluster', cluster);
  if (admission !== undefined) return admission;
  return barmanCloudMistake(scope, cluster) ?? scaleToZeroMistake(cluster) ?? archiveMistake(scope, cluster);
}

/**
 * A Cluster that enables the Scale-to-Zero plugin without the annotation its sidecar reads
 * (the doctor's CNPGI140 warning, refused here): the sidecar is injected and never hibernates
 * the Cluster (cnpg-i-scale-to-zero v0.1.9 internal/sidecar/scale_to_zero.go
 * getClusterScaleToZeroConfig). The doctor reads manifests that other tools may annotate later;
 * this program writes the Cluster's whole metadata, so a missing annotation is an omission, and
 * `addPlugin` of a `ScaleToZeroPlugin` writes it. An annotation with another value is a choice
 * (hibernation off, the sidecar kept) and passes.
 */
function scaleToZeroMistake(cluster: Json): Problem | undefined {
  const issue = missingScaleToZeroAnnotation(cluster);
  if (issue === undefined) return undefined;
  return {
    prop: `plugins[${SCALE_TO_ZERO_PLUGIN_NAME}]`,
    value: SCALE_TO_ZERO_PLUGIN_NAME,
    problem: `is enabled, but the annotation ${issue.path.replace(/^metadata\.annotations\[(.*)\]$/, '$1')} ${issue.message}`,
    fix: `deploy the plugin with ScaleToZeroPlugin and add it with cluster.addPlugin(scaleToZero) or scaleToZero.enable(cluster, { inactivity }), which write the annotations and the sidecar's Role; or ${issue.fix} in the Cluster's metadata.annotations`,
  };
}

function barmanCloudMistake(scope: Construct, cluster: Json): Problem | undefined {
  if (referencedObjectStores(cluster).length === 0 && !JSON.stringify(cluster.spec ?? {}).includes(`"${BARMAN_CLOUD_PLUGIN_NAME}"`)) return undefined;
  const stores = referencedObjectStores(cluster).flatMap((name) =>
    claimedNamespaces(scope, 'ObjectStore', name).map((namespace) => ({ metadata: { name, namespace } })),
  );
  // An ObjectStore missing from the app may live elsewhere (a warning); only one in the wrong namespace is certain.
  const issues = checkBarmanCloudCluster(cluster, stores, { requireObjectName: false }).filter((i) => i.severity === 'error');
  return problemOf(issues[0], cluster);
}

/**
 * What the doctor's CNPGI121 and CNPGI122 report as errors against the other `PostgresCluster`s
 * of the app: two Clusters archiving into one ObjectStore (or destinationPath) and server name,
 * a Cluster archiving into its own recovery source, a recovery from the archive of a Cluster
 * that archives no WAL. ObjectStores are compared by name here (the doctor, which sees their
 * destinationPath, also finds two names on one path); a source that no Cluster of the app
 * archives into may be archived from elsewhere (the doctor's warning) and is not refused.
 */
function archiveMistake(scope: Construct, cluster: Json): Problem | undefined {
  const { index, json } = appArchives(scope);
  // The app's reading of this Cluster is the same JSON as `cluster`, and is what the index knows it by.
  const own = json.get(scope) ?? cluster;
  const issues = [...checkSharedArchive(own, index), ...checkArchiveSources(own, index)].filter((i) => i.severity === 'error');
  return problemOf(issues[0], cluster);
}

function problemOf(issue: CheckIssue | undefined, object: Json): Problem | undefined {
  return issue && { prop: issue.path, value: valueAt(object, issue.path), problem: issue.message, fix: issue.fix };
}

/**
 * The value at a field path such as `spec.plugins[0].parameters.serverName` or
 * `metadata.annotations.cnpg.io/validation` (a key may hold dots: the longest key that fits
 * wins), for the error message.
 */
function valueAt(root: Json, path: string): unknown {
  let v: unknown = root;
  let rest = path;
  while (rest !== '') {
    const index = /^\[(\d+)\]\.?/.exec(rest);
    if (index) {
      if (!Array.isArray(v)) return undefined;
      v = v[Number(index[1])];
      rest = rest.slice(index[0].length);
      continue;
    }
    const o = asObject(v);
    const key = Object.keys(o ?? {})
      .filter((k) => rest === k || rest.startsWith(`${k}.`) || rest.startsWith(`${k}[`))
      .sort((a, b) => b.length - a.length)[0];
    if (o === undefined || key === undefined) return undefined;
    v = o[key];
    rest = rest.slice(key.length).replace(/^\./, '');
  }
  return v;
}
