/*
 * The Secrets and ConfigMaps that CloudNativePG and the Barman Cloud plugin read for a Cluster,
 * an ObjectStore or a Pooler, with the keys each reader takes, and the Secrets the operator
 * writes itself. Only references a reader follows are listed: a field the operator does not read
 * in that configuration (a superuser Secret without superuser access, an external cluster nothing
 * connects to) is left out. Pods' `env`/`envFrom` and volumes are the kubelet's business, not
 * the operator's, and are not listed.
 */
import { Json, asArray, asObject, asString, dig, objectMeta } from '../manifests/json';
import { isReplicaCluster } from './admission/cluster-reading';
import { CheckIssue } from './issue';
import { goBase64Error } from './secret-contents';

/** A Secret or ConfigMap an object names, as one reader follows the reference. @internal */
export interface KeyedReference {
  readonly kind: 'Secret' | 'ConfigMap';
  readonly name: string;
  /** The field of the referring object that names it. */
  readonly path: string;
  /** The key sets the reader accepts: it needs every key of one of them (none: only the object). */
  readonly keys: ReadonlyArray<readonly string[]>;
  /** The `username` value a basic-auth reader compares with, when it compares. */
  readonly username?: string;
  /** Whether the reader trims spaces around both usernames before it compares them. */
  readonly trimsUsername?: boolean;
  /** Whether a ConfigMap's `binaryData` counts (a volume reads both maps; the operator's readers only `data`). */
  readonly readsBinaryData?: boolean;
  /** Who reads it and what happens when the object or a key is missing, in the reader's terms. */
  readonly effect: string;
}

const BASIC_AUTH = [['username', 'password']] as const;
const CA_PAIR = [['ca.crt', 'ca.key']] as const;
const TLS_PAIR = [['tls.crt', 'tls.key']] as const;

/** A `{ name, key }` selector, when it names both. */
function selector(value: unknown): { name: string; key: string } | undefined {
  const name = asString(dig(value, 'name'));
  const key = asString(dig(value, 'key'));
  return name && key ? { name, key } : undefined;
}

/**
 * The credentials and endpoint CA of a Barman object store configuration (the in-tree
 * `barmanObjectStore` of a Cluster or external cluster, an ObjectStore's `spec.configuration`):
 * barman-cloud v0.5.1 (and the commit plugin-barman-cloud v0.14.0 pins) pkg/credentials/env.go
 * envSetCloudCredentials reads one provider, S3 first, then Google, then Azure; envSetAWSCredentials
 * skips the Secrets with `inheritFromIAMRole`, envSetAzureCredentials with `inheritFromAzureAD` or
 * `useDefaultAzureCredentials`, envSetGoogleCredentials with `gkeEnvironment` and no
 * `applicationCredentials`; extractValueFromSecret fails on a missing Secret or key. The
 * `endpointCA` key is projected into the pod (cloudnative-pg v1.30.0 pkg/specs/pods.go
 * AddBarmanEndpointCAToPodSpec; plugin-barman-cloud v0.14.0
 * internal/cnpgi/operator/lifecycle_certificates.go collectObjectStoreCertificates), so the
 * kubelet does not start the pod without it.
 */
function barmanStoreReferences(configuration: unknown, path: string, reader: string): KeyedReference[] {
  const out: KeyedReference[] = [];
  const add = (field: string, value: unknown): void => {
    const s = selector(value);
    if (s)
      out.push({
        kind: 'Secret',
        name: s.name,
        path: `${path}.${field}`,
        keys: [[s.key]],
        effect: `${reader} reads it for the object store credentials and fails without it ("while getting secret" / "missing key"): WAL archiving, backups and restores through that store fail`,
      });
  };
  const s3 = asObject(dig(configuration, 's3Credentials'));
  const google = asObject(dig(configuration, 'googleCredentials'));
  const azure = asObject(dig(configuration, 'azureCredentials'));
  if (s3) {
    if (s3.inheritFromIAMRole !== true) for (const f of ['accessKeyId', 'secretAccessKey', 'region', 'sessionToken']) add(`s3Credentials.${f}`, s3[f]);
  } else if (google) {
    if (!(google.gkeEnvironment === true && google.applicationCredentials === undefined))
      add('googleCredentials.applicationCredentials', google.applicationCredentials);
  } else if (azure) {
    if (azure.inheritFromAzureAD !== true && azure.useDefaultAzureCredentials !== true)
      for (const f of ['connectionString', 'storageAccount', 'storageKey', 'storageSasToken']) add(`azureCredentials.${f}`, azure[f]);
  }
  const ca = selector(dig(configuration, 'endpointCA'));
  if (ca)
    out.push({
      kind: 'Secret',
      name: ca.name,
      path: `${path}.endpointCA`,
      keys: [[ca.key]],
      effect: 'the key is projected into the pod as the endpoint CA bundle, and the kubelet does not start the pod without it',
    });
  return out;
}

/** The bootstrap method the defaulting webhook leaves (api/v1/cluster_defaults.go: recovery, else pg_basebackup, else initdb). */
function bootstrapMethod(spec: Json): 'recovery' | 'pg_basebackup' | 'initdb' {
  const bootstrap = asObject(spec.bootstrap) ?? {};
  if (bootstrap.recovery !== undefined && bootstrap.recovery !== null) return 'recovery';
  if (bootstrap.pg_basebackup !== undefined && bootstrap.pg_basebackup !== null) return 'pg_basebackup';
  return 'initdb';
}

/**
 * The application database and owner after defaulting (api/v1/cluster_defaults.go: the method's
 * `database` defaults to `app`, except an initdb monolith import, and `owner` to the database).
 */
function applicationDatabase(spec: Json): { database: string; owner: string } {
  const method = bootstrapMethod(spec);
  const m = asObject(dig(spec, 'bootstrap', method)) ?? {};
  const monolith = method === 'initdb' && dig(m, 'import', 'type') === 'monolith';
  const database = asString(m.database) || (monolith ? '' : 'app');
  return { database, owner: asString(m.owner) || database };
}

/** The names of the external clusters a Cluster connects to or restores from. */
function usedExternalClusters(spec: Json): Set<string> {
  const used = new Set<string>();
  for (const name of [
    dig(spec, 'bootstrap', 'recovery', 'source'),
    dig(spec, 'bootstrap', 'pg_basebackup', 'source'),
    dig(spec, 'bootstrap', 'initdb', 'import', 'source', 'externalCluster'),
    dig(spec, 'replica', 'source'),
  ]) {
    const n = asString(name);
    if (n) used.add(n);
  }
  return used;
}

/**
 * What a Cluster makes the operator and its instances read (cloudnative-pg v1.30.0), each
 * reference with its reader:
 * - the application Secret the user names (`bootstrap.<method>.secret`), read when the Cluster
 *   creates the application database (api/v1/cluster_funcs.go GetApplicationSecretName,
 *   ShouldCreateApplicationDatabase; not for a replica cluster): the initdb Job takes
 *   `APP_USERNAME` from its `username` key, not optional (pkg/specs/jobs.go CreatePrimaryJob),
 *   and the instance manager sets the owner's password from `username` and `password`, refusing
 *   another username (internal/management/controller/instance_controller.go reconcileUser,
 *   internal/management/utils/secrets.go GetUserPasswordFromSecret);
 * - `superuserSecret`, read only with `enableSuperuserAccess: true` (reconcileSuperuserPassword),
 *   the same way for user `postgres`;
 * - the certificates the user supplies (internal/controller/cluster_pki.go setupPostgresPKI,
 *   ensureServerCASecret, ensureClientCASecret, verifyCAValidity, ensureServerLeafCertificate,
 *   ensureReplicationClientLeafCertificate; pkg/certs/certs.go ParseCASecret, ParseServerSecret):
 *   a CA needs `ca.crt`, and `ca.key` when the operator signs the leaf itself; a leaf needs
 *   `tls.crt` and `tls.key`; a missing one stops the reconciliation;
 * - the external clusters it connects to or restores from: `password`, `sslCert`, `sslKey`,
 *   `sslRootCert` (pkg/management/external/external.go ConfigureConnectionToServer,
 *   utils.go readSecretKeyRef, dumpSecretKeyRefToFile: the selector's `optional` is not read)
 *   and their `barmanObjectStore` credentials;
 * - `managed.roles[].passwordSecret` unless `disablePassword`
 *   (internal/management/controller/roles/runnable.go getPassword: `username` must be the role);
 * - `monitoring.customQueriesConfigMap` / `customQueriesSecret` (instance_controller.go
 *   reconcileMonitoringQueries reads `data[key]`; a missing one is skipped with a log line), except the
 *   default queries the operator copies into the namespace (`cnpg-default-monitoring`);
 * - `backup.barmanObjectStore` credentials and endpoint CA;
 * - initdb's `postInit*SQLRefs`, mounted as volumes into the initdb Job (pkg/specs/jobs.go
 *   CreatePrimaryJob, pkg/specs/volumes.go createVolumesAndVolumeMountsForSQLRefs: the kubelet
 *   reads a ConfigMap's `data` and `binaryData`);
 * - LDAP `bindSearchAuth.bindPassword` (instance_controller.go refreshPGHBA).
 * @internal
 */
export function clusterReferences(cluster: Json): KeyedReference[] {
  const spec = asObject(cluster.spec);
  if (!spec) return [];
  const out: KeyedReference[] = [];
  const method = bootstrapMethod(spec);
  const appSecret = asString(dig(spec, 'bootstrap', method, 'secret', 'name'));
  const app = applicationDatabase(spec);
  const createsAppDatabase = app.database !== '' && app.owner !== '' && (method === 'initdb' || !isReplicaCluster(cluster));
  if (appSecret && createsAppDatabase) {
    out.push({
      kind: 'Secret',
      name: appSecret,
      path: `spec.bootstrap.${method}.secret.name`,
      keys: BASIC_AUTH,
      username: app.owner,
      effect:
        method === 'initdb'
          ? "the initdb Job takes APP_USERNAME from its 'username' key (not optional), so the kubelet does not start it and the Cluster is never created; the instance manager then sets the owner's password from 'username' and 'password'"
          : "the instance manager sets the owner's password from its 'username' and 'password' keys, and skips it while the Secret is missing",
    });
  }
  if (method === 'initdb') {
    for (const field of ['postInitSQLRefs', 'postInitApplicationSQLRefs', 'postInitTemplateSQLRefs']) {
      for (const [list, kind] of [
        ['secretRefs', 'Secret'],
        ['configMapRefs', 'ConfigMap'],
      ] as const) {
        asArray(dig(spec, 'bootstrap', 'initdb', field, list)).forEach((ref, i) => {
          const s = selector(ref);
          if (s)
            out.push({
              kind,
              name: s.name,
              path: `spec.bootstrap.initdb.${field}.${list}[${i}]`,
              keys: [[s.key]],
              readsBinaryData: true,
              effect: 'the initdb Job mounts the key as a SQL file, so the kubelet does not start the Job without it and the Cluster is never created',
            });
        });
      }
    }
  }
  const ldapPassword = selector(dig(spec, 'postgresql', 'ldap', 'bindSearchAuth', 'bindPassword'));
  if (ldapPassword)
    out.push({
      kind: 'Secret',
      name: ldapPassword.name,
      path: 'spec.postgresql.ldap.bindSearchAuth.bindPassword',
      keys: [[ldapPassword.key]],
      effect: 'the instance manager cannot write pg_hba.conf ("missing key inside bind+search secret") and its reconciliation fails',
    });
  const superuser = asString(dig(spec, 'superuserSecret', 'name'));
  if (superuser && spec.enableSuperuserAccess === true) {
    out.push({
      kind: 'Secret',
      name: superuser,
      path: 'spec.superuserSecret.name',
      keys: BASIC_AUTH,
      username: 'postgres',
      effect: "the instance manager sets the postgres password from its 'username' and 'password' keys, and skips it while the Secret is missing",
    });
  }
  const certs = asObject(spec.certificates) ?? {};
  const serverCA = asString(certs.serverCASecret);
  const serverTLS = asString(certs.serverTLSSecret);
  const clientCA = asString(certs.clientCASecret);
  const replicationTLS = asString(certs.replicationTLSSecret);
  const pki = 'the operator stops reconciling the Cluster (setupPostgresPKI: "missing specified ... secret", or the parse error of a missing key)';
  if (serverCA) out.push({ kind: 'Secret', name: serverCA, path: 'spec.certificates.serverCASecret', keys: serverTLS ? [['ca.crt']] : CA_PAIR, effect: pki });
  if (serverTLS) out.push({ kind: 'Secret', name: serverTLS, path: 'spec.certificates.serverTLSSecret', keys: TLS_PAIR, effect: pki });
  // the same name as the server CA is read once, as the server CA
  if (clientCA && clientCA !== serverCA)
    out.push({ kind: 'Secret', name: clientCA, path: 'spec.certificates.clientCASecret', keys: replicationTLS ? [['ca.crt']] : CA_PAIR, effect: pki });
  if (replicationTLS) out.push({ kind: 'Secret', name: replicationTLS, path: 'spec.certificates.replicationTLSSecret', keys: TLS_PAIR, effect: pki });

  const used = usedExternalClusters(spec);
  asArray(spec.externalClusters).forEach((e, i) => {
    const name = asString(dig(e, 'name'));
    if (!name || !used.has(name)) return;
    for (const field of ['password', 'sslCert', 'sslKey', 'sslRootCert']) {
      const s = selector(dig(e, field));
      if (s)
        out.push({
          kind: 'Secret',
          name: s.name,
          path: `spec.externalClusters[${i}].${field}`,
          keys: [[s.key]],
          effect: `the instance manager cannot write the connection to external cluster '${name}' and the bootstrap or replication from it fails (optional is not read)`,
        });
    }
    out.push(...barmanStoreReferences(dig(e, 'barmanObjectStore'), `spec.externalClusters[${i}].barmanObjectStore`, 'the instance manager'));
  });

  asArray(dig(spec, 'managed', 'roles')).forEach((r, i) => {
    const secret = asString(dig(r, 'passwordSecret', 'name'));
    if (!secret || dig(r, 'disablePassword') === true) return;
    out.push({
      kind: 'Secret',
      name: secret,
      path: `spec.managed.roles[${i}].passwordSecret.name`,
      keys: BASIC_AUTH,
      username: (asString(dig(r, 'name')) ?? '').trim(),
      trimsUsername: true,
      effect: `the instance manager cannot set the password of role '${asString(dig(r, 'name')) ?? ''}' and reports it in status.managedRolesStatus.cannotReconcile`,
    });
  });

  for (const [field, kind] of [
    ['customQueriesConfigMap', 'ConfigMap'],
    ['customQueriesSecret', 'Secret'],
  ] as const) {
    asArray(dig(spec, 'monitoring', field)).forEach((ref, i) => {
      const s = selector(ref);
      if (!s || s.name === DEFAULT_MONITORING_NAME) return;
      out.push({
        kind,
        name: s.name,
        path: `spec.monitoring.${field}[${i}]`,
        keys: [[s.key]],
        effect: `the instance manager logs a warning and leaves those queries out of the metrics${kind === 'ConfigMap' ? " (it reads the ConfigMap's data, not binaryData)" : ''}`,
      });
    });
  }

  out.push(...barmanStoreReferences(dig(spec, 'backup', 'barmanObjectStore'), 'spec.backup.barmanObjectStore', 'the instance manager'));
  return out;
}

/** The queries the operator copies from its namespace into the Cluster's (api/v1/cluster_defaults.go DefaultMonitoringConfigMapName). */
const DEFAULT_MONITORING_NAME = 'cnpg-default-monitoring';

/**
 * What an ObjectStore (`barmancloud.cnpg.io/v1`) makes the Barman Cloud plugin read: its
 * `spec.configuration` credentials and endpoint CA, in the ObjectStore's namespace
 * (plugin-barman-cloud v0.14.0 internal/cnpgi/common/wal.go, internal/cnpgi/instance/backup.go:
 * barmanCredentials.EnvSetCloudCredentialsAndCertificates with the ObjectStore's namespace;
 * internal/cnpgi/operator/specs/secrets.go CollectSecretNamesFromCredentials grants the
 * instances access to the same Secrets).
 * @internal
 */
export function objectStoreReferences(store: Json): KeyedReference[] {
  return barmanStoreReferences(dig(store, 'spec', 'configuration'), 'spec.configuration', 'the Barman Cloud plugin');
}

/**
 * What a Pooler makes the operator read: `spec.pgbouncer.authQuerySecret` (cloudnative-pg v1.30.0
 * internal/pgbouncer/management/controller/secrets.go getSecrets fails without it;
 * pkg/management/pgbouncer/config/config.go BuildConfigurationFiles takes a basic-auth pair or a
 * TLS pair, secrets.go detectSecretType by the type or, for an Opaque Secret, by the keys). Without
 * it the operator uses the Cluster's own `<cluster>-pooler` Secret, which it writes.
 * @internal
 */
export function poolerReferences(pooler: Json): KeyedReference[] {
  const name = asString(dig(pooler, 'spec', 'pgbouncer', 'authQuerySecret', 'name'));
  if (!name) return [];
  return [
    {
      kind: 'Secret',
      name,
      path: 'spec.pgbouncer.authQuerySecret.name',
      keys: [...BASIC_AUTH, ...TLS_PAIR],
      effect:
        'the PgBouncer instance manager cannot build its configuration ("while getting auth query secret", or an unknown secret type) and the pooler does not start',
    },
  ];
}

/**
 * The Secrets the operator writes for a Cluster, which no input needs to hold (cloudnative-pg
 * v1.30.0 internal/controller/cluster_create.go reconcileSuperuserSecret,
 * reconcileAppUserSecret; internal/controller/cluster_pki.go ensureCASecret, ensureLeafCertificate;
 * api/v1/cluster_funcs.go GetSuperuserSecretName, GetApplicationSecretName, GetServerCASecretName,
 * GetServerTLSSecretName, GetClientCASecretName, GetReplicationSecretName; the `-pooler` client
 * certificate of reconcilePoolerSecrets, from api/v1/pooler_funcs.go GetAuthQuerySecretName):
 * `<name>-app` when the Cluster names no application Secret, `<name>-superuser` with superuser
 * access and no superuserSecret, and the CA and leaf Secrets the user does not supply.
 * @internal
 */
export function generatedSecretNames(cluster: Json): string[] {
  const name = objectMeta(cluster).name;
  const spec = asObject(cluster.spec) ?? {};
  if (!name) return [];
  const out: string[] = [];
  const method = bootstrapMethod(spec);
  if (!asString(dig(spec, 'bootstrap', method, 'secret', 'name'))) out.push(`${name}-app`);
  if (spec.enableSuperuserAccess === true && !asString(dig(spec, 'superuserSecret', 'name'))) out.push(`${name}-superuser`);
  const certs = asObject(spec.certificates) ?? {};
  if (!asString(certs.serverCASecret) || !asString(certs.clientCASecret)) out.push(`${name}-ca`);
  if (!asString(certs.serverTLSSecret)) out.push(`${name}-server`);
  if (!asString(certs.replicationTLSSecret)) out.push(`${name}-replication`);
  out.push(`${name}-pooler`);
  return out;
}

/** The keys of a Secret (`data` and `stringData`, merged as the API server does) or of a ConfigMap's `data` (and `binaryData` with `withBinaryData`). @internal */
export function heldKeys(kind: 'Secret' | 'ConfigMap', object: Json, withBinaryData = false): Set<string> {
  const keys = Object.keys(asObject(object.data) ?? {});
  if (kind === 'Secret') keys.push(...Object.keys(asObject(object.stringData) ?? {}));
  else if (withBinaryData) keys.push(...Object.keys(asObject(object.binaryData) ?? {}));
  return new Set(keys);
}

/** The value of a Secret key as text, from stringData (which wins) or base64 data; undefined when not readable. @internal */
export function secretText(object: Json, key: string): string | undefined {
  const plain = dig(object, 'stringData', key);
  if (typeof plain === 'string') return plain;
  const data = dig(object, 'data', key);
  // a value the API server cannot decode is CNPGI115's: the Secret never exists
  if (typeof data !== 'string' || goBase64Error(data) >= 0) return undefined;
  return Buffer.from(data, 'base64').toString('utf8');
}

/**
 * What a reader finds wrong in the Secret or ConfigMap a reference names, given the keys it holds
 * (`held`; `writtenBy` names the object that writes them, when it is not the object itself) and its
 * `username` value when known: keys the reader needs and the object lacks (the
 * message lists what it holds), or a basic-auth username other than the one the reader compares
 * with.
 * @internal
 */
export function checkReferencedKeys(
  ref: KeyedReference,
  held: ReadonlySet<string>,
  options: { readonly username?: string; readonly writtenBy?: string } = {},
): CheckIssue[] {
  const { username, writtenBy } = options;
  const sets = ref.keys.filter((set) => set.length > 0);
  if (sets.length === 0) return [];
  const heldList = [...held].sort().map((k) => `'${k}'`);
  const complete = sets.find((set) => set.every((k) => held.has(k)));
  if (!complete) {
    const wanted = sets.map((set) => set.map((k) => `'${k}'`).join(' and ')).join(', or ');
    return [
      {
        severity: 'error',
        path: ref.path,
        message: `${ref.kind} '${ref.name}' does not hold ${wanted} (${writtenBy ? `${writtenBy} writes` : 'it holds'} ${heldList.length ? heldList.join(', ') : 'no keys'}${ref.kind === 'ConfigMap' && !ref.readsBinaryData ? ' in data' : ''}); ${ref.effect}`,
        fix: `add ${sets[0]
          .filter((k) => !held.has(k))
          .map((k) => `'${k}'`)
          .join(' and ')} to ${ref.kind} '${ref.name}'${sets[0].length === 1 ? ', or name a key it holds' : ''}`,
      },
    ];
  }
  if (
    ref.username !== undefined &&
    username !== undefined &&
    complete.includes('username') &&
    (ref.trimsUsername ? username.trim() : username) !== ref.username
  ) {
    return [
      {
        severity: 'error',
        path: ref.path,
        message: `Secret '${ref.name}' holds username '${username}', but the reader expects '${ref.username}'; the instance manager refuses the Secret and sets no password`,
        fix: `write username: ${ref.username} in Secret '${ref.name}'`,
      },
    ];
  }
  return [];
}
