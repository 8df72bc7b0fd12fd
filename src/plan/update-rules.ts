/*
 * Changes to an existing Cluster, Backup or ScheduledBackup that the operator's webhook or the
 * CRD's validation refuses on update (the apply fails, the GitOps sync stays red), and changes
 * that are accepted but do nothing to what already runs.
 */
import { specMajor, storageSize } from './cluster-facts';
import { CNPG_GROUP, Json, PlanContext, PlanObject, PlanRule, asArray, asObject, asString, canonical, dig } from './plan-model';

const WEBHOOK = 'cloudnative-pg v1.30.0 internal/webhook/v1/cluster_webhook.go';

/** @internal */
export const STORAGE_SHRINK: PlanRule = {
  id: 'CNPGI210',
  name: 'storage-shrink',
  severities: { error: "The requested size of `storage`, `walStorage` or a tablespace's storage is smaller than before." },
  what: "A Cluster's storage size (`size`, else the PVC template's `resources.requests.storage`) decreases.",
  why:
    `The webhook refuses to shrink storage (${WEBHOOK} validateStorageChange, validateWalStorageChange and validateTablespacesChange, ` +
    'through validateStorageConfigurationChange); PVCs can only grow.',
  fix: 'Keep the old size; to get smaller volumes, create a new Cluster from a backup.',
  kinds: ['Cluster'],
};

/** @internal */
export const WAL_STORAGE_REMOVED: PlanRule = {
  id: 'CNPGI211',
  name: 'wal-storage-removed',
  severities: { error: 'The previous Cluster has `spec.walStorage` and the next has none.' },
  what: "A Cluster's separate WAL volume is removed.",
  why: `The webhook refuses it: "walStorage cannot be disabled once configured" (${WEBHOOK} validateWalStorageChange).`,
  fix: 'Keep `spec.walStorage` as it was.',
  kinds: ['Cluster'],
};

/** @internal */
export const TABLESPACE_REMOVED: PlanRule = {
  id: 'CNPGI212',
  name: 'tablespace-removed',
  severities: { error: 'A tablespace, or the whole `spec.tablespaces` section, of the previous Cluster is gone.' },
  what: 'A declarative tablespace is removed from a Cluster.',
  why: `The webhook refuses to delete tablespaces once created (${WEBHOOK} validateTablespacesChange).`,
  fix: 'Keep the tablespace in `spec.tablespaces`.',
  kinds: ['Cluster'],
};

/** @internal */
export const MAJOR_VERSION_REFUSED: PlanRule = {
  id: 'CNPGI213',
  name: 'major-version-refused',
  severities: { error: 'The new PostgreSQL major is lower than the old one, or an upgrade targets a major below 16.' },
  what: "A Cluster's PostgreSQL major version (image tag or image catalog `major`) is downgraded, or upgraded to 14 or 15.",
  why:
    `The webhook compares the new major with the one of the data directory (status.pgDataImageInfo, used here when the previous ` +
    `manifests carry a status, else the previous spec) and refuses downgrades and major upgrades to versions below 16 (${WEBHOOK} validateImageChange; ` +
    'the major comes from cloudnative-pg v1.30.0 api/v1/cluster_funcs.go GetPostgresqlMajorVersion; no image means pkg/versions DefaultImageName, PostgreSQL 18).',
  fix: 'Keep the old major, or upgrade to 16 or later; to go back, restore a backup into a new Cluster.',
  kinds: ['Cluster'],
};

/** @internal */
export const IMMUTABLE_CLUSTER_FIELD: PlanRule = {
  id: 'CNPGI214',
  name: 'immutable-cluster-field',
  severities: { error: '`postgresUID`, `postgresGID` (default 26) or `serviceAccountName` differs from before.' },
  what: 'A field the operator or the CRD keeps immutable changes on an existing Cluster.',
  why:
    `The webhook refuses UID and GID changes (${WEBHOOK} validateUnixPermissionIdentifierChange); the CRD refuses a changed ` +
    '`serviceAccountName` (cloudnative-pg v1.30.0 api/v1/cluster_types.go ClusterSpec.ServiceAccountName, rule `self == oldSelf`).',
  fix: 'Keep the old value; the field is fixed for the life of the Cluster.',
  kinds: ['Cluster'],
};

/** @internal */
export const REPLICATION_SLOTS_GUARDED: PlanRule = {
  id: 'CNPGI215',
  name: 'replication-slots-guarded',
  severities: { error: 'High-availability replication slots are enabled before and the slot prefix differs after (a removed section falls back to `_cnpg_`).' },
  what: 'The HA replication slot prefix changes while HA slots are enabled.',
  why:
    `The webhook refuses it so the operator can still clean up the old slots (${WEBHOOK} validateReplicationSlotsChange; defaults from ` +
    'cloudnative-pg v1.30.0 api/v1/cluster_defaults.go setDefaults).',
  fix: 'Disable `replicationSlots.highAvailability` first and apply, then change the prefix.',
  kinds: ['Cluster'],
};

/** @internal */
export const WAL_LEVEL_MINIMAL: PlanRule = {
  id: 'CNPGI216',
  name: 'wal-level-minimal',
  severities: { error: '`wal_level` was set and is now `minimal`.' },
  what: "An existing Cluster's `wal_level` changes to `minimal`.",
  why: `The webhook refuses it on an existing Cluster (${WEBHOOK} validateWALLevelChange).`,
  fix: 'Keep `wal_level` at `replica` or `logical`.',
  kinds: ['Cluster'],
};

/** @internal */
export const IMAGE_AND_PARAMETERS_SWITCHOVER: PlanRule = {
  id: 'CNPGI217',
  name: 'image-and-parameters-with-switchover',
  severities: { error: 'With `primaryUpdateMethod: switchover`, `imageName` and `postgresql.parameters` both change.' },
  what: 'One change updates the image and the PostgreSQL parameters of a Cluster that updates its primary by switchover.',
  why: `The webhook refuses the combination (${WEBHOOK} validateConfigurationChange).`,
  fix: 'Change the image in one commit and the parameters in the next.',
  kinds: ['Cluster'],
};

/** @internal */
export const BACKUP_SPEC_IMMUTABLE: PlanRule = {
  id: 'CNPGI218',
  name: 'backup-spec-immutable',
  severities: { error: 'A Backup of the same name has a different spec.' },
  what: 'The spec of an existing Backup changes.',
  why:
    'The CRD refuses it: "BackupSpec is immutable once set" (cloudnative-pg v1.30.0 api/v1/backup_types.go BackupSpec, rule `oldSelf == self`); ' +
    'the Backup webhook itself does not compare (internal/webhook/v1/backup_webhook.go ValidateUpdate).',
  fix: 'Give the Backup a new name (cdk8s-cnpg-i: a new id in `addBackup`); a Backup runs once.',
  kinds: ['Backup'],
};

/** @internal */
export const SCHEDULED_BACKUP_CLUSTER_IMMUTABLE: PlanRule = {
  id: 'CNPGI219',
  name: 'scheduled-backup-cluster-immutable',
  severities: { error: 'A ScheduledBackup of the same name backs up another Cluster.' },
  what: 'The `spec.cluster` of an existing ScheduledBackup changes.',
  why: 'The CRD refuses it: "cluster reference is immutable after creation" (cloudnative-pg v1.30.0 api/v1/scheduledbackup_types.go ScheduledBackupSpec.Cluster).',
  fix: 'Create a new ScheduledBackup for the other Cluster and remove the old one.',
  kinds: ['ScheduledBackup'],
};

/** @internal */
export const BOOTSTRAP_IGNORED: PlanRule = {
  id: 'CNPGI230',
  name: 'bootstrap-ignored',
  severities: { warning: '`spec.bootstrap` of an existing Cluster differs.' },
  what: 'The bootstrap method or its options change on a Cluster that exists.',
  why:
    'The operator bootstraps only a Cluster without instances (cloudnative-pg v1.30.0 internal/controller/cluster_controller.go reconcilePods ' +
    'calls createPrimaryInstance only when status.instances is 0): the change is accepted and does nothing.',
  fix: 'To recover or import, create a new Cluster with that bootstrap; otherwise revert the change.',
  kinds: ['Cluster'],
};

/** @internal */
export const STORAGE_CLASS_IGNORED: PlanRule = {
  id: 'CNPGI231',
  name: 'storage-class-ignored',
  severities: { warning: 'The StorageClass of `storage` or `walStorage` differs.' },
  what: "A Cluster's StorageClass changes.",
  why:
    'Existing PVCs are only resized and given a new VolumeAttributesClass (cloudnative-pg v1.30.0 pkg/reconciler/persistentvolumeclaim/existing.go ' +
    'reconcileExistingPVCs); the StorageClass applies to PVCs created later, so instances end up on different classes.',
  fix: 'Revert it, or replace the instances one by one deliberately (or create a new Cluster from a backup).',
  kinds: ['Cluster'],
};

/** @internal */
export const UPDATE_RULES: readonly PlanRule[] = [
  STORAGE_SHRINK,
  WAL_STORAGE_REMOVED,
  TABLESPACE_REMOVED,
  MAJOR_VERSION_REFUSED,
  IMMUTABLE_CLUSTER_FIELD,
  REPLICATION_SLOTS_GUARDED,
  WAL_LEVEL_MINIMAL,
  IMAGE_AND_PARAMETERS_SWITCHOVER,
  BACKUP_SPEC_IMMUTABLE,
  SCHEDULED_BACKUP_CLUSTER_IMMUTABLE,
  BOOTSTRAP_IGNORED,
  STORAGE_CLASS_IGNORED,
];

function checkShrink(ctx: PlanContext, o: PlanObject, path: string, before: unknown, after: unknown): void {
  const b = storageSize(before);
  const a = storageSize(after);
  if (b === undefined || a === undefined || a.bytes >= b.bytes) return;
  ctx.emit({
    ruleId: STORAGE_SHRINK.id,
    severity: 'error',
    object: o.ref,
    path,
    before: b.text,
    after: a.text,
    message: `shrinks from ${b.text} to ${a.text}, which the webhook refuses`,
    fix: `keep \`${path}: ${b.text}\` (or more)`,
  });
}

function storageClassOf(storage: unknown): string | undefined {
  return asString(dig(storage, 'storageClass')) ?? asString(dig(storage, 'pvcTemplate', 'storageClassName'));
}

function tablespaces(spec: Json | undefined): Map<string, Json> | undefined {
  if (spec?.tablespaces === undefined) return undefined;
  const out = new Map<string, Json>();
  for (const t of asArray(spec.tablespaces)) {
    const o = asObject(t);
    const name = asString(o?.name);
    if (o && name !== undefined) out.set(name, o);
  }
  return out;
}

function slotsHa(spec: Json | undefined): { enabled: boolean; prefix: string } {
  const ha = asObject(dig(spec, 'replicationSlots', 'highAvailability'));
  if (!ha) return { enabled: true, prefix: '_cnpg_' };
  return { enabled: ha.enabled !== false, prefix: asString(ha.slotPrefix) ?? '_cnpg_' };
}

function checkCluster(ctx: PlanContext, prev: PlanObject, next: PlanObject): void {
  const before = asObject(prev.body.spec);
  const after = asObject(next.body.spec);
  const emit = (rule: PlanRule, path: string, b: unknown, a: unknown, message: string, fix: string) =>
    ctx.emit({ ruleId: rule.id, severity: rule.severities.error ? 'error' : 'warning', object: next.ref, path, before: b, after: a, message, fix });

  checkShrink(ctx, next, 'spec.storage.size', before?.storage, after?.storage);
  if (before?.walStorage !== undefined && before.walStorage !== null) {
    if (after?.walStorage === undefined || after.walStorage === null) {
      emit(
        WAL_STORAGE_REMOVED,
        'spec.walStorage',
        storageSize(before.walStorage)?.text ?? before.walStorage,
        null,
        'is removed, which the webhook refuses: walStorage cannot be disabled once configured',
        'keep `spec.walStorage` as it was',
      );
    } else {
      checkShrink(ctx, next, 'spec.walStorage.size', before.walStorage, after.walStorage);
    }
  }
  const oldSpaces = tablespaces(before);
  if (oldSpaces) {
    const newSpaces = tablespaces(after);
    for (const [name, t] of oldSpaces) {
      const n = newSpaces?.get(name);
      if (!n) {
        emit(
          TABLESPACE_REMOVED,
          `spec.tablespaces[${name}]`,
          name,
          null,
          `drops tablespace '${name}', which the webhook refuses: no tablespace can be deleted once created`,
          `keep tablespace '${name}' in spec.tablespaces`,
        );
      } else {
        checkShrink(ctx, next, `spec.tablespaces[${name}].storage.size`, t.storage, n.storage);
      }
    }
  }

  const oldMajor = (() => {
    const status = dig(prev.body, 'status', 'pgDataImageInfo', 'majorVersion');
    return typeof status === 'number' ? status : specMajor(before);
  })();
  const newMajor = specMajor(after);
  if (oldMajor !== undefined && newMajor !== undefined) {
    const path = asObject(after?.imageCatalogRef) ? 'spec.imageCatalogRef.major' : 'spec.imageName';
    if (newMajor < oldMajor) {
      emit(
        MAJOR_VERSION_REFUSED,
        path,
        oldMajor,
        newMajor,
        `downgrades PostgreSQL from major ${oldMajor} to ${newMajor}, which the webhook refuses`,
        `keep PostgreSQL ${oldMajor}; to go back, restore a backup into a new Cluster`,
      );
    } else if (newMajor > oldMajor && newMajor < 16) {
      emit(
        MAJOR_VERSION_REFUSED,
        path,
        oldMajor,
        newMajor,
        `upgrades PostgreSQL from ${oldMajor} to ${newMajor}; the webhook only allows major upgrades to 16 or higher`,
        'upgrade to PostgreSQL 16 or later',
      );
    }
  }

  for (const field of ['postgresUID', 'postgresGID']) {
    const b = before?.[field] ?? 26;
    const a = after?.[field] ?? 26;
    if (b !== a) {
      emit(IMMUTABLE_CLUSTER_FIELD, `spec.${field}`, b, a, `changes from ${b} to ${a}; the webhook keeps it immutable`, `keep \`spec.${field}: ${b}\``);
    }
  }
  const sa = asString(before?.serviceAccountName);
  const saAfter = asString(after?.serviceAccountName);
  if (sa !== undefined && saAfter !== undefined && sa !== saAfter) {
    emit(
      IMMUTABLE_CLUSTER_FIELD,
      'spec.serviceAccountName',
      sa,
      saAfter,
      `changes from '${sa}' to '${saAfter}'; the CRD keeps it immutable`,
      `keep \`spec.serviceAccountName: ${sa}\``,
    );
  }

  const haBefore = slotsHa(before);
  const haAfter = slotsHa(after);
  if (haBefore.enabled && haBefore.prefix !== haAfter.prefix) {
    emit(
      REPLICATION_SLOTS_GUARDED,
      'spec.replicationSlots.highAvailability.slotPrefix',
      haBefore.prefix,
      haAfter.prefix,
      `changes from '${haBefore.prefix}' to '${haAfter.prefix}' while HA replication slots are enabled, which the webhook refuses`,
      'disable replicationSlots.highAvailability first, apply, then change the prefix',
    );
  }

  const walBefore = asString(dig(before, 'postgresql', 'parameters', 'wal_level'));
  const walAfter = asString(dig(after, 'postgresql', 'parameters', 'wal_level'));
  if (walAfter === 'minimal' && walBefore !== undefined && walBefore !== '' && walBefore !== walAfter) {
    emit(
      WAL_LEVEL_MINIMAL,
      'spec.postgresql.parameters.wal_level',
      walBefore,
      walAfter,
      `changes from '${walBefore}' to 'minimal', which the webhook refuses on an existing Cluster`,
      `keep \`wal_level: ${walBefore}\``,
    );
  }

  const imageBefore = asString(before?.imageName) ?? '';
  const imageAfter = asString(after?.imageName) ?? '';
  if (
    imageBefore !== imageAfter &&
    asString(after?.primaryUpdateMethod) === 'switchover' &&
    canonical(dig(before, 'postgresql', 'parameters') ?? {}) !== canonical(dig(after, 'postgresql', 'parameters') ?? {})
  ) {
    emit(
      IMAGE_AND_PARAMETERS_SWITCHOVER,
      'spec.imageName',
      imageBefore,
      imageAfter,
      'changes together with postgresql.parameters while primaryUpdateMethod is switchover, which the webhook refuses',
      'change the image in one commit and the parameters in another',
    );
  }

  if (canonical(before?.bootstrap ?? null) !== canonical(after?.bootstrap ?? null)) {
    ctx.emit({
      ruleId: BOOTSTRAP_IGNORED.id,
      severity: 'warning',
      object: next.ref,
      path: 'spec.bootstrap',
      before: before?.bootstrap ?? null,
      after: after?.bootstrap ?? null,
      message: 'changes on an existing Cluster: the operator bootstraps a Cluster only once, so the change does nothing',
      fix: 'revert it; to recover or import, create a new Cluster with that bootstrap',
    });
  }
  for (const section of ['storage', 'walStorage']) {
    const b = storageClassOf(before?.[section]);
    const a = storageClassOf(after?.[section]);
    if (after?.[section] !== undefined && before?.[section] !== undefined && b !== a) {
      ctx.emit({
        ruleId: STORAGE_CLASS_IGNORED.id,
        severity: 'warning',
        object: next.ref,
        path: `spec.${section}.storageClass`,
        before: b ?? null,
        after: a ?? null,
        message: `changes from ${b === undefined ? 'the default class' : `'${b}'`} to ${a === undefined ? 'the default class' : `'${a}'`}: existing PVCs keep their class, only new ones get it`,
        fix: `revert it, or move instances deliberately (one at a time, or a new Cluster from a backup)`,
      });
    }
  }
}

/** @internal */
export function checkUpdates(ctx: PlanContext): void {
  for (const prev of ctx.previous.ofKind('Cluster', CNPG_GROUP)) {
    const next = ctx.next.get(prev);
    if (next) checkCluster(ctx, prev, next);
  }
  for (const prev of ctx.previous.ofKind('Backup', CNPG_GROUP)) {
    const next = ctx.next.get(prev);
    if (next && canonical(prev.body.spec ?? null) !== canonical(next.body.spec ?? null)) {
      ctx.emit({
        ruleId: BACKUP_SPEC_IMMUTABLE.id,
        severity: 'error',
        object: next.ref,
        path: 'spec',
        before: prev.body.spec ?? null,
        after: next.body.spec ?? null,
        message: 'changes its spec, which the CRD refuses: a Backup spec is immutable once set',
        fix: `leave Backup '${prev.name}' as it is and add a Backup with another name`,
      });
    }
  }
  for (const prev of ctx.previous.ofKind('ScheduledBackup', CNPG_GROUP)) {
    const next = ctx.next.get(prev);
    const b = asString(dig(prev.body, 'spec', 'cluster', 'name'));
    const a = asString(dig(next?.body, 'spec', 'cluster', 'name'));
    if (next && b !== a) {
      ctx.emit({
        ruleId: SCHEDULED_BACKUP_CLUSTER_IMMUTABLE.id,
        severity: 'error',
        object: next.ref,
        path: 'spec.cluster.name',
        before: b ?? null,
        after: a ?? null,
        message: `moves from Cluster '${b}' to '${a}', which the CRD refuses: the cluster reference is immutable`,
        fix: 'create a ScheduledBackup with another name for the other Cluster',
      });
    }
  }
}
