/*
 * Restorability: where a Cluster's WAL and base backups go, where a Cluster recovers from, and
 * what makes a backup that cannot be restored. Read from the pinned code:
 *
 * - cloudnative-pg v1.30.0 pkg/postgres/configuration.go CreatePostgresqlConfiguration: every
 *   instance runs with archive_mode on (always for a replica cluster) and archive_command
 *   `/controller/manager wal-archive`, unless the Cluster carries `cnpg.io/skipWalArchiving:
 *   enabled` (pkg/utils/labels_annotations.go IsWalArchivingDisabled), which sets archive_mode off.
 * - cloudnative-pg v1.30.0 pkg/management/postgres/archiver/archiver.go internalRun,
 *   archiveWALViaPlugins: `wal-archive` asks every enabled plugin that has the WAL archive
 *   capability to archive the segment, whether or not it is marked isWALArchiver; only a plugin
 *   marked isWALArchiver must be loaded (ErrMissingWALArchiverPlugin), the others are skipped
 *   when their socket is absent (internal/cnpi/plugin/client/create.go innerNewClient keeps the
 *   enabled plugins that are available). With no archiver plugin, the in-tree
 *   spec.backup.barmanObjectStore archives; without it the segment is reported archived and
 *   nothing is stored.
 * - plugin-barman-cloud v0.14.0 internal/cnpgi/common/wal.go Archive never reads isWALArchiver:
 *   it archives into the ObjectStore `barmanObjectName` under `serverName` (the Cluster's name by
 *   default; internal/cnpgi/operator/config/config.go NewFromCluster), and the instance sidecar
 *   is injected when barmanObjectName is set (internal/cnpgi/operator/lifecycle.go
 *   reconcileInstancePod). On the first WAL of a new Cluster it runs
 *   barman-cloud-check-wal-archive (CheckBackupDestination), which fails when the destination
 *   already holds WAL.
 * - barman-cloud (the commit plugin-barman-cloud v0.14.0 pins) pkg/archiver/archiver.go and
 *   pkg/command/commandbuilder.go: the WAL archive, its check and the WAL restore use the
 *   ObjectStore's own `configuration.serverName` when it is set, over the Cluster's; base backups
 *   (pkg/backup/backup.go GetBarmanCloudBackupOptions) and the backup list
 *   (pkg/command/backuplist.go GetBackupList) use the Cluster's.
 * - plugin-barman-cloud v0.14.0 internal/cnpgi/restore/restore.go Restore: a recovery lists the
 *   backups of the recovery serverName (the recovering Cluster's own name by default), fails with
 *   "no target backup found" when there is none, and fails when the backup's first WAL is not in
 *   the archive (ensureArchiveContainsLastCheckpointRedoWAL).
 */
import { Json, asArray, asObject, asString, dig, objectMeta, stringMap } from '../manifests/json';
import { BARMAN_CLOUD_PLUGIN_NAME } from '../manifests/known-plugins';
import {
  SKIP_EMPTY_WAL_ARCHIVE_CHECK_ANNOTATION,
  barmanCloudConfig,
  emptyArchiveCheckOutcome,
  emptyWalArchiveCheckSkipped,
  skipAnnotationNote,
} from './barman-cloud';
import { CheckIssue } from './issue';

/** The annotation that sets archive_mode off (cloudnative-pg v1.30.0 pkg/utils/labels_annotations.go SkipWalArchiving). @internal */
export const SKIP_WAL_ARCHIVING_ANNOTATION = 'cnpg.io/skipWalArchiving';

/**
 * One Barman Cloud destination: an ObjectStore through the plugin, or an in-tree
 * `barmanObjectStore` section, with the server name below it.
 * @internal
 */
export interface BarmanDestination {
  /** `plugin`: the Barman Cloud plugin and an ObjectStore; `in-tree`: a `barmanObjectStore` section. */
  readonly via: 'plugin' | 'in-tree';
  /** The ObjectStore's name, in `namespace` (plugin only). */
  readonly objectStore?: string;
  /** The namespace the ObjectStore is looked up in: the Cluster's. */
  readonly namespace?: string;
  /** The section's `destinationPath` (in-tree only). */
  readonly destinationPath?: string;
  /** The section's `endpointURL` (in-tree only). */
  readonly endpointURL?: string;
  /** The section's own `serverName` (in-tree only). */
  readonly sectionServerName?: string;
  /** The server name the Cluster names (base backups and the backup list use it). */
  readonly serverName: string;
  /** The field that configures it. */
  readonly path: string;
}

/**
 * How a Cluster archives its WAL: what {@link walArchivingOf} reads.
 * @internal
 */
export interface WalArchiving {
  /** The Cluster's name. */
  readonly name: string;
  /** Whether `cnpg.io/skipWalArchiving: enabled` sets archive_mode off. */
  readonly disabled: boolean;
  /** The enabled plugin marked isWALArchiver, if any. */
  readonly declaredArchiver?: string;
  /**
   * Where the WAL and the base backups go through Barman Cloud: the plugin when it is enabled
   * with a barmanObjectName, and the in-tree section when no plugin is the archiver.
   */
  readonly destinations: readonly BarmanDestination[];
  /** The enabled plugins other than Barman Cloud: each may archive WAL, which the manifests do not show. */
  readonly otherPlugins: readonly string[];
}

/**
 * Where a Cluster writes its WAL and base backups (the one reader of this question; the
 * constructs and the doctor both use it). A Cluster of the input, as JSON.
 * @internal
 */
export function walArchivingOf(cluster: Json): WalArchiving {
  const { name, namespace } = objectMeta(cluster);
  const annotations = stringMap(dig(cluster, 'metadata', 'annotations'));
  const entries = asArray(dig(cluster, 'spec', 'plugins')).map((p) => asObject(p) ?? {});
  const enabled = entries.filter((p) => p.enabled !== false && typeof p.name === 'string' && p.name !== '');
  const declaredArchiver = asString(enabled.find((p) => p.isWALArchiver === true)?.name);
  const destinations: BarmanDestination[] = [];
  // The plugin's own reading (barmanCloudConfig, after config.go NewFromCluster): the parameters of
  // the last entry with its name, serverName from the last enabled one; it archives when enabled.
  const last = entries.map((p) => p.name).lastIndexOf(BARMAN_CLOUD_PLUGIN_NAME);
  const config = barmanCloudConfig(cluster);
  if (last >= 0 && config.barmanObjectName !== '' && enabled.some((p) => p.name === BARMAN_CLOUD_PLUGIN_NAME)) {
    destinations.push({
      via: 'plugin',
      objectStore: config.barmanObjectName,
      namespace,
      serverName: config.serverName,
      path: `spec.plugins[${last}].parameters.barmanObjectName`,
    });
  }
  const section = asObject(dig(cluster, 'spec', 'backup', 'barmanObjectStore'));
  if (section && declaredArchiver === undefined) {
    const own = asString(section.serverName) ?? '';
    destinations.push({
      via: 'in-tree',
      destinationPath: asString(section.destinationPath) ?? '',
      endpointURL: asString(section.endpointURL) ?? '',
      sectionServerName: own,
      serverName: own || name,
      path: 'spec.backup.barmanObjectStore',
    });
  }
  const otherPlugins = enabled.map((p) => String(p.name)).filter((n) => n !== BARMAN_CLOUD_PLUGIN_NAME);
  return {
    name,
    disabled: annotations[SKIP_WAL_ARCHIVING_ANNOTATION] === 'enabled',
    declaredArchiver,
    destinations,
    otherPlugins: [...new Set(otherPlugins)],
  };
}

/**
 * A Barman Cloud destination a Cluster reads from: its recovery source
 * (`spec.bootstrap.recovery.source`) or its replica source (`spec.replica.source`).
 * @internal
 */
export interface ArchiveSource {
  readonly role: 'recovery' | 'replica';
  /** The external cluster's name. */
  readonly externalCluster: string;
  readonly destination: BarmanDestination;
  /** Whether the server name was left to its default (the plugin: the recovering Cluster's name). */
  readonly serverNameDefaulted: boolean;
}

/**
 * The Barman Cloud destinations a Cluster recovers or replicates from. The plugin's recovery
 * serverName defaults to the recovering Cluster's own name (plugin-barman-cloud v0.14.0
 * config.go NewFromCluster), an in-tree external cluster's to the external cluster's name
 * (cloudnative-pg v1.30.0 api/v1/cluster_funcs.go ExternalCluster.GetServerName).
 * @internal
 */
export function archiveSourcesOf(cluster: Json): ArchiveSource[] {
  const { name, namespace } = objectMeta(cluster);
  const externals = asArray(dig(cluster, 'spec', 'externalClusters')).map((e) => asObject(e) ?? {});
  const out: ArchiveSource[] = [];
  const read = (role: ArchiveSource['role'], source: string | undefined): void => {
    if (!source) return;
    const i = externals.findIndex((e) => e.name === source);
    if (i < 0) return;
    const ext = externals[i];
    const plugin = asObject(ext.plugin);
    // config.go getRecoveryParameters reads the plugin whatever its `enabled`.
    if (plugin && plugin.name === BARMAN_CLOUD_PLUGIN_NAME) {
      const params = stringMap(plugin.parameters);
      if (!params.barmanObjectName) return;
      out.push({
        role,
        externalCluster: source,
        serverNameDefaulted: !params.serverName,
        destination: {
          via: 'plugin',
          objectStore: params.barmanObjectName,
          namespace,
          serverName: params.serverName || name,
          path: `spec.externalClusters[${i}].plugin.parameters`,
        },
      });
      return;
    }
    const section = asObject(ext.barmanObjectStore);
    if (section) {
      const own = asString(section.serverName) ?? '';
      out.push({
        role,
        externalCluster: source,
        serverNameDefaulted: own === '',
        destination: {
          via: 'in-tree',
          destinationPath: asString(section.destinationPath) ?? '',
          endpointURL: asString(section.endpointURL) ?? '',
          sectionServerName: own,
          serverName: own || source,
          path: `spec.externalClusters[${i}].barmanObjectStore`,
        },
      });
    }
  };
  read('recovery', asString(dig(cluster, 'spec', 'bootstrap', 'recovery', 'source')));
  read('replica', asString(dig(cluster, 'spec', 'replica', 'source')));
  return out;
}

/**
 * Finds the ObjectStore `name` of `namespace` among the input's, when the caller has them.
 * @internal
 */
export type ObjectStoreLookup = (namespace: string | undefined, name: string) => Json | undefined;

/**
 * Where a destination's base backups and WAL are, as comparable keys: the bucket path and the
 * server name below it when the ObjectStore is known (or the section is in-tree), else the
 * ObjectStore's namespace and name. The WAL key uses the ObjectStore's own
 * `configuration.serverName` when it sets one (barman-cloud pkg/archiver/archiver.go
 * BarmanCloudWalArchiveOptions), the backup key never does.
 * @internal
 */
export function destinationKeys(d: BarmanDestination, lookup?: ObjectStoreLookup): DestinationKeys {
  if (d.via === 'in-tree') {
    const place = `${d.endpointURL ?? ''}\u0000${trimSlash(d.destinationPath ?? '')}`;
    return {
      backups: `${place}\u0000${d.serverName}`,
      wal: `${place}\u0000${d.serverName}`,
      walServer: d.serverName,
      where: `destinationPath '${d.destinationPath}'`,
    };
  }
  const store = lookup?.(d.namespace, d.objectStore ?? '');
  const config = asObject(dig(store, 'spec', 'configuration'));
  if (!config) {
    const place = `store\u0000${d.namespace ?? ''}\u0000${d.objectStore}`;
    return { backups: `${place}\u0000${d.serverName}`, wal: `${place}\u0000${d.serverName}`, walServer: d.serverName, where: `ObjectStore '${d.objectStore}'` };
  }
  const place = `${asString(config.endpointURL) ?? ''}\u0000${trimSlash(asString(config.destinationPath) ?? '')}`;
  const walServer = asString(config.serverName) || d.serverName;
  return {
    backups: `${place}\u0000${d.serverName}`,
    wal: `${place}\u0000${walServer}`,
    walServer,
    where: `ObjectStore '${d.objectStore}' (${asString(config.destinationPath) ?? ''})`,
  };
}

/** What {@link destinationKeys} gives. @internal */
export interface DestinationKeys {
  /** Where the base backups are: the place and the Cluster's server name. */
  readonly backups: string;
  /** Where the WAL is: the place and the WAL's server name. */
  readonly wal: string;
  /** The server name the WAL is under. */
  readonly walServer: string;
  /** The place, for a message. */
  readonly where: string;
}

function trimSlash(path: string): string {
  return path.replace(/\/+$/, '');
}

/** How a destination reads in a message. */
function describe(d: BarmanDestination, lookup?: ObjectStoreLookup): string {
  return `server '${d.serverName}' of ${destinationKeys(d, lookup).where}`;
}

/** Where to fix a destination's server name. */
function serverNameFix(d: BarmanDestination): string {
  return d.via === 'plugin' ? 'parameters.serverName' : 'barmanObjectStore.serverName';
}

/**
 * CNPGI120: a Backup or ScheduledBackup (method `plugin` or `barmanObjectStore`) of `cluster`
 * whose WAL is not archived. `backup` is the Backup or ScheduledBackup.
 *
 * Only Barman Cloud's backups (the in-tree `barmanObjectStore` method and the Barman Cloud
 * plugin) are known to be physical, restored by replaying WAL. For another plugin nothing in
 * CNPG-I says so: cnpg-i v0.5.0 (the version cloudnative-pg v1.30.0 uses) proto/backup.proto has
 * one backup capability, the Backup call, with no kind of backup; a recovery through a plugin is
 * that plugin's restore job hook (cloudnative-pg v1.30.0 pkg/management/postgres/restore.go
 * Restore and restoreViaPlugin when api/v1/cluster_funcs.go GetRecoverySourcePlugin names it,
 * internal/cnpi/plugin/client/restore_job.go innerRestore), which may restore a logical dump
 * that needs no WAL; and the instance manager asks every enabled plugin with the WAL capability
 * to archive, marked isWALArchiver or not (pkg/management/postgres/archiver/archiver.go
 * archiveWALViaPlugins). So such a plugin's backups are judged only when archive_mode is off,
 * and then conditionally.
 * @internal
 */
export function checkBackupWalArchive(backup: Json, cluster: Json | undefined): CheckIssue[] {
  if (!cluster) return [];
  const spec = asObject(backup.spec) ?? {};
  const method = asString(spec.method) ?? 'barmanObjectStore';
  if (method !== 'plugin' && method !== 'barmanObjectStore') return [];
  const a = walArchivingOf(cluster);
  if (!a.disabled) return [];
  const plugin = asString(dig(spec, 'pluginConfiguration', 'name')) ?? '';
  if (method === 'plugin' && plugin === '') return []; // no plugin named: the backup webhook's (CNPGI101)
  const noWal = `names Cluster '${a.name}', which has ${SKIP_WAL_ARCHIVING_ANNOTATION}: enabled: archive_mode is off and no WAL is archived`;
  const fix = `remove the ${SKIP_WAL_ARCHIVING_ANNOTATION} annotation from Cluster '${a.name}'`;
  if (method === 'barmanObjectStore' || plugin === BARMAN_CLOUD_PLUGIN_NAME) {
    return [
      {
        severity: 'error',
        path: 'spec.cluster.name',
        message: `${noWal}; the backup completes, but a restore needs the WAL from the backup's start to its end and Barman Cloud refuses a backup whose first WAL is not in the archive, so it cannot be restored`,
        fix,
      },
    ];
  }
  return [
    {
      severity: 'warning',
      path: 'spec.cluster.name',
      message: `${noWal}; if '${plugin}' takes physical backups, a restore needs the WAL from each backup's start to its end and they cannot be restored (a logical backup, such as a dump, needs no WAL)`,
      fix: `${fix}, if '${plugin}' takes physical backups`,
    },
  ];
}

/**
 * CNPGI123: Barman Cloud archives a Cluster's WAL but no plugin is marked isWALArchiver.
 * @internal
 */
export function checkUndeclaredWalArchiver(cluster: Json): CheckIssue[] {
  const a = walArchivingOf(cluster);
  const plugin = a.destinations.find((d) => d.via === 'plugin');
  if (a.disabled || a.declaredArchiver !== undefined || !plugin || a.destinations.some((d) => d.via === 'in-tree')) return [];
  const index = /^spec\.plugins\[(\d+)\]/.exec(plugin.path)?.[1];
  return [
    {
      severity: 'warning',
      path: `spec.plugins[${index}].isWALArchiver`,
      message: `Barman Cloud archives the WAL of Cluster '${a.name}' without being its WAL archiver: the instance manager asks it because it is enabled, but skips it without an error whenever its sidecar is not in the instance pod (only the plugin marked isWALArchiver must be loaded), so the segment is reported archived and a gap is left in the archive; the operator also restarts a primary that lacks the archiver's sidecar only for the plugin marked isWALArchiver`,
      fix: 'set isWALArchiver: true on the Barman Cloud entry of spec.plugins',
    },
  ];
}

/** What {@link checkArchiveSources} and {@link checkSharedArchive} know about the input. @internal */
export interface ArchiveInputOptions {
  /** Finds an ObjectStore of the input. */
  readonly lookup?: ObjectStoreLookup;
  /** The namespace a Cluster lives in, as the caller resolves it. */
  readonly namespaceOf?: (o: Json) => string | undefined;
  /**
   * Whether `clusters` are every Cluster there will be (the doctor's `complete`): a source that
   * none of them archives into is then a warning (its backups must be left by a Cluster that is
   * gone), and nothing otherwise.
   * @default false
   */
  readonly complete?: boolean;
}

/** A Cluster of an {@link ArchiveIndex}, with its archiving read once. @internal */
export interface IndexedCluster {
  readonly raw: Json;
  readonly namespace: string | undefined;
  readonly archiving: WalArchiving;
  /** The keys of each destination, in the order of `archiving.destinations`. */
  readonly keys: readonly DestinationKeys[];
}

/**
 * The Clusters of an input by where they archive, built once (each check then reads it by key,
 * so checking every Cluster is linear in the input).
 * @internal
 */
export class ArchiveIndex {
  public readonly options: ArchiveInputOptions;
  private readonly clusters = new Map<Json, IndexedCluster>();
  private readonly byBackups = new Map<string, IndexedCluster[]>();
  private readonly byWal = new Map<string, IndexedCluster[]>();
  private readonly byPlace = new Map<string, Array<{ readonly cluster: IndexedCluster; readonly destination: BarmanDestination }>>();

  public constructor(clusters: readonly Json[], options: ArchiveInputOptions = {}) {
    this.options = options;
    const add = <T>(map: Map<string, T[]>, key: string, value: T): void => {
      const list = map.get(key);
      if (list) list.push(value);
      else map.set(key, [value]);
    };
    for (const raw of clusters) {
      const c = this.of(raw);
      c.archiving.destinations.forEach((d, i) => {
        const k = c.keys[i];
        add(this.byBackups, k.backups, c);
        add(this.byWal, k.wal, c);
        add(this.byPlace, placeOf(k.backups), { cluster: c, destination: d });
      });
    }
  }

  /** A Cluster read once, with its plugin destinations in its namespace. */
  public of(raw: Json): IndexedCluster {
    const known = this.clusters.get(raw);
    if (known) return known;
    const a = walArchivingOf(raw);
    const namespace = this.options.namespaceOf?.(raw) ?? objectMeta(raw).namespace;
    const archiving = { ...a, destinations: a.destinations.map((d) => (d.via === 'plugin' ? { ...d, namespace } : d)) };
    const c: IndexedCluster = { raw, namespace, archiving, keys: archiving.destinations.map((d) => destinationKeys(d, this.options.lookup)) };
    this.clusters.set(raw, c);
    return c;
  }

  /** The Clusters other than `raw` whose base backups go to `key.backups` or whose WAL goes to `key.wal`. */
  public sharing(raw: Json, key: DestinationKeys, what: 'backups' | 'both'): IndexedCluster[] {
    const found = [...(this.byBackups.get(key.backups) ?? []), ...(what === 'both' ? (this.byWal.get(key.wal) ?? []) : [])];
    return [...new Set(found)].filter((c) => this.isOther(raw, c));
  }

  /**
   * Whether `c` is another Cluster than `raw`: not `raw`, nor another declaration of the same
   * Cluster (the same namespace and name: one object, whichever declaration is applied last;
   * CNPGI117 reports the repeat).
   */
  private isOther(raw: Json, c: IndexedCluster): boolean {
    if (c.raw === raw) return false;
    const me = this.of(raw);
    return !(c.namespace === me.namespace && c.archiving.name === me.archiving.name);
  }

  /** The destinations of Clusters other than `raw` at the place of `key` (any server name). */
  public atPlace(raw: Json, key: DestinationKeys): Array<{ readonly cluster: IndexedCluster; readonly destination: BarmanDestination }> {
    return (this.byPlace.get(placeOf(key.backups)) ?? []).filter((e) => this.isOther(raw, e.cluster));
  }
}

/** A key without its server name. */
function placeOf(key: string): string {
  return key.split('\u0000').slice(0, -1).join('\u0000');
}

/**
 * CNPGI121: each Barman Cloud recovery or replica source of `cluster` against what the other
 * `clusters` archive: one whose archiver archives no WAL, one whose WAL is archived elsewhere
 * than where the recovery reads it (errors); a server name no Cluster of the input archives
 * under while others archive at the same place under other names, or (complete input) a source
 * nothing archives into (warnings: the backups may be in the bucket all the same, left by a
 * Cluster that is gone or by this Cluster's earlier incarnation).
 * @internal
 */
export function checkArchiveSources(cluster: Json, index: ArchiveIndex): CheckIssue[] {
  const options = index.options;
  const namespace = index.of(cluster).namespace;
  const sources = archiveSourcesOf(cluster).map((s) => (s.destination.via === 'plugin' ? { ...s, destination: { ...s.destination, namespace } } : s));
  if (sources.length === 0) return [];
  const name = objectMeta(cluster).name;
  const issues: CheckIssue[] = [];
  for (const s of sources) {
    const key = destinationKeys(s.destination, options.lookup);
    const reads = s.role === 'recovery' ? `points the recovery of Cluster '${name}' at` : `points the replication of Cluster '${name}' at`;
    const found = index.sharing(cluster, key, 'backups').map((c) => c.archiving);
    const path = s.destination.via === 'plugin' ? `${s.destination.path}.serverName` : `${s.destination.path}.serverName`;
    if (found.length === 0) {
      // Whether anything fails depends on the bucket, which the input does not show: the source
      // Cluster may be gone (a disaster recovery) or be this Cluster's earlier incarnation. Only
      // say what the input shows (restore.go loadBackupObjectFromExternalCluster stops with "no
      // target backup found" when the server name holds no backup).
      const self = index.of(cluster).keys.some((k) => k.backups === key.backups);
      const samePlace = index.atPlace(cluster, key).map((e) => ({ cluster: e.cluster.archiving.name, serverName: e.destination.serverName }));
      if (samePlace.length === 0 && (self || !options.complete)) continue;
      const defaulted = s.serverNameDefaulted
        ? ` (no serverName is given, so ${s.destination.via === 'plugin' ? `Barman Cloud uses the recovering Cluster's own name '${name}'` : `CloudNativePG uses the external cluster's name '${s.externalCluster}'`})`
        : '';
      const server = s.destination.serverName;
      const works = `the ${s.role} works only if a Cluster not in the input left backups under '${server}' (Barman Cloud stops with "no target backup found" when there are none)`;
      issues.push({
        severity: 'warning',
        path,
        message: samePlace.length
          ? `${reads} ${describe(s.destination, options.lookup)}${defaulted}; ${self ? `only Cluster '${name}' itself archives under that server name there (after its recovery), and` : 'no Cluster in the input archives under that server name there, but'} ${samePlace.map((p) => `Cluster '${p.cluster}' archives there under server name '${p.serverName}'`).join(', ')}: ${works}`
          : `${reads} ${describe(s.destination, options.lookup)}${defaulted}, which no Cluster in the input archives into, and the input is said to be complete: ${works}`,
        fix: samePlace.length
          ? `if the backups are those of Cluster '${samePlace[0].cluster}', set ${serverNameFix(s.destination)}: ${samePlace[0].serverName} on external cluster '${s.externalCluster}'`
          : `check that the bucket holds backups under server '${server}', or set ${serverNameFix(s.destination)} on external cluster '${s.externalCluster}' to the server name the source Cluster archived into`,
      });
      continue;
    }
    for (const a of found) {
      if (a.disabled) {
        issues.push({
          severity: 'error',
          path,
          message: `${reads} ${describe(s.destination, options.lookup)}, the archive of Cluster '${a.name}', which has ${SKIP_WAL_ARCHIVING_ANNOTATION}: enabled and archives no WAL; Barman Cloud refuses a backup whose first WAL is not in the archive, and no recovery target past the backup can be reached`,
          fix: `remove the ${SKIP_WAL_ARCHIVING_ANNOTATION} annotation from Cluster '${a.name}'`,
        });
        continue;
      }
      const theirs = a.destinations.find((d) => destinationKeys(d, options.lookup).backups === key.backups);
      const their = theirs && destinationKeys(theirs, options.lookup);
      if (theirs && their && their.wal !== key.wal) {
        issues.push({
          severity: 'error',
          path: s.destination.via === 'plugin' ? `${s.destination.path}.barmanObjectName` : s.destination.path,
          message: `${reads} the backups of Cluster '${a.name}' in ${describe(s.destination, options.lookup)}, but the recovery reads WAL under server '${key.walServer}' while '${a.name}' archives it under server '${their.walServer}' (an ObjectStore's configuration.serverName replaces the server name for WAL only); Barman Cloud refuses the backup because its first WAL is not found`,
          fix:
            theirs.via === 'plugin'
              ? `set barmanObjectName: ${theirs.objectStore} on external cluster '${s.externalCluster}' (the ObjectStore Cluster '${a.name}' archives with)`
              : `recover through an ObjectStore without configuration.serverName`,
        });
      }
    }
  }
  return issues;
}

/**
 * CNPGI122: `cluster` archives its WAL or its base backups where another of `clusters` does.
 * @internal
 */
export function checkSharedArchive(cluster: Json, index: ArchiveIndex): CheckIssue[] {
  const options = index.options;
  const me = index.of(cluster);
  const a = me.archiving;
  const issues: CheckIssue[] = [];
  for (const [i, d] of a.destinations.entries()) {
    const others = index.sharing(cluster, me.keys[i], 'both').map((c) => c.archiving);
    if (others.length === 0) continue;
    const names = `${others.length > 1 ? 'Clusters' : 'Cluster'} ${others.map((o) => `'${o.name}'`).join(', ')} ${others.length > 1 ? 'archive' : 'archives'}`;
    const own = d.serverName !== a.name ? a.name : `${a.name}-${me.namespace ?? 'default'}`;
    const where = `is where Cluster '${a.name}' archives (${describe(d, options.lookup)}), and ${names} there too`;
    issues.push({
      severity: 'error',
      path: d.path,
      message: emptyWalArchiveCheckSkipped(cluster)
        ? `${where}; ${SKIP_EMPTY_WAL_ARCHIVE_CHECK_ANNOTATION}: enabled skips Barman Cloud's empty-archive check for '${a.name}', so it archives there anyway: two databases mix their WAL and base backups under one server name, and a recovery from it may pick the other Cluster's backup`
        : `${where}: whichever archives its first WAL second fails Barman Cloud's empty-archive check (barman-cloud-check-wal-archive finds WAL there) and its WAL is never archived${skipAnnotationNote(cluster)}; with ${SKIP_EMPTY_WAL_ARCHIVE_CHECK_ANNOTATION}: enabled (or once both archived before) two databases mix in one archive and a recovery may pick the other Cluster's backup`,
      fix: `give each Cluster its own server name (e.g. ${serverNameFix(d)}: ${own}) or its own ${d.via === 'plugin' ? 'ObjectStore' : 'destinationPath'}`,
    });
  }
  // Recovering into its own source through another ObjectStore name (the same name is CNPGI106's,
  // checkBarmanCloudCluster): restore.go Restore checks the Cluster's own destination is empty first,
  // unless the skip annotation says to continue the source's archive (a new timeline in it).
  const sources = emptyWalArchiveCheckSkipped(cluster) ? [] : archiveSourcesOf(cluster);
  for (const src of sources) {
    const sd = src.destination.via === 'plugin' ? { ...src.destination, namespace: me.namespace } : src.destination;
    const sk = destinationKeys(sd, options.lookup);
    for (const [i, d] of a.destinations.entries()) {
      if (d.via === 'plugin' && sd.via === 'plugin' && d.objectStore === sd.objectStore) continue;
      const k = me.keys[i];
      if (k.backups !== sk.backups && k.wal !== sk.wal) continue;
      issues.push({
        severity: 'error',
        path: d.path,
        message: `is where Cluster '${a.name}' archives (${describe(d, options.lookup)}), the same place as its ${src.role} source '${src.externalCluster}' (${describe(sd, options.lookup)}); its own archive already holds the source's WAL: ${emptyArchiveCheckOutcome(cluster)}${skipAnnotationNote(cluster)}; with ${SKIP_EMPTY_WAL_ARCHIVE_CHECK_ANNOTATION}: enabled it goes on and continues its source's archive on a new timeline`,
        fix: `give the Cluster its own server name (e.g. ${serverNameFix(d)}: ${a.name === sk.walServer || a.name === sd.serverName ? `${a.name}-v2` : a.name})`,
      });
    }
  }
  return issues;
}
