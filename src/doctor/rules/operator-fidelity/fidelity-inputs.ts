/*
 * What the operator-fidelity rules (CNPGI100 to CNPGI115) share. Each rule calls a pure check of
 * src/checks (shared with the constructs; docs/operator-fidelity.md records the deciding
 * upstream code for each) on the objects of its kinds, by kind whatever the API group, and
 * reports the check's issues on the object; what several rules read is computed once per run.
 */
import { checkBackupSpec } from '../../../checks/backup-spec';
import type { CheckIssue } from '../../../checks/issue';
import { Json, asArray, asObject, asString, dig } from '../../../manifests/json';
import type { Manifest } from '../../../manifests/manifest-index';
import type { FindingTarget, Report } from '../../../rules/rule';
import { DoctorModel, modelPart } from '../../model/doctor-model';
import { PLUGIN_KEYS } from '../../model/plugin-services';

/**
 * Reports each issue of a check on `target`, with the issue's severity, message, fix and path;
 * with the `model`, an error that compares namespaces (`comparesNamespaceWith`) where one of
 * them is only assumed is a warning that says so (`DoctorModel.acrossNamespaces`).
 */
export function reportIssues(report: Report, target: FindingTarget, issues: readonly CheckIssue[], model?: DoctorModel): void {
  for (const i of issues) {
    if (model && i.comparesNamespaceWith) {
      const objects = [target.raw, ...i.comparesNamespaceWith].map((raw) => (raw ? model.index.manifestOf(raw) : undefined));
      const { severity, note } = model.acrossNamespaces(i.severity, objects);
      report(severity, target, i.message + note, i.fix, i.path);
    } else report(i.severity, target, i.message, i.fix, i.path);
  }
}

/** A Backup or ScheduledBackup (any API group), with the issues of the webhook checks. */
export interface BackupIssues {
  readonly object: Manifest;
  readonly kind: 'Backup' | 'ScheduledBackup';
  readonly issues: readonly CheckIssue[];
}

const BACKUP_SPEC_ISSUES = modelPart((model) => {
  const out: BackupIssues[] = [];
  for (const kind of ['Backup', 'ScheduledBackup'] as const) {
    for (const object of model.index.ofKind(kind)) out.push({ object, kind, issues: checkBackupSpec(object.raw, kind) });
  }
  return out;
});

/** The Backups and ScheduledBackups with their issues as `checkBackupSpec` finds them (CNPGI101, CNPGI102 split them). */
export function backupSpecIssues(model: DoctorModel): readonly BackupIssues[] {
  return model.part(BACKUP_SPEC_ISSUES);
}

const LABELLED = modelPart((model) => model.index.ofKind('Service').filter((svc) => svc.labels[PLUGIN_KEYS.name] !== undefined));

/** The Services (of any API group) that carry the `cnpg.io/pluginName` label, as a string (even an empty one). */
export function labelledPluginServices(model: DoctorModel): readonly Manifest[] {
  return model.part(LABELLED);
}

/** The `--server-cert`, `--server-key` and `--client-cert` arguments of a container, with their files. */
export function tlsFlags(container: Json): Array<{ readonly flag: string; readonly file: string }> {
  const out: Array<{ readonly flag: string; readonly file: string }> = [];
  for (const arg of asArray(container.args).filter((a): a is string => typeof a === 'string')) {
    const m = /^(--(?:server-cert|server-key|client-cert))=(.+)$/.exec(arg);
    if (m) out.push({ flag: m[1], file: m[2] });
  }
  return out;
}

/** The pod spec of a Deployment and its containers. */
export function podOf(d: Manifest): { readonly podSpec: Json; readonly containers: Json[] } {
  const podSpec = asObject(dig(d.raw, 'spec', 'template', 'spec')) ?? {};
  return { podSpec, containers: asArray(podSpec.containers).map((x) => asObject(x) ?? {}) };
}

/** The Secret and key behind a mounted file path, through the container's mounts and the pod's volumes. */
export function trustedSecretOf(filePath: string, podSpec: Json, container: Json): { secret: string; key: string } | undefined {
  const mount = asArray(container.volumeMounts)
    .map((m) => asObject(m) ?? {})
    .find((m) => typeof m.mountPath === 'string' && filePath.startsWith(`${String(m.mountPath).replace(/\/$/, '')}/`));
  if (!mount) return undefined;
  const volume = asArray(podSpec.volumes)
    .map((v) => asObject(v) ?? {})
    .find((v) => v.name === mount.name);
  const secret = asString(dig(volume, 'secret', 'secretName'));
  if (!secret) return undefined;
  const rel = filePath.slice(String(mount.mountPath).replace(/\/$/, '').length + 1);
  const items = asArray(dig(volume, 'secret', 'items')).map((i) => asObject(i) ?? {});
  const key = items.length ? asString(items.find((i) => i.path === rel)?.key) : rel;
  return key === undefined ? undefined : { secret, key };
}
