/*
 * The Cluster webhook's checks of an update (cloudnative-pg v1.30.0
 * internal/webhook/v1/cluster_webhook.go validateClusterChanges): each judges the new Cluster
 * against the stored one, both defaulted (ValidateUpdate runs SetDefaults on the stored one).
 * Each issue carries the value before and after, which the plan reports.
 */
import { Json, asArray, asObject, asString, dig, jsonText, stringMap } from '../../manifests/json';
import { QuantityValue, compareQuantities, parseQuantity } from '../../manifests/quantity';
import type { AdmissionChangeCheck, AdmissionContext, ChangeIssue } from './admission-check';
import { isReplicaCluster, postgresMajor } from './cluster-reading';
import { isSet } from './go-values';

function specOf(cluster: Json): Json {
  return asObject(cluster.spec) ?? {};
}

/**
 * validateImageChange: the new major against the major of the data directory, which only the
 * stored object's `status.pgDataImageInfo.majorVersion` knows (no status, nothing to compare): no
 * downgrade, and no major upgrade to a major below 16.
 */
function imageChange(next: Json, previous: Json, context: AdmissionContext): ChangeIssue[] {
  const path = asObject(specOf(next).imageCatalogRef) ? 'spec.imageCatalogRef.major' : 'spec.imageName';
  const after = postgresMajor(next, context);
  const info = asObject(dig(previous, 'status', 'pgDataImageInfo'));
  if (after === undefined || !info) return [];
  // a recorded image without its major is major 0 to the webhook (the Go zero value)
  const before = info.majorVersion === undefined || info.majorVersion === null ? 0 : info.majorVersion;
  if (typeof before !== 'number' || !Number.isSafeInteger(before)) return [];
  if (before > after) {
    return [
      {
        severity: 'error',
        path,
        message: `asks for PostgreSQL ${after} on a data directory of PostgreSQL ${before}; the Cluster webhook refuses it ("can't downgrade from major ${before} to ${after}"): a data directory never goes back to an older major`,
        fix: `keep major ${before}; to run ${after}, restore a backup into a new Cluster`,
        before,
        after,
      },
    ];
  }
  if (before < after && after < 16) {
    return [
      {
        severity: 'error',
        path,
        message: `upgrades PostgreSQL from ${before} to ${after}; the Cluster webhook refuses it ("major upgrades are only supported to version 16 or higher")`,
        fix: `upgrade to PostgreSQL 16 or later, or keep major ${before}`,
        before,
        after,
      },
    ];
  }
  return [];
}

/** Go's encoding/json text of a value: compact, with `<`, `>`, `&`, U+2028 and U+2029 escaped. */
function goJson(value: unknown): string {
  return jsonText(value).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * validateConfigurationChange: with `primaryUpdateMethod: switchover`, a new `imageName` and
 * different `postgresql.parameters` (both as defaulted) in the same update.
 */
function configurationChange(next: Json, previous: Json): ChangeIssue[] {
  const before = asString(specOf(previous).imageName) ?? '';
  const after = asString(specOf(next).imageName) ?? '';
  if (before === after || specOf(next).primaryUpdateMethod !== 'switchover') return [];
  const oldParameters = stringMap(dig(previous, 'spec', 'postgresql', 'parameters'));
  const newParameters = stringMap(dig(next, 'spec', 'postgresql', 'parameters'));
  const diff: Record<string, [string, string]> = {};
  for (const key of [...new Set([...Object.keys(oldParameters), ...Object.keys(newParameters)])].sort()) {
    const o = Object.prototype.hasOwnProperty.call(oldParameters, key) ? oldParameters[key] : undefined;
    const n = Object.prototype.hasOwnProperty.call(newParameters, key) ? newParameters[key] : undefined;
    if (o !== undefined && n !== undefined && o === n) continue;
    diff[key] = [o ?? '', n ?? ''];
  }
  if (Object.keys(diff).length === 0) return [];
  return [
    {
      severity: 'error',
      path: 'spec.imageName',
      message:
        'changes together with postgresql.parameters while primaryUpdateMethod is switchover; the Cluster webhook refuses it ' +
        `("Can't change image name and configuration at the same time when \`primaryUpdateMethod\` is set to \`switchover\`. ` +
        `There are differences in PostgreSQL configuration parameters: ${goJson(diff)}")`,
      fix: 'change the image in one update and the parameters in the next',
      before,
      after,
    },
  ];
}

/** A requested size as the operator reads it (GetSizeOrNil), with the field it came from. */
interface Size {
  readonly text: string;
  readonly value: QuantityValue;
  /** The field under the storage section: `size` or `pvcTemplate.resources.requests.storage`. */
  readonly field: string;
}

/**
 * `size` when it is set; else, with a `pvcTemplate`, its storage request (none is zero); else
 * none. A size that does not parse is none too: the webhook then does not compare.
 */
function sizeOf(storage: unknown): Size | undefined {
  const s = asObject(storage);
  if (!s) return undefined;
  const size = asString(s.size) ?? '';
  if (size !== '') {
    const value = parseQuantity(size);
    return value && { text: size, value, field: 'size' };
  }
  if (!asObject(s.pvcTemplate)) return undefined;
  const request = dig(s.pvcTemplate, 'resources', 'requests', 'storage');
  const text = request === undefined || request === null ? '0' : request;
  const value = parseQuantity(text);
  return value && { text: String(text), value, field: 'pvcTemplate.resources.requests.storage' };
}

/**
 * validateStorageConfigurationChange: a readable new size below the readable old one. `base` is
 * the JSON path of the section in the new object, `webhookPath` the path the webhook names.
 */
function shrink(base: string, webhookPath: string, what: string, oldStorage: unknown, newStorage: unknown): ChangeIssue[] {
  const before = sizeOf(oldStorage);
  const after = sizeOf(newStorage);
  if (!before || !after || compareQuantities(before.value, after.value) <= 0) return [];
  const path = `${base}.${after.field}`;
  return [
    {
      severity: 'error',
      path,
      ...(webhookPath !== path ? { webhookPath } : {}),
      message: `shrinks ${what} from ${before.text} to ${after.text}; the Cluster webhook refuses it ("can't shrink existing storage from ${before.text} to ${after.text}"): a PersistentVolumeClaim can only grow`,
      fix: `keep ${path}: ${before.text} or more; for smaller volumes, restore a backup into a new Cluster`,
      before: before.text,
      after: after.text,
    },
  ];
}

/** validateStorageChange: `spec.storage` does not shrink. */
function storageChange(next: Json, previous: Json): ChangeIssue[] {
  return shrink('spec.storage', 'spec.storage', 'the storage', specOf(previous).storage, specOf(next).storage);
}

/** validateWalStorageChange: a configured `spec.walStorage` stays, and does not shrink. */
function walStorageChange(next: Json, previous: Json): ChangeIssue[] {
  const old = specOf(previous).walStorage;
  if (!isSet(old)) return [];
  const current = specOf(next).walStorage;
  if (!isSet(current)) {
    return [
      {
        severity: 'error',
        path: 'spec.walStorage',
        message:
          'is removed; the Cluster webhook refuses it ("walStorage cannot be disabled once configured"): the instances keep their WAL on a volume of its own',
        fix: 'keep spec.walStorage as it was',
        before: sizeOf(old)?.text ?? old,
        after: null,
      },
    ];
  }
  return shrink('spec.walStorage', 'spec.walStorage', 'the WAL storage', old, current);
}

/** The name of a tablespace entry (`''` when it has none, as Go reads a missing string). */
const tablespaceName = (t: unknown) => asString(dig(t, 'name')) ?? '';

/**
 * validateTablespacesChange: a declared `spec.tablespaces` stays, each of its tablespaces stays
 * (found by name), and none shrinks. The webhook names a tablespace by its index in the stored
 * object; the JSON path names it by name, as the index of a removed one means nothing in the new
 * object.
 */
function tablespacesChange(next: Json, previous: Json): ChangeIssue[] {
  const old = specOf(previous).tablespaces;
  if (!isSet(old)) return [];
  const current = specOf(next).tablespaces;
  const oldNames = asArray(old).map(tablespaceName);
  if (!isSet(current)) {
    return [
      {
        severity: 'error',
        path: 'spec.tablespaces',
        message: `is removed; the Cluster webhook refuses it ("tablespaces section cannot be deleted once created"): PostgreSQL keeps the tablespaces`,
        fix: `keep spec.tablespaces with ${oldNames.length === 1 ? 'its tablespace' : 'every tablespace it had'} (${oldNames.map((n) => `'${n}'`).join(', ')})`,
        before: oldNames,
        after: null,
      },
    ];
  }
  const issues: ChangeIssue[] = [];
  asArray(old).forEach((t, i) => {
    const name = tablespaceName(t);
    const kept = asArray(current).find((n) => tablespaceName(n) === name);
    if (kept !== undefined) {
      issues.push(...shrink(`spec.tablespaces[${name}].storage`, `spec.tablespaces[${i}]`, `tablespace '${name}'`, dig(t, 'storage'), dig(kept, 'storage')));
      return;
    }
    issues.push({
      severity: 'error',
      path: `spec.tablespaces[${name}]`,
      webhookPath: `spec.tablespaces[${i}]`,
      message: `drops tablespace '${name}'; the Cluster webhook refuses it ("no tablespace can be deleted once created")`,
      fix: `keep tablespace '${name}' in spec.tablespaces`,
      before: name,
      after: null,
    });
  });
  return issues;
}

/** validateUnixPermissionIdentifierChange: `postgresGID` and `postgresUID` never change (unset is 0 to Go). */
function unixIdentifierChange(next: Json, previous: Json): ChangeIssue[] {
  const issues: ChangeIssue[] = [];
  for (const [field, what] of [
    ['postgresGID', 'GID'],
    ['postgresUID', 'UID'],
  ] as const) {
    const before = specOf(previous)[field] ?? 0;
    const after = specOf(next)[field] ?? 0;
    if (jsonText(before) === jsonText(after)) continue;
    issues.push({
      severity: 'error',
      path: `spec.${field}`,
      message: `changes from ${jsonText(before)} to ${jsonText(after)}; the Cluster webhook refuses it ("${what} is an immutable field in the spec"): the files of the data directory belong to the old ${what}`,
      fix: `keep spec.${field}: ${jsonText(before)}`,
      before,
      after,
    });
  }
  return issues;
}

/** A `*Configuration` stanza's `GetEnabled`: enabled unless `enabled: false` (an absent stanza too). */
const enabledOf = (stanza: unknown) => dig(stanza, 'enabled') !== false;

/**
 * validateReplicationSlotsChange: while HA slots are enabled in the stored object, the new one
 * keeps `replicationSlots.highAvailability` and its `slotPrefix` (the operator finds the slots to
 * drop by it); while slot synchronization is enabled, the new one keeps
 * `replicationSlots.synchronizeReplicas` (the operator cleans up the synchronized slots through it).
 */
function replicationSlotsChange(next: Json, previous: Json): ChangeIssue[] {
  const old = asObject(specOf(previous).replicationSlots);
  if (!old) return [];
  const current = asObject(specOf(next).replicationSlots);
  const issues: ChangeIssue[] = [];
  const removed = (section: 'highAvailability' | 'synchronizeReplicas', quote: string): ChangeIssue => {
    const path = current ? `spec.replicationSlots.${section}` : 'spec.replicationSlots';
    const feature = `replicationSlots.${section}.enabled`;
    return {
      severity: 'error',
      path,
      message: `is removed while ${feature} is true; the Cluster webhook refuses it ("${quote.replace('<path>', path)}")`,
      fix: `keep ${path}; set ${feature}: false in one update, then remove it in the next`,
      before: current ? (old[section] ?? null) : old,
      after: null,
    };
  };
  if (enabledOf(old.highAvailability)) {
    const ha = asObject(current?.highAvailability);
    if (!ha) {
      issues.push(removed('highAvailability', 'Cannot remove <path> section while highAvailability is enabled'));
    } else {
      const before = asString(dig(old.highAvailability, 'slotPrefix')) ?? '';
      const after = asString(ha.slotPrefix) ?? '';
      if (before !== after) {
        issues.push({
          severity: 'error',
          path: 'spec.replicationSlots.highAvailability.slotPrefix',
          message: `changes from '${before}' to '${after}' while the HA replication slots are enabled; the Cluster webhook refuses it ("Cannot change replication slot prefix while highAvailability is enabled"): the operator finds the slots to drop by their prefix`,
          fix: `keep slotPrefix '${before}'; to change it, set replicationSlots.highAvailability.enabled: false in one update, then change the prefix`,
          before,
          after,
        });
      }
    }
  }
  if (enabledOf(old.synchronizeReplicas) && !asObject(current?.synchronizeReplicas)) {
    issues.push(
      removed(
        'synchronizeReplicas',
        'Cannot remove <path> section while synchronizeReplicas is enabled. Disable synchronizeReplicas first to allow cleanup of user-defined replication slots on replicas',
      ),
    );
  }
  return issues;
}

/** validateWALLevelChange: `wal_level` does not become `minimal` on an existing Cluster (the stored one defaulted: `logical` unless set). */
function walLevelChange(next: Json, previous: Json): ChangeIssue[] {
  const before = stringMap(dig(previous, 'spec', 'postgresql', 'parameters')).wal_level ?? '';
  const after = stringMap(dig(next, 'spec', 'postgresql', 'parameters')).wal_level ?? '';
  if (after !== 'minimal' || before === '' || before === after) return [];
  return [
    {
      severity: 'error',
      path: 'spec.postgresql.parameters.wal_level',
      message: `changes from '${before}' to 'minimal'; the Cluster webhook refuses it on an existing Cluster ("Change of \`wal_level\` to \`minimal\` not allowed on an existing cluster (from ${before})"): replicas and WAL archiving need more WAL than minimal writes`,
      fix: `keep wal_level: ${before}`,
      before,
      after,
    },
  ];
}

/**
 * validateReplicaClusterChange: the replica role does not change while the operator is switching
 * the Cluster to a replica (`status.switchReplicaClusterStatus.inProgress`, which the API server
 * keeps from the stored object on an update).
 */
function replicaClusterChange(next: Json, previous: Json): ChangeIssue[] {
  const before = isReplicaCluster(previous);
  const after = isReplicaCluster(next);
  if (before === after || dig(next, 'status', 'switchReplicaClusterStatus', 'inProgress') !== true) return [];
  const replica = asObject(specOf(next).replica);
  const path = !replica ? 'spec.replica' : typeof replica.enabled === 'boolean' ? 'spec.replica.enabled' : 'spec.replica.primary';
  return [
    {
      severity: 'error',
      path,
      ...(path !== 'spec.replica.enabled' ? { webhookPath: 'spec.replica.enabled' } : {}),
      message: `makes the Cluster a ${after ? 'replica' : 'primary'} cluster while the operator is still switching it to a replica (status.switchReplicaClusterStatus.inProgress); the Cluster webhook forbids it ("cannot modify the field while there is an ongoing operation to enable the replica cluster")`,
      fix: 'wait until status.switchReplicaClusterStatus.inProgress is false, then change the replica role',
      before,
      after,
    },
  ];
}

/** The update checks, in the webhook's order. @internal */
export const CLUSTER_CHANGE_CHECKS: readonly AdmissionChangeCheck[] = [
  { kind: 'Cluster', upstream: 'validateImageChange', check: imageChange },
  { kind: 'Cluster', upstream: 'validateConfigurationChange', check: configurationChange },
  { kind: 'Cluster', upstream: 'validateStorageChange', check: storageChange },
  { kind: 'Cluster', upstream: 'validateWalStorageChange', check: walStorageChange },
  { kind: 'Cluster', upstream: 'validateTablespacesChange', check: tablespacesChange },
  { kind: 'Cluster', upstream: 'validateUnixPermissionIdentifierChange', check: unixIdentifierChange },
  { kind: 'Cluster', upstream: 'validateReplicationSlotsChange', check: replicationSlotsChange },
  { kind: 'Cluster', upstream: 'validateWALLevelChange', check: walLevelChange },
  { kind: 'Cluster', upstream: 'validateReplicaClusterChange', check: replicaClusterChange },
];
