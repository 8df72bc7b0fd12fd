import { analyzeManifests } from '../../../../src/doctor/check-manifests';
import { DoctorOptions } from '../../../../src/doctor/report';
import { Doc, ofRule } from '../../helpers';

const b64 = (s: string) => Buffer.from(s).toString('base64');

function cluster(name: string, spec: Doc = {}, namespace = 'db'): Doc {
  return { apiVersion: 'postgresql.cnpg.io/v1', kind: 'Cluster', metadata: { name, namespace }, spec: { instances: 1, storage: { size: '1Gi' }, ...spec } };
}
function secret(name: string, content: Doc, namespace = 'db'): Doc {
  return { apiVersion: 'v1', kind: 'Secret', metadata: { name, namespace }, ...content };
}
function objectStore(configuration: Doc): Doc {
  return {
    apiVersion: 'barmancloud.cnpg.io/v1',
    kind: 'ObjectStore',
    metadata: { name: 'store', namespace: 'db' },
    spec: { configuration: { destinationPath: 's3://b/x', ...configuration } },
  };
}

/** `severity object path: message | fix` of CNPGI119's findings. */
function run(objects: Doc[], options: DoctorOptions = { complete: true }): string[] {
  return ofRule(analyzeManifests(objects, { operatorNamespace: 'cnpg-system', ...options }).findings, 'CNPGI119').map(
    (f) => `${f.severity} ${f.object} ${f.path}: ${f.message} | ${f.fix}`,
  );
}

const INITDB = (secretName: string) => cluster('pg', { bootstrap: { initdb: { database: 'orders', owner: 'orders', secret: { name: secretName } } } });
const INITDB_EFFECT =
  "the initdb Job takes APP_USERNAME from its 'username' key (not optional), so the kubelet does not start it and the Cluster is never created; the instance manager then sets the owner's password from 'username' and 'password'";
const COMPLETE = '; the input is said to be complete, so nothing else provides it';

describe('CNPGI119 referenced-secrets: presence, with --complete', () => {
  test('an application Secret nobody provides: an error with --complete, nothing without', () => {
    expect(run([INITDB('orders-app')])).toEqual([
      `error Cluster/db/pg spec.bootstrap.initdb.secret.name: Secret 'orders-app' is not in the input in namespace 'db'; ${INITDB_EFFECT}${COMPLETE} | create Secret 'orders-app' in 'db' with 'username' and 'password'`,
    ]);
    // without --complete the Secret may come from SOPS, a vault, a controller: not reported
    expect(run([INITDB('orders-app')], {})).toEqual([]);
  });

  test('a near name in the namespace, and the same name in another namespace, are named; neither counts', () => {
    const found = run([
      INITDB('orders-app'),
      secret('order-app', { stringData: { username: 'orders', password: 'x' } }),
      secret('orders-app', { stringData: { username: 'orders', password: 'x' } }, 'other'),
    ]);
    expect(found).toEqual([
      `error Cluster/db/pg spec.bootstrap.initdb.secret.name: Secret 'orders-app' is not in the input in namespace 'db' (did you mean 'order-app'?; one is in namespace 'other', which is not read); ${INITDB_EFFECT}${COMPLETE} | write 'order-app', or create Secret 'orders-app' in 'db'`,
    ]);
  });

  test('what the operator writes itself is not needed: <cluster>-app, -superuser, -ca, -server, -replication of a Cluster of the namespace', () => {
    // a replica built by pg_basebackup from 'pg', through the Secrets the operator writes for 'pg'
    const origin = cluster('pg', { enableSuperuserAccess: true });
    const replica = cluster('pg2', {
      bootstrap: { pg_basebackup: { source: 'origin' } },
      replica: { enabled: true, source: 'origin' },
      externalClusters: [
        {
          name: 'origin',
          connectionParameters: { host: 'pg-rw', user: 'streaming_replica' },
          sslKey: { name: 'pg-replication', key: 'tls.key' },
          sslCert: { name: 'pg-replication', key: 'tls.crt' },
          sslRootCert: { name: 'pg-ca', key: 'ca.crt' },
          password: { name: 'pg-superuser', key: 'password' },
        },
      ],
    });
    expect(run([origin, replica])).toEqual([]);
    // the same from a namespace where no Cluster 'pg' is: nothing writes them
    const moved = { ...replica, metadata: { name: 'pg2', namespace: 'elsewhere' } };
    expect(run([origin, moved]).map((l) => l.split(':')[0])).toEqual([
      'error Cluster/elsewhere/pg2 spec.externalClusters[0].password',
      'error Cluster/elsewhere/pg2 spec.externalClusters[0].sslCert',
      'error Cluster/elsewhere/pg2 spec.externalClusters[0].sslKey',
      'error Cluster/elsewhere/pg2 spec.externalClusters[0].sslRootCert',
    ]);
    // -superuser is written only with superuser access
    expect(run([cluster('pg'), replica]).map((l) => l.split(':')[0])).toEqual(['error Cluster/db/pg2 spec.externalClusters[0].password']);
  });

  test('fields the operator does not read are not judged', () => {
    expect(
      run([
        // superuserSecret without enableSuperuserAccess
        cluster('a', { superuserSecret: { name: 'nope' } }),
        // an external cluster nothing connects to
        cluster('b', { externalClusters: [{ name: 'x', connectionParameters: { host: 'h' }, password: { name: 'nope', key: 'p' } }] }),
        // a role without a password
        cluster('c', { managed: { roles: [{ name: 'r', disablePassword: true, passwordSecret: { name: 'nope' } }] } }),
        // a replica cluster creates no application database, so its recovery Secret is not read
        cluster('d', {
          bootstrap: { recovery: { source: 'o', secret: { name: 'nope' } } },
          replica: { enabled: true, source: 'o' },
          externalClusters: [{ name: 'o', connectionParameters: { host: 'h' } }],
        }),
        // the default monitoring queries, which the operator copies into the namespace
        cluster('e', { monitoring: { customQueriesConfigMap: [{ name: 'cnpg-default-monitoring', key: 'queries' }] } }),
        // S3 through the IAM role, Azure through managed identity, GKE's own credentials
        objectStore({ s3Credentials: { inheritFromIAMRole: true } }),
        {
          ...objectStore({ azureCredentials: { inheritFromAzureAD: true, storageKey: { name: 'nope', key: 'k' } } }),
          metadata: { name: 'az', namespace: 'db' },
        },
        { ...objectStore({ googleCredentials: { gkeEnvironment: true } }), metadata: { name: 'gke', namespace: 'db' } },
        // an unrendered variable is not a name yet
        INITDB('${APP_SECRET}'),
      ]),
    ).toEqual([]);
  });

  test('superuserSecret with enableSuperuserAccess, an external cluster used for recovery (optional is not read), a role password', () => {
    expect(
      run([
        cluster('pg', {
          enableSuperuserAccess: true,
          superuserSecret: { name: 'su' },
          bootstrap: { recovery: { source: 'old' } },
          externalClusters: [
            {
              name: 'old',
              barmanObjectStore: {
                destinationPath: 's3://b',
                s3Credentials: { accessKeyId: { name: 'aws', key: 'ID' }, secretAccessKey: { name: 'aws', key: 'KEY' } },
              },
              password: { name: 'pw', key: 'password', optional: true },
            },
          ],
          managed: { roles: [{ name: 'reader', passwordSecret: { name: 'reader-pw' } }] },
        }),
      ]).map((l) => l.split(' | ')[0].split(';')[0]),
    ).toEqual([
      "error Cluster/db/pg spec.superuserSecret.name: Secret 'su' is not in the input in namespace 'db'",
      "error Cluster/db/pg spec.externalClusters[0].password: Secret 'pw' is not in the input in namespace 'db'",
      "error Cluster/db/pg spec.externalClusters[0].barmanObjectStore.s3Credentials.accessKeyId: Secret 'aws' is not in the input in namespace 'db'",
      "error Cluster/db/pg spec.externalClusters[0].barmanObjectStore.s3Credentials.secretAccessKey: Secret 'aws' is not in the input in namespace 'db'",
      "error Cluster/db/pg spec.managed.roles[0].passwordSecret.name: Secret 'reader-pw' is not in the input in namespace 'db'",
    ]);
  });

  test('providers other than a Secret: a cert-manager Certificate, a SealedSecret, an ExternalSecret, a placeholder Secret', () => {
    const pg = cluster('pg', {
      certificates: { serverCASecret: 'pg-server-ca', serverTLSSecret: 'pg-server-tls' },
      bootstrap: { initdb: { secret: { name: 'app-creds' } } },
    });
    const certificate = (name: string) => ({
      apiVersion: 'cert-manager.io/v1',
      kind: 'Certificate',
      metadata: { name, namespace: 'db' },
      spec: { secretName: name, issuerRef: { name: 'ca' } },
    });
    const sealed = {
      apiVersion: 'bitnami.com/v1alpha1',
      kind: 'SealedSecret',
      metadata: { name: 'app-creds', namespace: 'db' },
      spec: { encryptedData: { username: 'AgB...', password: 'AgC...' } },
    };
    const external = {
      apiVersion: 'external-secrets.io/v1',
      kind: 'ExternalSecret',
      metadata: { name: 'creds', namespace: 'db' },
      spec: { target: { name: 'app-creds' } },
    };
    expect(run([pg, certificate('pg-server-ca'), certificate('pg-server-tls'), sealed])).toEqual([]);
    expect(run([pg, certificate('pg-server-ca'), certificate('pg-server-tls'), external])).toEqual([]);
    // a placeholder (no data, no stringData) that a controller fills
    expect(run([pg, certificate('pg-server-ca'), certificate('pg-server-tls'), secret('app-creds', { type: 'kubernetes.io/basic-auth' })])).toEqual([]);
    // an ExternalSecret of that name whose target is another Secret does not provide it
    const other = { ...external, metadata: { name: 'app-creds', namespace: 'db' }, spec: { target: { name: 'other' } } };
    expect(run([pg, certificate('pg-server-ca'), certificate('pg-server-tls'), other]).map((l) => l.split(':')[0])).toEqual([
      'error Cluster/db/pg spec.bootstrap.initdb.secret.name',
    ]);
  });

  test('ObjectStore credentials and endpoint CA, and a Pooler authQuerySecret', () => {
    const pooler = {
      apiVersion: 'postgresql.cnpg.io/v1',
      kind: 'Pooler',
      metadata: { name: 'pool', namespace: 'db' },
      spec: { cluster: { name: 'pg' }, pgbouncer: { authQuerySecret: { name: 'auth' }, authQuery: 'SELECT 1' } },
    };
    expect(
      run([
        objectStore({
          s3Credentials: { accessKeyId: { name: 'aws', key: 'ID' }, secretAccessKey: { name: 'aws', key: 'KEY' } },
          endpointCA: { name: 'minio-ca', key: 'ca.crt' },
        }),
        pooler,
      ]).map((l) => l.split(' | ')[0]),
    ).toEqual([
      'error ObjectStore/db/store spec.configuration.s3Credentials.accessKeyId: Secret \'aws\' is not in the input in namespace \'db\'; the Barman Cloud plugin reads it for the object store credentials and fails without it ("while getting secret" / "missing key"): WAL archiving, backups and restores through that store fail' +
        COMPLETE,
      'error ObjectStore/db/store spec.configuration.s3Credentials.secretAccessKey: Secret \'aws\' is not in the input in namespace \'db\'; the Barman Cloud plugin reads it for the object store credentials and fails without it ("while getting secret" / "missing key"): WAL archiving, backups and restores through that store fail' +
        COMPLETE,
      "error ObjectStore/db/store spec.configuration.endpointCA: Secret 'minio-ca' is not in the input in namespace 'db'; the key is projected into the pod as the endpoint CA bundle, and the kubelet does not start the pod without it" +
        COMPLETE,
      "error Pooler/db/pool spec.pgbouncer.authQuerySecret.name: Secret 'auth' is not in the input in namespace 'db'; the PgBouncer instance manager cannot build its configuration (\"while getting auth query secret\", or an unknown secret type) and the pooler does not start" +
        COMPLETE,
    ]);
  });
});

describe('CNPGI119 referenced-secrets: keys, whenever the input holds the object', () => {
  test('a basic-auth Secret without password: an error naming what it holds, with or without --complete', () => {
    const line = `error Cluster/db/pg spec.bootstrap.initdb.secret.name: Secret 'orders-app' does not hold 'username' and 'password' (it holds 'user', 'username'); ${INITDB_EFFECT} | add 'password' to Secret 'orders-app'`;
    const docs = [INITDB('orders-app'), secret('orders-app', { data: { username: b64('orders') }, stringData: { user: 'orders' } })];
    expect(run(docs)).toEqual([line]);
    expect(run(docs, {})).toEqual([line]);
  });

  test('data and stringData both count; the username must be the owner', () => {
    expect(run([INITDB('orders-app'), secret('orders-app', { data: { username: b64('orders') }, stringData: { password: 'x' } })], {})).toEqual([]);
    expect(
      run([INITDB('orders-app'), secret('orders-app', { type: 'kubernetes.io/basic-auth', data: { username: b64('app'), password: b64('x') } })], {}),
    ).toEqual([
      "error Cluster/db/pg spec.bootstrap.initdb.secret.name: Secret 'orders-app' holds username 'app', but the reader expects 'orders'; the instance manager refuses the Secret and sets no password | write username: orders in Secret 'orders-app'",
    ]);
    // a SOPS-encrypted Secret shows its keys, not its values; nor does an unrendered variable
    const sops = secret('orders-app', { stringData: { username: 'ENC[AES256_GCM,data:Zm9v,type:str]', password: 'ENC[AES256_GCM,data:YmFy,type:str]' } });
    expect(run([INITDB('orders-app'), sops], {})).toEqual([]);
    expect(run([INITDB('orders-app'), { ...sops, stringData: { username: 'x', password: 'y' }, sops: { version: '3.9.0' } }], {})).toEqual([]);
    expect(run([INITDB('orders-app'), secret('orders-app', { stringData: { username: '${DB_USER}', password: 'y' } })], {})).toEqual([]);
    expect(
      run([INITDB('orders-app'), { ...sops, stringData: { username: 'ENC[AES256_GCM,data:Zm9v,type:str]' }, sops: { version: '3.9.0' } }], {}),
    ).toHaveLength(1);
    // without owner and database the defaults are app/app
    expect(
      run([cluster('pg', { bootstrap: { initdb: { secret: { name: 's' } } } }), secret('s', { stringData: { username: 'app', password: 'x' } })], {}),
    ).toEqual([]);
    // a managed role's reader trims spaces
    expect(
      run(
        [
          cluster('pg', { managed: { roles: [{ name: 'reader', passwordSecret: { name: 'r' } }] } }),
          secret('r', { stringData: { username: 'reader ', password: 'x' } }),
        ],
        {},
      ),
    ).toEqual([]);
  });

  test('a Secret the API server refuses is CNPGI115, not reported again here', () => {
    const docs = [
      cluster('pg', { certificates: { serverCASecret: 'ca', serverTLSSecret: 'tls' } }),
      secret('ca', { stringData: { 'ca.crt': 'x' } }),
      secret('tls', { type: 'kubernetes.io/tls', stringData: { 'tls.crt': 'c' } }),
    ];
    expect(run(docs, {})).toEqual([]);
    expect(ofRule(analyzeManifests(docs).findings, 'CNPGI115').map((f) => f.object)).toEqual(['Secret/db/tls']);
    // the same keys in an Opaque Secret, which the API server takes: the operator's reader refuses it
    expect(run([docs[0], docs[1], secret('tls', { stringData: { 'tls.crt': 'c' } })], {}).map((l) => l.split(':')[0])).toEqual([
      'error Cluster/db/pg spec.certificates.serverTLSSecret',
    ]);
  });

  test('CA Secrets: ca.key only when the operator signs the leaf itself; a Certificate never writes ca.key', () => {
    const ca = secret('my-ca', { data: { 'ca.crt': b64('x') } });
    expect(
      run([
        cluster('pg', { certificates: { serverCASecret: 'my-ca', serverTLSSecret: 'tls' } }),
        ca,
        secret('tls', { type: 'kubernetes.io/tls', data: { 'tls.crt': b64('c'), 'tls.key': b64('k') } }),
      ]),
    ).toEqual([]);
    expect(run([cluster('pg', { certificates: { serverCASecret: 'my-ca' } }), ca], {})).toEqual([
      `error Cluster/db/pg spec.certificates.serverCASecret: Secret 'my-ca' does not hold 'ca.crt' and 'ca.key' (it holds 'ca.crt'); the operator stops reconciling the Cluster (setupPostgresPKI: "missing specified ... secret", or the parse error of a missing key) | add 'ca.key' to Secret 'my-ca'`,
    ]);
    const certificate = {
      apiVersion: 'cert-manager.io/v1',
      kind: 'Certificate',
      metadata: { name: 'c', namespace: 'db' },
      spec: { secretName: 'client-ca', isCA: true, issuerRef: { name: 'ca' } },
    };
    expect(run([cluster('pg', { certificates: { clientCASecret: 'client-ca' } }), certificate], {})).toEqual([
      `error Cluster/db/pg spec.certificates.clientCASecret: Secret 'client-ca' does not hold 'ca.crt' and 'ca.key' (Certificate/db/c writes 'ca.crt', 'tls.crt', 'tls.key'); the operator stops reconciling the Cluster (setupPostgresPKI: "missing specified ... secret", or the parse error of a missing key) | add 'ca.key' to Secret 'client-ca'`,
    ]);
  });

  test('a SealedSecret shows its keys; a monitoring ConfigMap is read from data, not binaryData', () => {
    const sealed = {
      apiVersion: 'bitnami.com/v1alpha1',
      kind: 'SealedSecret',
      metadata: { name: 's3', namespace: 'db' },
      spec: { encryptedData: { ACCESS_KEY_ID: 'AgB' } },
    };
    expect(
      run(
        [
          objectStore({ s3Credentials: { accessKeyId: { name: 's3', key: 'ACCESS_KEY_ID' }, secretAccessKey: { name: 's3', key: 'ACCESS_SECRET_KEY' } } }),
          sealed,
        ],
        {},
      ),
    ).toEqual([
      "error ObjectStore/db/store spec.configuration.s3Credentials.secretAccessKey: Secret 's3' does not hold 'ACCESS_SECRET_KEY' (SealedSecret/db/s3 writes 'ACCESS_KEY_ID'); the Barman Cloud plugin reads it for the object store credentials and fails without it (\"while getting secret\" / \"missing key\"): WAL archiving, backups and restores through that store fail | add 'ACCESS_SECRET_KEY' to Secret 's3', or name a key it holds",
    ]);
    const queries = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'q', namespace: 'db' },
      data: { other: 'x' },
      binaryData: { 'queries.yaml': b64('x') },
    };
    expect(run([cluster('pg', { monitoring: { customQueriesConfigMap: [{ name: 'q', key: 'queries.yaml' }] } }), queries], {})).toEqual([
      "error Cluster/db/pg spec.monitoring.customQueriesConfigMap[0]: ConfigMap 'q' does not hold 'queries.yaml' (it holds 'other' in data); the instance manager logs a warning and leaves those queries out of the metrics (it reads the ConfigMap's data, not binaryData) | add 'queries.yaml' to ConfigMap 'q', or name a key it holds",
    ]);
  });

  test('initdb SQL files are volumes: a ConfigMap key in binaryData counts there; an LDAP bind password', () => {
    const pg = cluster('pg', {
      bootstrap: {
        initdb: {
          postInitApplicationSQLRefs: { configMapRefs: [{ name: 'sql', key: 'schema.sql' }], secretRefs: [{ name: 'sql-secret', key: 'grants.sql' }] },
        },
      },
      postgresql: { ldap: { server: 'ldap', bindSearchAuth: { bindDN: 'cn=x', bindPassword: { name: 'ldap', key: 'password' } } } },
    });
    const sql = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'sql', namespace: 'db' }, binaryData: { 'schema.sql': b64('CREATE TABLE t()') } };
    expect(run([pg, sql, secret('sql-secret', { stringData: { 'grants.sql': 'GRANT' } }), secret('ldap', { stringData: { password: 'x' } })])).toEqual([]);
    expect(run([pg, sql, secret('sql-secret', { stringData: { 'grant.sql': 'GRANT' } }), secret('ldap', { stringData: { pass: 'x' } })], {})).toEqual([
      "error Cluster/db/pg spec.bootstrap.initdb.postInitApplicationSQLRefs.secretRefs[0]: Secret 'sql-secret' does not hold 'grants.sql' (it holds 'grant.sql'); the initdb Job mounts the key as a SQL file, so the kubelet does not start the Job without it and the Cluster is never created | add 'grants.sql' to Secret 'sql-secret', or name a key it holds",
      "error Cluster/db/pg spec.postgresql.ldap.bindSearchAuth.bindPassword: Secret 'ldap' does not hold 'password' (it holds 'pass'); the instance manager cannot write pg_hba.conf (\"missing key inside bind+search secret\") and its reconciliation fails | add 'password' to Secret 'ldap', or name a key it holds",
    ]);
  });

  test('a Pooler authQuerySecret: a basic-auth or a TLS pair', () => {
    const pooler = {
      apiVersion: 'postgresql.cnpg.io/v1',
      kind: 'Pooler',
      metadata: { name: 'pool', namespace: 'db' },
      spec: { cluster: { name: 'pg' }, pgbouncer: { authQuerySecret: { name: 'auth' }, authQuery: 'SELECT 1' } },
    };
    expect(run([pooler, secret('auth', { stringData: { 'tls.crt': 'c', 'tls.key': 'k' } })], {})).toEqual([]);
    expect(run([pooler, secret('auth', { stringData: { username: 'u', password: 'p' } })], {})).toEqual([]);
    expect(run([pooler, secret('auth', { stringData: { username: 'u' } })], {})).toEqual([
      "error Pooler/db/pool spec.pgbouncer.authQuerySecret.name: Secret 'auth' does not hold 'username' and 'password', or 'tls.crt' and 'tls.key' (it holds 'username'); the PgBouncer instance manager cannot build its configuration (\"while getting auth query secret\", or an unknown secret type) and the pooler does not start | add 'password' to Secret 'auth'",
    ]);
  });
});
