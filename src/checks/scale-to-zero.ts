/**
 * The Scale-to-Zero plugin's Cluster side as its sidecar reads it (cnpg-i-scale-to-zero v0.1.9
 * internal/sidecar/scale_to_zero.go): two Cluster annotations, and the one ScheduledBackup it
 * suspends when it hibernates the Cluster. The constructs and the doctor share these checks.
 */
import { goAtoi } from '../manifests/go-numbers';
import { Json, asArray, asObject, asString, dig, stringMap } from '../manifests/json';
import { SCALE_TO_ZERO_PLUGIN_NAME } from '../manifests/known-plugins';
import { CheckIssue } from './issue';

/**
 * The annotation that turns hibernation on: the sidecar enables it only for exactly `"true"`
 * (scale_to_zero.go getClusterScaleToZeroConfig, `scaleToZeroEnabledAnnotation`).
 * @internal
 */
export const SCALE_TO_ZERO_ENABLED_ANNOTATION = 'xata.io/scale-to-zero-enabled';

/**
 * The inactivity threshold in whole minutes, read with Go's `strconv.Atoi`; anything Atoi
 * refuses is logged and replaced by the default (scale_to_zero.go getClusterScaleToZeroConfig,
 * `inactivityMinutesAnnotation`).
 * @internal
 */
export const SCALE_TO_ZERO_INACTIVITY_ANNOTATION = 'xata.io/scale-to-zero-inactivity-minutes';

/** The sidecar's default inactivity threshold (scale_to_zero.go `defaultInactivityMinutes`). @internal */
export const SCALE_TO_ZERO_DEFAULT_INACTIVITY_MINUTES = 30;

/**
 * How often the primary's sidecar counts connections (scale_to_zero.go `defaultCheckInterval`,
 * one minute): a threshold below one minute hibernates no sooner than one of a minute.
 * @internal
 */
export const SCALE_TO_ZERO_CHECK_INTERVAL_MINUTES = 1;

const ENABLED_PATH = `metadata.annotations[${SCALE_TO_ZERO_ENABLED_ANNOTATION}]`;
const INACTIVITY_PATH = `metadata.annotations[${SCALE_TO_ZERO_INACTIVITY_ANNOTATION}]`;

/** Whether the Cluster has the plugin in `spec.plugins` and enabled (the CRD defaults `enabled` to true). @internal */
export function usesScaleToZeroPlugin(cluster: Json): boolean {
  return asArray(dig(cluster, 'spec', 'plugins')).some((p) => dig(p, 'name') === SCALE_TO_ZERO_PLUGIN_NAME && dig(p, 'enabled') !== false);
}

/**
 * The inactivity threshold the sidecar of this Cluster hibernates it after, in minutes, or
 * undefined when it never does: the plugin is not enabled on the Cluster (no sidecar is injected,
 * internal/plugin/lifecycle/lifecycle.go reconcileMetadata runs only for Clusters that list the
 * plugin), or the enabling annotation is not exactly `"true"`.
 * @internal
 */
export function scaleToZeroInactivityMinutes(cluster: Json): number | undefined {
  const annotations = stringMap(dig(cluster, 'metadata', 'annotations'));
  if (!usesScaleToZeroPlugin(cluster) || annotations[SCALE_TO_ZERO_ENABLED_ANNOTATION] !== 'true') return undefined;
  const text = annotations[SCALE_TO_ZERO_INACTIVITY_ANNOTATION];
  if (text === undefined) return SCALE_TO_ZERO_DEFAULT_INACTIVITY_MINUTES;
  const parsed = goAtoi(text);
  return typeof parsed === 'bigint' ? Number(parsed) : SCALE_TO_ZERO_DEFAULT_INACTIVITY_MINUTES;
}

/**
 * A Cluster that enables the plugin without the enabling annotation at all: the sidecar is
 * injected and never hibernates the Cluster (scale_to_zero.go getClusterScaleToZeroConfig reads
 * a missing annotation as disabled). An inert plugin by omission, where a value other than
 * `"true"` is a choice; undefined when the plugin is not enabled or the annotation is there.
 * @internal
 */
export function missingScaleToZeroAnnotation(cluster: Json): CheckIssue | undefined {
  if (!usesScaleToZeroPlugin(cluster)) return undefined;
  if (stringMap(dig(cluster, 'metadata', 'annotations'))[SCALE_TO_ZERO_ENABLED_ANNOTATION] !== undefined) return undefined;
  return {
    severity: 'warning',
    path: ENABLED_PATH,
    message: `is missing: the plugin injects its sidecar, which hibernates the Cluster only when the annotation is exactly "true", so this Cluster is never hibernated`,
    fix: `set the annotation ${SCALE_TO_ZERO_ENABLED_ANNOTATION}: "true", or remove the plugin from spec.plugins`,
  };
}

/**
 * The Scale-to-Zero annotations of a Cluster, as the sidecar reads them: an enabling value other
 * than `"true"` (the Cluster is never hibernated), an inactivity value `strconv.Atoi` refuses
 * (the default 30 minutes is used), and annotations on a Cluster without the plugin (no sidecar
 * reads them). Warnings: the Cluster runs either way, not the way it was written.
 * @internal
 */
export function checkScaleToZeroAnnotations(cluster: Json): CheckIssue[] {
  const annotations = stringMap(dig(cluster, 'metadata', 'annotations'));
  const enabled = annotations[SCALE_TO_ZERO_ENABLED_ANNOTATION];
  const inactivity = annotations[SCALE_TO_ZERO_INACTIVITY_ANNOTATION];
  const issues: CheckIssue[] = [];
  if (!usesScaleToZeroPlugin(cluster)) {
    if (enabled === 'true' || inactivity !== undefined) {
      const key = enabled === 'true' ? SCALE_TO_ZERO_ENABLED_ANNOTATION : SCALE_TO_ZERO_INACTIVITY_ANNOTATION;
      issues.push({
        severity: 'warning',
        path: `metadata.annotations[${key}]`,
        message: `is set, but the Cluster does not enable the plugin '${SCALE_TO_ZERO_PLUGIN_NAME}' in spec.plugins: no Scale-to-Zero sidecar is injected to read it, and the Cluster is never hibernated`,
        fix: `add { name: ${SCALE_TO_ZERO_PLUGIN_NAME} } to spec.plugins, or remove the annotation`,
      });
    }
    return issues;
  }
  const missing = missingScaleToZeroAnnotation(cluster);
  if (missing !== undefined) {
    issues.push(missing);
  } else if (enabled !== 'true') {
    issues.push({
      severity: 'warning',
      path: ENABLED_PATH,
      message: `is ${JSON.stringify(enabled)}, but the sidecar enables hibernation only for exactly "true": this Cluster is never hibernated`,
      fix: `write "true" to enable hibernation, or remove the plugin from spec.plugins`,
    });
  }
  if (inactivity !== undefined) {
    const parsed = goAtoi(inactivity);
    if (typeof parsed !== 'bigint') {
      issues.push({
        severity: 'warning',
        path: INACTIVITY_PATH,
        message: `is ${JSON.stringify(inactivity)}, which Go's strconv.Atoi refuses (${parsed}): the sidecar logs an error and hibernates after the default ${SCALE_TO_ZERO_DEFAULT_INACTIVITY_MINUTES} minutes`,
        fix: `write a whole number of minutes, e.g. "${SCALE_TO_ZERO_DEFAULT_INACTIVITY_MINUTES}"`,
      });
    }
  }
  return issues;
}

/**
 * A ScheduledBackup of a Cluster that the Scale-to-Zero sidecar hibernates. When it hibernates
 * the Cluster, the sidecar suspends the ScheduledBackup with the Cluster's own name and namespace
 * only (scale_to_zero.go Start then pauseScheduledBackup; cluster_client.go
 * getClusterScheduledBackup gets it by the Cluster's key; one that is not found is skipped). Any
 * other ScheduledBackup of the Cluster keeps creating Backups, and CloudNativePG fails each one
 * while the Cluster sleeps (cloudnative-pg v1.30.0 internal/controller/backup_controller.go
 * checkPrerequisites: "cannot backup a hibernated cluster"). `cluster` is the Cluster the
 * ScheduledBackup names in `spec.cluster.name`, in its namespace.
 * @internal
 */
export function checkScaleToZeroSchedule(cluster: Json, scheduledBackup: Json): CheckIssue[] {
  const minutes = scaleToZeroInactivityMinutes(cluster);
  const clusterName = asString(dig(cluster, 'metadata', 'name'));
  const name = asString(dig(scheduledBackup, 'metadata', 'name'));
  const spec = asObject(scheduledBackup.spec) ?? {};
  if (minutes === undefined || clusterName === undefined || name === undefined || name === clusterName) return [];
  if (dig(spec, 'cluster', 'name') !== clusterName || spec.suspend === true) return [];
  return [
    {
      severity: 'warning',
      path: 'metadata.name',
      message: `backs up Cluster '${clusterName}', which the Scale-to-Zero sidecar hibernates after ${minutes} minute${minutes === 1 ? '' : 's'} without connections; the sidecar suspends only the ScheduledBackup named '${clusterName}', so this one keeps creating Backups, and CloudNativePG fails each with "cannot backup a hibernated cluster" while the Cluster sleeps`,
      fix: `name the ScheduledBackup '${clusterName}' (the one schedule the sidecar suspends), or set spec.suspend: true and back the Cluster up some other way`,
    },
  ];
}
