import { Chart, Duration, Size, Testing } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import fc from 'fast-check';
import {
  BackupOwnerReference,
  BackupSchedule,
  BackupTarget,
  ClusterImage,
  CertificateRotationPolicy,
  DataCompression,
  ImageCatalogKind,
  IssuerRef,
  ObjectStoreCredentials,
  ObjectStoreEncryption,
  PluginLogLevel,
  PluginTls,
  PrivateKeyAlgorithm,
  WalCompression,
} from '../../src';
import { Call } from './mutation';

/*
 * Generators of realistic, valid props for every public construct. Values built by this
 * library's factories are `Call` recipes, so the junk properties can mutate their arguments too.
 */

/** Leaves out undefined keys, like a user who omits an optional prop. */
export function optional<T>(arb: fc.Arbitrary<T>): fc.Arbitrary<T | undefined> {
  return fc.option(arb, { nil: undefined, freq: 2 });
}

/** A record whose optional keys are really absent when not generated. */
export function props<T extends Record<string, fc.Arbitrary<unknown>>>(model: T, required: Array<keyof T> = []) {
  return fc.record(model, { requiredKeys: required as any }) as fc.Arbitrary<{ [K in keyof T]?: T[K] extends fc.Arbitrary<infer U> ? U : never }>;
}

export const dnsLabel = fc.stringMatching(/^[a-z]([-a-z0-9]{0,14}[a-z0-9])?$/);
export const dns1035 = dnsLabel;
export const dnsSubdomain = fc
  .array(dnsLabel, { minLength: 1, maxLength: 4 })
  .map((l) => l.join('.'))
  .filter((s) => s.length <= 253);
export const pluginName = fc
  .array(dnsLabel, { minLength: 2, maxLength: 4 })
  .map((l) => l.join('.'))
  .filter((s) => s.length <= 63);

export const image = fc
  .tuple(
    fc.constantFrom('ghcr.io', 'docker.io', 'registry.example.com:5000', 'quay.io'),
    fc.array(dnsLabel, { minLength: 1, maxLength: 3 }),
    // Pinned only: an untagged, :latest or branch-tagged (:main) image is refused (the junk values cover those).
    fc.oneof(fc.stringMatching(/^v[0-9]{1,2}\.[0-9]{1,2}\.[0-9]{1,2}$/), fc.constant('sha-3f2a91c'), fc.stringMatching(/^sha256:[0-9a-f]{64}$/)),
  )
  .map(([reg, repo, tag]) => `${reg}/${repo.join('/')}${tag.startsWith('sha256:') ? '@' : ':'}${tag}`);

const qualifiedName = fc.stringMatching(/^[A-Za-z0-9]([-A-Za-z0-9_.]{0,20}[A-Za-z0-9])?$/);
export const labelKey = fc.oneof(
  qualifiedName,
  fc
    .tuple(
      dnsSubdomain.filter((s) => s.length <= 60),
      qualifiedName,
    )
    .map(([p, n]) => `${p}/${n}`),
  fc.constantFrom('app.kubernetes.io/part-of', 'team', 'example.com/owner', 'app.kubernetes.io/instance', 'app.kubernetes.io/name'),
);
export const labelValue = fc.oneof(fc.constant(''), qualifiedName, fc.constantFrom('payments', 'db', 'v1.2.3'));
export const labelMap = fc.dictionary(labelKey, labelValue, { maxKeys: 4 });
export const nonEmptyLabelMap = fc.dictionary(labelKey, labelValue, { minKeys: 1, maxKeys: 3 });
export const stringMap = fc.dictionary(fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_]{0,12}$/), fc.string({ maxLength: 20 }), { maxKeys: 4 });
export const envName = fc.stringMatching(/^[A-Z_][A-Z0-9_]{0,15}$/);

export const cpu = fc.integer({ min: 1, max: 8000 }).map((m) => kplus.Cpu.millis(m));
export const memory = fc.integer({ min: 1, max: 65536 }).map((m) => Size.mebibytes(m));
export const storageSize = fc.oneof(
  fc.integer({ min: 1, max: 4096 }).map((g) => Size.gibibytes(g)),
  fc.integer({ min: 1, max: 100000 }).map((m) => Size.mebibytes(m)),
  fc.integer({ min: 1, max: 16 }).map((t) => Size.tebibytes(t)),
);

/** A request no larger than its limit (a request above it is refused; the junk values try that). */
function requestAndLimit<T>(arb: fc.Arbitrary<T>, amount: (v: T) => number) {
  return props({ request: optional(arb), limit: optional(arb) }).map((r) =>
    r.request !== undefined && r.limit !== undefined && amount(r.request) > amount(r.limit) ? { request: r.limit, limit: r.request } : r,
  );
}
const millis = (c: kplus.Cpu) => Number(c.amount.replace(/m$/, ''));
const mebibytes = (m: Size) => m.toMebibytes();
export const cpuRequestAndLimit = requestAndLimit(cpu, millis);
export const memoryRequestAndLimit = requestAndLimit(memory, mebibytes);

export const resources = props({
  cpu: cpuRequestAndLimit,
  memory: memoryRequestAndLimit,
});

// --- TLS ---------------------------------------------------------------------------------------

/**
 * A lifetime cert-manager accepts: whole seconds, at least 1h, and a renewal of at least 5
 * minutes and shorter, or none (cert-manager then renews at two thirds of the lifetime).
 */
const lifetime = fc
  // short lifetimes as often as long ones: the defaults are judged against both
  .oneof(fc.integer({ min: 3600, max: 30 * 86400 }), fc.integer({ min: 3600, max: 10 * 365 * 86400 }))
  .chain((d) => fc.tuple(fc.constant(d), fc.option(fc.integer({ min: 300, max: d - 1 }), { nil: undefined })));

const keyOptions = fc
  .oneof(
    fc.record({ privateKeyAlgorithm: optional(fc.constant(PrivateKeyAlgorithm.ECDSA)), privateKeySize: optional(fc.constantFrom(256, 384, 521)) }),
    fc.record({ privateKeyAlgorithm: fc.constant(PrivateKeyAlgorithm.RSA), privateKeySize: optional(fc.integer({ min: 2048, max: 8192 })) }),
    fc.record({ privateKeyAlgorithm: fc.constant(PrivateKeyAlgorithm.ED25519) }),
  )
  .map((o) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)));

export const certificateOptions = fc
  .tuple(
    optional(lifetime),
    keyOptions,
    optional(fc.constantFrom(CertificateRotationPolicy.ALWAYS, CertificateRotationPolicy.NEVER)),
    optional(
      fc.array(
        fc.oneof(
          dnsSubdomain,
          dnsSubdomain.map((d) => `*.${d}`),
        ),
        { maxLength: 3 },
      ),
    ),
  )
  .map(([life, key, rotationPolicy, extra]) => ({
    ...(life ? { duration: Duration.seconds(life[0]), ...(life[1] !== undefined ? { renewBefore: Duration.seconds(life[1]) } : {}) } : {}),
    ...key,
    ...(rotationPolicy ? { rotationPolicy } : {}),
    ...(extra ? { extraServerDnsNames: extra } : {}),
  }));

/** A CA that lives at least as long as its leaves (a shorter one is refused; the junk values try that). */
const caOptions = fc.tuple(certificateOptions, optional(lifetime)).map(([o, ca]) => {
  const leaf = ((o as { duration?: Duration }).duration ?? Duration.hours(2160)).toSeconds();
  return {
    ...o,
    ...(ca ? { caDuration: Duration.seconds(Math.max(ca[0], leaf)), ...(ca[1] !== undefined ? { caRenewBefore: Duration.seconds(ca[1]) } : {}) } : {}),
  };
});

export const issuerRef = fc.oneof(
  dnsSubdomain.map((n) => new Call('IssuerRef.issuer', IssuerRef.issuer, [n])),
  dnsSubdomain.map((n) => new Call('IssuerRef.clusterIssuer', IssuerRef.clusterIssuer, [n])),
  fc
    .record({
      group: fc.constantFrom('awspca.cert-manager.io', 'cas-issuer.jetstack.io', 'certmanager.step.sm'),
      kind: fc.constantFrom('AWSPCAClusterIssuer', 'GoogleCASIssuer', 'StepClusterIssuer'),
      name: dnsSubdomain,
    })
    .map((p) => new Call('IssuerRef.external', IssuerRef.external, [p])),
);

export const pluginTls = fc.oneof(
  certificateOptions.map((o) => new Call('PluginTls.selfSigned', PluginTls.selfSigned, [o])),
  caOptions.map((o) => new Call('PluginTls.privateCa', PluginTls.privateCa, [o])),
  fc.tuple(issuerRef, certificateOptions).map(([ref, o]) => new Call('PluginTls.fromIssuer', PluginTls.fromIssuer, [ref, o])),
  fc
    .tuple(dnsSubdomain, dnsSubdomain, optional(fc.constantFrom('ca.crt', 'tls.crt', 'client-ca.pem')))
    .filter(([a, b]) => a !== b)
    .map(
      ([client, server, key]) =>
        new Call('PluginTls.fromSecrets', PluginTls.fromSecrets, [
          { clientSecretName: client, serverSecretName: server, ...(key ? { clientCaKey: key } : {}) },
        ]),
    ),
);

// --- StandalonePlugin and the presets ------------------------------------------------------------

const userArg = fc.oneof(fc.stringMatching(/^[a-z][a-z0-9-]{0,12}$/), fc.constantFrom('plugin', 'operator', '--leader-elect', '--log-level=debug', '-v=2'));

const taintEffect = optional(fc.constantFrom(kplus.TaintEffect.NO_SCHEDULE, kplus.TaintEffect.PREFER_NO_SCHEDULE, kplus.TaintEffect.NO_EXECUTE));
const toleration = fc.oneof(
  fc.tuple(labelKey, qualifiedName, taintEffect).map(([k, v, effect]) => kplus.NodeTaintQuery.is(k, v, effect ? { effect } : {})),
  fc.tuple(labelKey, taintEffect).map(([k, effect]) => kplus.NodeTaintQuery.exists(k, effect ? { effect } : {})),
  fc.constant(kplus.NodeTaintQuery.any()),
);
/** A pull Secret reference, as cdk8s-plus takes it. */
const pullSecret = dnsSubdomain.map((n) => kplus.Secret.fromSecretName(new Chart(Testing.app(), 'refs'), 'Pull', n));

const envMap = fc.dictionary(
  envName.filter((n) => n !== 'SIDECAR_IMAGE'),
  fc.string({ maxLength: 20 }).map((v) => kplus.EnvValue.fromValue(v)),
  { maxKeys: 3 },
);

/** The props StandalonePlugin shares with the presets. */
const sharedPluginProps = {
  tls: optional(pluginTls),
  serverName: optional(dnsSubdomain),
  serviceName: optional(dns1035),
  port: optional(fc.integer({ min: 1, max: 65535 })),
  resources: optional(resources),
  imagePullPolicy: optional(fc.constantFrom(...Object.values(kplus.ImagePullPolicy))),
  imagePullSecrets: optional(fc.array(pullSecret, { maxLength: 2 })),
  nodeSelector: optional(labelMap),
  tolerations: optional(fc.array(toleration, { maxLength: 2 })),
  priorityClassName: optional(dnsSubdomain),
  securityContext: optional(props({ user: optional(fc.integer({ min: 1, max: 2147483647 })), group: optional(fc.integer({ min: 1, max: 2147483647 })) })),
  networkPolicy: optional(fc.boolean()),
  operatorPodLabels: optional(nonEmptyLabelMap),
  labels: optional(labelMap),
  envVariables: optional(envMap),
};

export const standalonePluginProps = props(
  {
    ...sharedPluginProps,
    pluginName,
    image,
    args: optional(fc.array(userArg, { maxLength: 3 })),
    command: optional(fc.array(fc.constantFrom('/plugin', '/bin/plugin', 'run'), { minLength: 1, maxLength: 2 })),
    replicas: optional(fc.integer({ min: 0, max: 5 })),
    strategy: optional(fc.constantFrom(kplus.DeploymentStrategy.recreate(), kplus.DeploymentStrategy.rollingUpdate())),
    automountServiceAccountToken: optional(fc.boolean()),
  },
  ['pluginName', 'image'],
);

export const barmanCloudPluginProps = props({
  ...sharedPluginProps,
  image: optional(image),
  sidecarImage: optional(image),
  logLevel: optional(fc.constantFrom(...Object.values(PluginLogLevel))),
});

export const helloWorldPluginProps = props({
  ...sharedPluginProps,
  image: optional(image),
  logLevel: optional(fc.constantFrom(...Object.values(PluginLogLevel))),
  replicas: optional(fc.integer({ min: 0, max: 5 })),
  strategy: optional(fc.constantFrom(kplus.DeploymentStrategy.recreate(), kplus.DeploymentStrategy.rollingUpdate())),
  automountServiceAccountToken: optional(fc.boolean()),
});

export const helloWorldParameters = props({
  labels: optional(fc.dictionary(labelKey, labelValue, { maxKeys: 3 })),
  annotations: optional(fc.dictionary(labelKey, fc.string({ maxLength: 30 }), { maxKeys: 3 })),
});

// --- ObjectStore ---------------------------------------------------------------------------------

// A data key the API server takes: not '.', not starting with '..' (IsConfigMapKey).
const secretKeyRef = fc.record({ name: dnsSubdomain, key: fc.stringMatching(/^[-._a-zA-Z0-9]{1,20}$/).filter((k) => k !== '.' && !k.startsWith('..')) });

/** A factory of `ObjectStoreCredentials`, kept as a recipe so that its arguments are mutated too. */
const credentials = (factory: keyof typeof ObjectStoreCredentials, args: fc.Arbitrary<unknown[]>) =>
  args.map((a) => new Call(`ObjectStoreCredentials.${String(factory)}`, (ObjectStoreCredentials as any)[factory], a));
const s3 = fc.oneof(
  credentials(
    's3AccessKeys',
    fc.tuple(
      props({ accessKeyId: secretKeyRef, secretAccessKey: secretKeyRef, sessionToken: optional(secretKeyRef), region: optional(secretKeyRef) }, [
        'accessKeyId',
        'secretAccessKey',
      ]),
    ),
  ),
  credentials('s3IamRole', fc.tuple(props({ region: optional(secretKeyRef) }))),
);
const azure = fc.oneof(
  credentials('azureConnectionString', fc.tuple(secretKeyRef)),
  credentials('azureStorageKey', fc.tuple(fc.record({ storageAccount: secretKeyRef, storageKey: secretKeyRef }))),
  credentials('azureSasToken', fc.tuple(fc.record({ storageAccount: secretKeyRef, storageSasToken: secretKeyRef }))),
  credentials('azureWorkloadIdentity', fc.constant([])),
  credentials('azureDefaultCredentials', fc.constant([])),
);
const google = fc.oneof(credentials('googleApplicationCredentials', fc.tuple(secretKeyRef)), credentials('gkeWorkloadIdentity', fc.constant([])));
const bucketPath = fc.tuple(dnsLabel, fc.array(dnsLabel, { maxLength: 2 })).map(([b, p]) => [b, ...p].join('/'));

const provider = fc.oneof(
  fc.tuple(bucketPath, s3).map(([p, c]) => ({ destinationPath: `s3://${p}`, credentials: c })),
  fc.tuple(dnsLabel, bucketPath, azure).map(([acct, p, c]) => ({ destinationPath: `https://${acct}.blob.core.windows.net/${p}`, credentials: c })),
  fc.tuple(bucketPath, google).map(([p, c]) => ({ destinationPath: `gs://${p}`, credentials: c })),
);

const extraArgs = optional(fc.array(fc.constantFrom('--min-chunk-size=5MB', '--read-timeout=60', '-vv'), { maxLength: 2 }));

export const objectStoreProps = fc
  .tuple(
    provider,
    props({
      endpointUrl: optional(fc.constantFrom('https://minio.minio.svc:9000', 'http://rgw.ceph:8080')),
      endpointCa: optional(secretKeyRef),
      wal: optional(
        props({
          compression: optional(fc.constantFrom(...Object.values(WalCompression))),
          encryption: optional(fc.constantFrom(...Object.values(ObjectStoreEncryption))),
          maxParallel: optional(fc.integer({ min: 1, max: 64 })),
          archiveAdditionalCommandArgs: extraArgs,
          restoreAdditionalCommandArgs: extraArgs,
        }),
      ),
      data: optional(
        props({
          compression: optional(fc.constantFrom(...Object.values(DataCompression))),
          encryption: optional(fc.constantFrom(...Object.values(ObjectStoreEncryption))),
          jobs: optional(fc.integer({ min: 1, max: 64 })),
          immediateCheckpoint: optional(fc.boolean()),
          additionalCommandArgs: extraArgs,
          restoreAdditionalCommandArgs: extraArgs,
        }),
      ),
      retentionPolicy: optional(fc.tuple(fc.integer({ min: 1, max: 999 }), fc.constantFrom('d', 'w', 'm')).map(([n, u]) => `${n}${u}`)),
      tags: optional(stringMap),
      historyTags: optional(stringMap),
      instanceSidecarConfiguration: optional(
        props({
          env: optional(envMap),
          resources: optional(fc.record({ memory: fc.record({ request: memory }) })),
          logLevel: optional(fc.constantFrom(...Object.values(PluginLogLevel))),
          retentionPolicyInterval: optional(fc.integer({ min: 1, max: 86400 }).map((s) => Duration.seconds(s))),
          additionalContainerArgs: extraArgs,
        }),
      ),
      metadata: optional(props({ name: optional(dnsSubdomain), labels: optional(labelMap) })),
    }),
  )
  .map(([p, rest]) => ({ ...p, ...rest }));

// --- PostgresCluster -----------------------------------------------------------------------------

const clusterName = fc.stringMatching(/^[a-z]([-a-z0-9]{0,30}[a-z0-9])?$/);
const storage = props(
  {
    size: storageSize,
    storageClass: optional(dnsSubdomain),
    resizeInUseVolumes: optional(fc.boolean()),
    pvcTemplate: optional(
      fc.oneof(
        fc.constant({ accessModes: ['ReadWriteOnce'] }),
        fc.constantFrom('1Gi', '5Gi', '500Mi').map((q) => ({ resources: { requests: { storage: q } } })),
      ),
    ),
  },
  ['size'],
);

// shared_buffers stays below any memory request the props draw (1Mi and up): the Cluster webhook
// refuses a larger one (validateResources), and reads a bare number as MB.
const pgParameters = fc
  .tuple(
    fc.dictionary(fc.constantFrom('max_connections', 'work_mem', 'log_min_duration_statement'), fc.stringMatching(/^[0-9]{1,4}(MB|kB)?$/), { maxKeys: 2 }),
    optional(fc.stringMatching(/^[1-9][0-9]{2}kB$/)),
  )
  .map(([others, sharedBuffers]) => (sharedBuffers === undefined ? others : { ...others, shared_buffers: sharedBuffers }));

export const postgresClusterProps = props(
  {
    metadata: optional(
      props({
        name: optional(clusterName),
        labels: optional(labelMap),
        annotations: optional(fc.dictionary(labelKey, fc.string({ maxLength: 10 }), { maxKeys: 2 })),
      }),
    ),
    instances: optional(fc.integer({ min: 1, max: 9 })),
    storage,
    walStorage: optional(storage),
    image: optional(
      fc
        .constantFrom('ghcr.io/cloudnative-pg/postgresql:17.5', 'ghcr.io/cloudnative-pg/postgresql:16.9-standard-bookworm')
        .map((i) => new Call('ClusterImage.fromName', ClusterImage.fromName, [i])),
    ),
    postgresql: optional(props({ parameters: optional(pgParameters) })),
    monitoring: optional(props({ enablePodMonitor: optional(fc.boolean()) })),
    // A request is never above its limit: the API server refuses such a pod (the invalid case is the junk property's).
    resources: optional(
      props({
        cpu: optional(
          fc
            .tuple(fc.integer({ min: 1, max: 4000 }), fc.integer({ min: 0, max: 4000 }), fc.constantFrom('both', 'request', 'limit'))
            .map(([r, extra, which]) => ({
              request: which === 'limit' ? undefined : kplus.Cpu.millis(r),
              limit: which === 'request' ? undefined : kplus.Cpu.millis(r + extra),
            })),
        ),
        memory: optional(
          fc
            .tuple(fc.integer({ min: 1, max: 32768 }), fc.integer({ min: 0, max: 32768 }), fc.constantFrom('both', 'request', 'limit'))
            .map(([r, extra, which]) => ({
              request: which === 'limit' ? undefined : Size.mebibytes(r),
              limit: which === 'request' ? undefined : Size.mebibytes(r + extra),
            })),
        ),
      }),
    ),
    affinity: optional(fc.constant({ enablePodAntiAffinity: true, topologyKey: 'kubernetes.io/hostname' })),
    spec: optional(
      props({
        enableSuperuserAccess: optional(fc.boolean()),
        primaryUpdateStrategy: optional(fc.constantFrom('unsupervised', 'supervised')),
        enablePdb: optional(fc.boolean()),
        ephemeralVolumesSizeLimit: optional(props({ shm: optional(fc.constantFrom('64Mi', '1Gi')), temporaryData: optional(fc.constantFrom('1Gi', '10Gi')) })),
      }),
    ),
  },
  ['storage'],
  // The Cluster webhook refuses a supervised update with one instance (the default): nothing to switch over to.
).filter((p) => !(p.spec?.primaryUpdateStrategy === 'supervised' && (p.instances ?? 1) < 2));

export const imageCatalog = fc
  .record({
    name: dnsSubdomain,
    major: fc.integer({ min: 13, max: 18 }),
    kind: optional(fc.constantFrom(...Object.values(ImageCatalogKind))),
  })
  .map((r) => new Call('ClusterImage.fromCatalog', ClusterImage.fromCatalog, [r]));

export const schedule = fc.oneof(
  fc
    .tuple(fc.integer({ min: 0, max: 59 }), fc.integer({ min: 0, max: 59 }), fc.integer({ min: 0, max: 23 }))
    .map(([s, m, h]) => new Call('BackupSchedule.expression', BackupSchedule.expression, [`${s} ${m} ${h} * * *`])),
  fc
    .tuple(fc.integer({ min: 0, max: 59 }), fc.integer({ min: 0, max: 6 }))
    .map(([m, d]) => new Call('BackupSchedule.cron', BackupSchedule.cron, [{ minute: String(m), hour: '3', weekDay: String(d) }])),
  fc
    .tuple(fc.integer({ min: 0, max: 23 }), optional(fc.integer({ min: 0, max: 59 })))
    .map(([h, m]) => new Call('BackupSchedule.daily', BackupSchedule.daily, m === undefined ? [h] : [h, m])),
  fc
    .constantFrom('@daily', '@hourly', '@weekly', '@every 6h', '@every 1h30m', '0 */15 * * * *', '0 0 1 1-12/3 * mon-fri')
    .map((e) => new Call('BackupSchedule.expression', BackupSchedule.expression, [e])),
);

export const backupOptions = props({
  parameters: optional(stringMap),
  target: optional(fc.constantFrom(...Object.values(BackupTarget))),
  online: optional(fc.boolean()),
  metadata: optional(props({ labels: optional(labelMap) })),
});

export const scheduledBackupOptions = props(
  {
    schedule,
    parameters: optional(stringMap),
    immediate: optional(fc.boolean()),
    suspend: optional(fc.boolean()),
    backupOwnerReference: optional(fc.constantFrom(...Object.values(BackupOwnerReference))),
    target: optional(fc.constantFrom(...Object.values(BackupTarget))),
    online: optional(fc.boolean()),
    metadata: optional(props({ labels: optional(labelMap) })),
  },
  ['schedule'],
);

export const secretRef = fc.record({ name: dnsSubdomain, key: fc.stringMatching(/^[a-z][a-z0-9_.-]{0,10}$/) });
