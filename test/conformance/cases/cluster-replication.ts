/*
 * cloudnative-pg v1.30.0 internal/webhook/v1/cluster_webhook_test.go as data, replication family:
 * validateExternalClusters, validatePromotionToken, validateReplicaMode,
 * validateReplicaClusterExternalClusters, the update check validateReplicaClusterChange, the
 * replication slots (validateReplicationSlots, validateReplicationSlotsChange,
 * validateSynchronizeLogicalDecoding) and the managed extension pg_failover_slots
 * (validateManagedExtensions, validatePgFailoverSlots).
 */
import { AdmissionCase, cluster, JsonObject } from '../case';

/** versions.DefaultImageName at cloudnative-pg v1.30.0, which several upstream tests set explicitly. */
const DEFAULT_IMAGE = 'ghcr.io/cloudnative-pg/postgresql:18.4-system-trixie';

/**
 * Promotion tokens are base64 of the JSON of a pg_controldata summary; upstream builds them in
 * the test with Go's encoding/json (fields in this order, no spaces).
 */
function promotionToken(json: string): string {
  return Buffer.from(json, 'utf8').toString('base64');
}

/** A token with every field set (upstream "doesn't complain if the replica token is valid"). */
const VALID_TOKEN = promotionToken(
  '{"latestCheckpointTimelineID":"3","redoWalFile":"this-wal-file","databaseSystemIdentifier":"231231212",' +
    '"latestCheckpointREDOLocation":"33322232","timeOfLatestCheckpoint":"we don\'t know","operatorVersion":"version info"}',
);

/** The well-formed token the replica-cluster tests use. */
const REPLICA_TOKEN = promotionToken(
  '{"latestCheckpointTimelineID":"1","redoWalFile":"0000000100000001000000A1","databaseSystemIdentifier":"231231212",' +
    '"latestCheckpointREDOLocation":"0/1000000","timeOfLatestCheckpoint":"we don\'t know","operatorVersion":"version info"}',
);

const SAFE_EXTERNAL_CLUSTER: JsonObject = { name: 'one', connectionParameters: { dbname: 'postgres' } };
const EXTERNAL_TEST = [{ name: 'test' }];
const FAILOVER_SLOTS = { 'pg_failover_slots.synchronize_slot_names': 'my_slot' };

export const CLUSTER_REPLICATION_CASES: readonly AdmissionCase[] = [
  // validateExternalClusters
  {
    id: 'cluster/validateExternalClusters/1',
    upstream: { file: 'cluster_webhook_test.go', line: 2403, describe: 'validation of the list of external clusters', it: "is correct when it's empty" },
    function: 'validateExternalClusters',
    kind: 'Cluster',
    input: cluster(),
    verdict: { errors: 0 },
  },
  {
    id: 'cluster/validateExternalClusters/2',
    upstream: {
      file: 'cluster_webhook_test.go',
      line: 2408,
      describe: 'validation of the list of external clusters',
      it: 'complains when the list of clusters contains duplicates',
    },
    function: 'validateExternalClusters',
    kind: 'Cluster',
    input: cluster({ externalClusters: [SAFE_EXTERNAL_CLUSTER, SAFE_EXTERNAL_CLUSTER] }),
    verdict: { errors: 'some' },
  },
  {
    id: 'cluster/validateExternalClusters/3',
    upstream: {
      file: 'cluster_webhook_test.go',
      line: 2430,
      describe: 'validation of the list of external clusters',
      it: 'should not raise errors is the cluster name is unique',
    },
    function: 'validateExternalClusters',
    kind: 'Cluster',
    input: cluster({ externalClusters: [SAFE_EXTERNAL_CLUSTER, { name: 'two', connectionParameters: { dbname: 'postgres' } }] }),
    verdict: { errors: 0 },
  },
  {
    id: 'cluster/validateExternalClusters/4',
    upstream: {
      file: 'cluster_webhook_test.go',
      line: 2459,
      describe: 'validation of an external cluster',
      it: 'ensure that one of connectionParameters and barmanObjectStore is set',
    },
    function: 'validateExternalClusters',
    kind: 'Cluster',
    input: cluster({ externalClusters: [{}] }),
    verdict: { errors: 'some' },
    note: 'Object 1 of 3 of this upstream test: an external cluster with none of connectionParameters, plugin, barmanObjectStore.',
  },
  {
    id: 'cluster/validateExternalClusters/5',
    upstream: {
      file: 'cluster_webhook_test.go',
      line: 2459,
      describe: 'validation of an external cluster',
      it: 'ensure that one of connectionParameters and barmanObjectStore is set',
    },
    function: 'validateExternalClusters',
    kind: 'Cluster',
    input: cluster({ externalClusters: [{ connectionParameters: { dbname: 'postgres' } }] }),
    verdict: { errors: 0 },
    note: 'Object 2 of 3.',
  },
  {
    id: 'cluster/validateExternalClusters/6',
    upstream: {
      file: 'cluster_webhook_test.go',
      line: 2459,
      describe: 'validation of an external cluster',
      it: 'ensure that one of connectionParameters and barmanObjectStore is set',
    },
    function: 'validateExternalClusters',
    kind: 'Cluster',
    input: cluster({ externalClusters: [{ barmanObjectStore: {} }] }),
    verdict: { errors: 0 },
    note: 'Object 3 of 3.',
  },
  {
    id: 'cluster/validateExternalClusters/7',
    upstream: {
      file: 'cluster_webhook_test.go',
      line: 2492,
      describe: 'validation of an external cluster > rejects names and secret selectors that would escape the secrets directory',
      it: 'traversal in the name',
    },
    function: 'validateExternalClusters',
    kind: 'Cluster',
    input: cluster({ externalClusters: [{ ...SAFE_EXTERNAL_CLUSTER, name: '../pwned' }] }),
    verdict: { errors: 'some' },
  },
  {
    id: 'cluster/validateExternalClusters/8',
    upstream: {
      file: 'cluster_webhook_test.go',
      line: 2495,
      describe: 'validation of an external cluster > rejects names and secret selectors that would escape the secrets directory',
      it: 'separator in the name',
    },
    function: 'validateExternalClusters',
    kind: 'Cluster',
    input: cluster({ externalClusters: [{ ...SAFE_EXTERNAL_CLUSTER, name: 'nested/pwned' }] }),
    verdict: { errors: 'some' },
  },
  {
    id: 'cluster/validateExternalClusters/9',
    upstream: {
      file: 'cluster_webhook_test.go',
      line: 2498,
      describe: 'validation of an external cluster > rejects names and secret selectors that would escape the secrets directory',
      it: 'traversal in the sslCert secret name',
    },
    function: 'validateExternalClusters',
    kind: 'Cluster',
    input: cluster({ externalClusters: [{ ...SAFE_EXTERNAL_CLUSTER, sslCert: { name: '../pwned', key: 'tls.crt' } }] }),
    verdict: { errors: 'some' },
  },
  {
    id: 'cluster/validateExternalClusters/10',
    upstream: {
      file: 'cluster_webhook_test.go',
      line: 2504,
      describe: 'validation of an external cluster > rejects names and secret selectors that would escape the secrets directory',
      it: 'traversal in the sslCert secret key',
    },
    function: 'validateExternalClusters',
    kind: 'Cluster',
    input: cluster({ externalClusters: [{ ...SAFE_EXTERNAL_CLUSTER, sslCert: { name: 'cert', key: '../pwned' } }] }),
    verdict: { errors: 'some' },
  },
  {
    id: 'cluster/validateExternalClusters/11',
    upstream: {
      file: 'cluster_webhook_test.go',
      line: 2512,
      describe: 'validation of an external cluster',
      it: 'does not reject a password selector whose value would be unsafe as a path',
    },
    function: 'validateExternalClusters',
    kind: 'Cluster',
    input: cluster({ externalClusters: [{ ...SAFE_EXTERNAL_CLUSTER, password: { name: '../pwned', key: '../pwned' } }] }),
    verdict: { errors: 0 },
  },
  {
    id: 'cluster/validateExternalClusters/12',
    upstream: {
      file: 'cluster_webhook_test.go',
      line: 2532,
      describe: 'validation of an external cluster',
      it: 'accepts a well-formed name and secret selectors',
    },
    function: 'validateExternalClusters',
    kind: 'Cluster',
    input: cluster({
      externalClusters: [{ ...SAFE_EXTERNAL_CLUSTER, sslCert: { name: 'cert', key: 'tls.crt' }, password: { name: 'creds', key: 'password' } }],
    }),
    verdict: { errors: 0 },
  },
  {
    id: 'cluster/validateExternalClusters/13',
    upstream: { file: 'cluster_webhook_test.go', line: 2907, describe: 'validation of the list of external clusters', it: "is correct when it's empty" },
    function: 'validateExternalClusters',
    kind: 'Cluster',
    input: cluster(),
    verdict: { errors: 0 },
  },
  {
    id: 'cluster/validateExternalClusters/14',
    upstream: {
      file: 'cluster_webhook_test.go',
      line: 2912,
      describe: 'validation of the list of external clusters',
      it: 'complains when the list of servers contains duplicates',
    },
    function: 'validateExternalClusters',
    kind: 'Cluster',
    input: cluster({
      externalClusters: [
        { name: 'one', connectionParameters: {} },
        { name: 'one', connectionParameters: {} },
      ],
    }),
    verdict: { errors: 'some' },
  },
  {
    id: 'cluster/validateExternalClusters/15',
    upstream: {
      file: 'cluster_webhook_test.go',
      line: 2930,
      describe: 'validation of the list of external clusters',
      it: 'should not raise errors is the server name is unique',
    },
    function: 'validateExternalClusters',
    kind: 'Cluster',
    input: cluster({
      externalClusters: [
        { name: 'one', connectionParameters: {} },
        { name: 'two', connectionParameters: {} },
      ],
    }),
    verdict: { errors: 0 },
    note: 'An empty connectionParameters map counts as present.',
  },
  // validatePromotionToken
  {
    id: 'cluster/validatePromotionToken/1',
    upstream: {
      file: 'cluster_webhook_test.go',
      line: 3030,
      describe: 'promotion token validation',
      it: 'complains if the replica token is not formatted in base64',
    },
    function: 'validatePromotionToken',
    kind: 'Cluster',
    input: cluster({
      replica: { enabled: false, source: 'test', promotionToken: 'this-is-a-wrong-token' },
      bootstrap: { initdb: {} },
      externalClusters: EXTERNAL_TEST,
    }),
    verdict: { errors: 'some' },
  },
  {
    id: 'cluster/validatePromotionToken/2',
    upstream: { file: 'cluster_webhook_test.go', line: 3053, describe: 'promotion token validation', it: 'complains if the replica token is not valid' },
    function: 'validatePromotionToken',
    kind: 'Cluster',
    input: cluster({
      replica: { enabled: false, source: 'test', promotionToken: promotionToken('{}') },
      bootstrap: { initdb: {} },
      externalClusters: EXTERNAL_TEST,
    }),
    verdict: { errors: 'some' },
  },
  {
    id: 'cluster/validatePromotionToken/3',
    upstream: { file: 'cluster_webhook_test.go', line: 3076, describe: 'promotion token validation', it: "doesn't complain if the replica token is valid" },
    function: 'validatePromotionToken',
    kind: 'Cluster',
    input: cluster({
      replica: { enabled: false, source: 'test', promotionToken: VALID_TOKEN },
      bootstrap: { initdb: {} },
      externalClusters: EXTERNAL_TEST,
    }),
    verdict: { errors: 0 },
  },
  {
    id: 'cluster/validatePromotionToken/4',
    upstream: {
      file: 'cluster_webhook_test.go',
      line: 3110,
      describe: 'promotion token validation',
      it: 'complains if the token is set on a replica cluster (enabled)',
    },
    function: 'validatePromotionToken',
    kind: 'Cluster',
    input: cluster({ replica: { enabled: true, source: 'test', promotionToken: REPLICA_TOKEN } }),
    verdict: { errors: 'some' },
  },
  {
    id: 'cluster/validatePromotionToken/5',
    upstream: {
      file: 'cluster_webhook_test.go',
      line: 3136,
      describe: 'promotion token validation',
      it: 'complains if the token is set on a replica cluster (primary, default name)',
    },
    function: 'validatePromotionToken',
    kind: 'Cluster',
    input: cluster({ replica: { primary: 'test', source: 'test', promotionToken: REPLICA_TOKEN } }, { name: 'test2' }),
    verdict: { errors: 'some' },
    note: 'Without replica.self the Cluster name (test2) is this cluster, which is not the primary (test): a replica.',
  },
  {
    id: 'cluster/validatePromotionToken/6',
    upstream: {
      file: 'cluster_webhook_test.go',
      line: 3165,
      describe: 'promotion token validation',
      it: 'complains if the token is set on a replica cluster (primary, self)',
    },
    function: 'validatePromotionToken',
    kind: 'Cluster',
    input: cluster({ replica: { primary: 'test', self: 'test2', source: 'test', promotionToken: REPLICA_TOKEN } }),
    verdict: { errors: 'some' },
  },
  {
    id: 'cluster/validatePromotionToken/7',
    upstream: {
      file: 'cluster_webhook_test.go',
      line: 3192,
      describe: 'promotion token validation',
      it: 'complains it the token is set when minApplyDelay is being used',
    },
    function: 'validatePromotionToken',
    kind: 'Cluster',
    input: cluster({ replica: { primary: 'test', self: 'test', source: 'test', promotionToken: REPLICA_TOKEN, minApplyDelay: '1h0m0s' } }),
    verdict: { errors: 'some' },
  },
  // validateReplicaMode
  {
    id: 'cluster/validateReplicaMode/1',
    upstream: { file: 'cluster_webhook_test.go', line: 3229, describe: 'replica mode validation', it: 'complains if the bootstrap method is not specified' },
    function: 'validateReplicaMode',
    kind: 'Cluster',
    input: cluster({ replica: { enabled: true, source: 'test' }, externalClusters: EXTERNAL_TEST }),
    verdict: { errors: 'some' },
  },
  {
    id: 'cluster/validateReplicaMode/2',
    upstream: { file: 'cluster_webhook_test.go', line: 3246, describe: 'replica mode validation', it: 'complains if the initdb bootstrap method is used' },
    function: 'validateReplicaMode',
    kind: 'Cluster',
    input: cluster({ replica: { enabled: true, source: 'test' }, bootstrap: { initdb: {} }, externalClusters: EXTERNAL_TEST }),
    verdict: { errors: 'some' },
  },
  {
    id: 'cluster/validateReplicaMode/3',
    upstream: {
      file: 'cluster_webhook_test.go',
      line: 3266,
      describe: 'replica mode validation',
      it: "doesn't complain about initdb if we enable the external cluster on an existing cluster",
    },
    function: 'validateReplicaMode',
    kind: 'Cluster',
    input: cluster({ replica: { enabled: true, source: 'test' }, bootstrap: { initdb: {} }, externalClusters: EXTERNAL_TEST }, { resourceVersion: 'existing' }),
    verdict: { errors: 0 },
    note: 'A resourceVersion marks an existing Cluster: the initdb-with-replica check applies only on creation.',
  },
  {
    id: 'cluster/validateReplicaClusterChange/1',
    upstream: {
      file: 'cluster_webhook_test.go',
      line: 3290,
      describe: 'replica mode validation',
      it: 'should complain if enabled is set to off during a transition',
    },
    function: 'validateReplicaClusterChange',
    kind: 'Cluster',
    input: cluster(
      { replica: { enabled: false, source: 'test' }, bootstrap: { initdb: {} }, externalClusters: EXTERNAL_TEST },
      { resourceVersion: 'existing' },
      { switchReplicaClusterStatus: { inProgress: true } },
    ),
    old: cluster(
      { replica: { enabled: true, source: 'test' }, bootstrap: { initdb: {} }, externalClusters: EXTERNAL_TEST },
      { resourceVersion: 'existing' },
      { switchReplicaClusterStatus: { inProgress: true } },
    ),
    verdict: {
      errors: 1,
      paths: ['spec.replica.enabled'],
      details: [{ index: 0, path: 'spec.replica.enabled', reason: 'FieldValueForbidden' }],
    },
    note: 'The function reads the status of the new object (a switchover of the replica role in progress).',
  },
  {
    id: 'cluster/validateReplicaMode/4',
    upstream: {
      file: 'cluster_webhook_test.go',
      line: 3347,
      describe: 'replica mode validation',
      it: 'is valid when the pg_basebackup bootstrap option is used',
    },
    function: 'validateReplicaMode',
    kind: 'Cluster',
    input: cluster({ replica: { enabled: true, source: 'test' }, bootstrap: { pg_basebackup: {} }, externalClusters: EXTERNAL_TEST }),
    verdict: { errors: 0 },
  },
  {
    id: 'cluster/validateReplicaMode/5',
    upstream: { file: 'cluster_webhook_test.go', line: 3368, describe: 'replica mode validation', it: 'is valid when the restore bootstrap option is used' },
    function: 'validateReplicaMode',
    kind: 'Cluster',
    input: cluster({ replica: { enabled: true, source: 'test' }, bootstrap: { recovery: {} }, externalClusters: EXTERNAL_TEST }),
    verdict: { errors: 0 },
  },
  {
    id: 'cluster/validateReplicaMode/6',
    upstream: {
      file: 'cluster_webhook_test.go',
      line: 3389,
      describe: 'replica mode validation',
      it: 'complains when the primary field is used with the enabled field',
    },
    function: 'validateReplicaMode',
    kind: 'Cluster',
    input: cluster({ replica: { enabled: true, primary: 'toast', source: 'test' }, bootstrap: { pg_basebackup: {} }, externalClusters: [] }),
    verdict: { errors: 'some' },
  },
  {
    id: 'cluster/validateReplicaMode/7',
    upstream: {
      file: 'cluster_webhook_test.go',
      line: 3407,
      describe: 'replica mode validation',
      it: "doesn't complain when the enabled field is not specified",
    },
    function: 'validateReplicaMode',
    kind: 'Cluster',
    input: cluster({ replica: { primary: 'test', source: 'test' }, bootstrap: { pg_basebackup: {} }, externalClusters: EXTERNAL_TEST }, { name: 'test-2' }),
    verdict: { errors: 0 },
  },
  {
    id: 'cluster/validateReplicaMode/8',
    upstream: {
      file: 'cluster_webhook_test.go',
      line: 3431,
      describe: 'replica mode validation',
      it: "doesn't complain when creating a new primary cluster with the replication stanza set",
    },
    function: 'validateReplicaMode',
    kind: 'Cluster',
    input: cluster({ replica: { primary: 'test', source: 'test' }, bootstrap: { initdb: {} }, externalClusters: EXTERNAL_TEST }, { name: 'test' }),
    verdict: { errors: 0 },
    note: 'The Cluster is named as replica.primary, so it is the primary and initdb is fine.',
  },
  // validateReplicaClusterExternalClusters
  {
    id: 'cluster/validateReplicaClusterExternalClusters/1',
    upstream: {
      file: 'cluster_webhook_test.go',
      line: 3462,
      describe: 'validate the replica cluster external clusters',
      it: "complains when the external cluster doesn't exist (source)",
    },
    function: 'validateReplicaClusterExternalClusters',
    kind: 'Cluster',
    input: cluster({ replica: { enabled: true, source: 'test' }, bootstrap: {}, externalClusters: [] }),
    verdict: { errors: 'some' },
  },
  {
    id: 'cluster/validateReplicaClusterExternalClusters/2',
    upstream: {
      file: 'cluster_webhook_test.go',
      line: 3481,
      describe: 'validate the replica cluster external clusters',
      it: "complains when the external cluster doesn't exist (primary)",
    },
    function: 'validateReplicaClusterExternalClusters',
    kind: 'Cluster',
    input: cluster({ replica: { primary: 'test2', source: 'test' }, bootstrap: { pg_basebackup: {} }, externalClusters: EXTERNAL_TEST }),
    verdict: { errors: 'some' },
  },
  {
    id: 'cluster/validateReplicaClusterExternalClusters/3',
    upstream: {
      file: 'cluster_webhook_test.go',
      line: 3503,
      describe: 'validate the replica cluster external clusters',
      it: "complains when the external cluster doesn't exist (self)",
    },
    function: 'validateReplicaClusterExternalClusters',
    kind: 'Cluster',
    input: cluster({ replica: { self: 'test2', primary: 'test', source: 'test' }, bootstrap: { pg_basebackup: {} }, externalClusters: EXTERNAL_TEST }),
    verdict: { errors: 'some' },
  },
  // validateReplicationSlots, validateReplicationSlotsChange
  {
    id: 'cluster/validateReplicationSlots/1',
    upstream: {
      file: 'cluster_webhook_test.go',
      line: 3834,
      describe: 'validation of replication slots configuration',
      it: 'can be enabled on the default PostgreSQL image',
    },
    function: 'validateReplicationSlots',
    kind: 'Cluster',
    input: cluster({ imageName: DEFAULT_IMAGE, replicationSlots: { highAvailability: { enabled: true }, updateInterval: 0 } }),
    defaulted: true,
    verdict: { errors: 0 },
  },
  {
    id: 'cluster/validateReplicationSlots/2',
    upstream: { file: 'cluster_webhook_test.go', line: 3852, describe: 'validation of replication slots configuration', it: 'set replicationSlots by default' },
    function: 'validateReplicationSlots',
    kind: 'Cluster',
    input: cluster({ imageName: DEFAULT_IMAGE }),
    defaulted: true,
    afterDefaulting: [
      { path: 'spec.replicationSlots' },
      { path: 'spec.replicationSlots.highAvailability' },
      { path: 'spec.replicationSlots.highAvailability.enabled', equals: true },
    ],
    verdict: { errors: 0 },
  },
  {
    id: 'cluster/validateReplicationSlots/3',
    upstream: {
      file: 'cluster_webhook_test.go',
      line: 3867,
      describe: 'validation of replication slots configuration',
      it: 'set replicationSlots.highAvailability by default',
    },
    function: 'validateReplicationSlots',
    kind: 'Cluster',
    input: cluster({ imageName: DEFAULT_IMAGE, replicationSlots: { updateInterval: 30 } }),
    defaulted: true,
    afterDefaulting: [{ path: 'spec.replicationSlots.highAvailability' }, { path: 'spec.replicationSlots.highAvailability.enabled', equals: true }],
    verdict: { errors: 0 },
  },
  {
    id: 'cluster/validateReplicationSlotsChange/1',
    upstream: {
      file: 'cluster_webhook_test.go',
      line: 3884,
      describe: 'validation of replication slots configuration',
      it: 'allows enabling replication slots on the fly',
    },
    function: 'validateReplicationSlotsChange',
    kind: 'Cluster',
    input: cluster({
      imageName: DEFAULT_IMAGE,
      replicationSlots: { highAvailability: { enabled: true, slotPrefix: '_test_' }, synchronizeReplicas: { enabled: true } },
    }),
    old: cluster({ imageName: DEFAULT_IMAGE, replicationSlots: { highAvailability: { enabled: false }, synchronizeReplicas: { enabled: false } } }),
    oldDefaulted: true,
    verdict: { errors: 0 },
    note: 'Upstream makes the new object a copy of the defaulted old one and replaces spec.replicationSlots; the input carries that stanza (the field the function reads).',
  },
  {
    id: 'cluster/validateReplicationSlotsChange/2',
    upstream: {
      file: 'cluster_webhook_test.go',
      line: 3914,
      describe: 'validation of replication slots configuration',
      it: 'prevents changing the slot prefix while replication slots are enabled',
    },
    function: 'validateReplicationSlotsChange',
    kind: 'Cluster',
    input: cluster({
      imageName: DEFAULT_IMAGE,
      replicationSlots: { highAvailability: { enabled: true, slotPrefix: '_toast_' }, synchronizeReplicas: { enabled: true } },
    }),
    old: cluster({ imageName: DEFAULT_IMAGE, replicationSlots: { highAvailability: { enabled: true, slotPrefix: '_test_' } } }),
    oldDefaulted: true,
    verdict: { errors: 1 },
    note: 'The new object is the defaulted old one (the defaulter adds synchronizeReplicas enabled) with the slot prefix changed.',
  },
  {
    id: 'cluster/validateReplicationSlotsChange/3',
    upstream: {
      file: 'cluster_webhook_test.go',
      line: 3933,
      describe: 'validation of replication slots configuration',
      it: 'prevents removing the replication slot section when highAvailability is enabled',
    },
    function: 'validateReplicationSlotsChange',
    kind: 'Cluster',
    input: cluster({ imageName: DEFAULT_IMAGE }),
    old: cluster({
      imageName: DEFAULT_IMAGE,
      replicationSlots: { highAvailability: { enabled: true, slotPrefix: '_test_' }, synchronizeReplicas: { enabled: false } },
    }),
    oldDefaulted: true,
    verdict: { errors: 1 },
    admission: { rewrittenBy: ['crd-defaults', 'defaulter'], errors: 1, paths: ['spec.replicationSlots.highAvailability.slotPrefix'] },
    note:
      'The new object is the defaulted old one without spec.replicationSlots; it must not be defaulted again (that would restore the stanza). ' +
      'In admission the new object comes back defaulted (spec.replicationSlots.highAvailability enabled with the slot prefix _cnpg_), so the one error is the changed slot prefix instead.',
  },
  {
    id: 'cluster/validateReplicationSlotsChange/4',
    upstream: {
      file: 'cluster_webhook_test.go',
      line: 3955,
      describe: 'validation of replication slots configuration',
      it: 'prevents removing the replication slot section when synchronizeReplicas is enabled',
    },
    function: 'validateReplicationSlotsChange',
    kind: 'Cluster',
    input: cluster({ imageName: DEFAULT_IMAGE }),
    old: cluster({ imageName: DEFAULT_IMAGE, replicationSlots: { highAvailability: { enabled: false }, synchronizeReplicas: { enabled: true } } }),
    oldDefaulted: true,
    verdict: { errors: 1 },
    admission: { rewrittenBy: ['crd-defaults', 'defaulter'], errors: 0 },
    note:
      'The new object is the defaulted old one without spec.replicationSlots. ' +
      'In admission the new object comes back defaulted with synchronizeReplicas enabled, so nothing is removed and nothing is refused.',
  },
  {
    id: 'cluster/validateReplicationSlotsChange/5',
    upstream: {
      file: 'cluster_webhook_test.go',
      line: 3976,
      describe: 'validation of replication slots configuration',
      it: 'prevents removing the replication slot section when both features are enabled',
    },
    function: 'validateReplicationSlotsChange',
    kind: 'Cluster',
    input: cluster({ imageName: DEFAULT_IMAGE }),
    old: cluster({
      imageName: DEFAULT_IMAGE,
      replicationSlots: { highAvailability: { enabled: true, slotPrefix: '_test_' }, synchronizeReplicas: { enabled: true } },
    }),
    oldDefaulted: true,
    verdict: { errors: 2 },
    admission: { rewrittenBy: ['crd-defaults', 'defaulter'], errors: 1, paths: ['spec.replicationSlots.highAvailability.slotPrefix'] },
    note:
      'The new object is the defaulted old one without spec.replicationSlots. ' +
      'In admission the new object comes back defaulted (both stanzas, slot prefix _cnpg_), so the one error is the changed slot prefix.',
  },
  {
    id: 'cluster/validateReplicationSlotsChange/6',
    upstream: {
      file: 'cluster_webhook_test.go',
      line: 3998,
      describe: 'validation of replication slots configuration',
      it: 'allows disabling the replication slots',
    },
    function: 'validateReplicationSlotsChange',
    kind: 'Cluster',
    input: cluster({
      imageName: DEFAULT_IMAGE,
      replicationSlots: { highAvailability: { enabled: false, slotPrefix: '_test_' }, synchronizeReplicas: { enabled: true } },
    }),
    old: cluster({ imageName: DEFAULT_IMAGE, replicationSlots: { highAvailability: { enabled: true, slotPrefix: '_test_' } } }),
    oldDefaulted: true,
    verdict: { errors: 0 },
    note: 'The new object is the defaulted old one (synchronizeReplicas enabled added) with highAvailability disabled.',
  },
  {
    id: 'cluster/validateReplicationSlots/4',
    upstream: {
      file: 'cluster_webhook_test.go',
      line: 4017,
      describe: 'validation of replication slots configuration',
      it: 'should return an error when SynchronizeReplicasConfiguration is not nil and has invalid regex',
    },
    function: 'validateReplicationSlots',
    kind: 'Cluster',
    input: cluster({ imageName: DEFAULT_IMAGE, replicationSlots: { synchronizeReplicas: { excludePatterns: ['([a-zA-Z]+'] } } }),
    verdict: { errors: 1, details: [{ index: 0, message: 'Cannot configure synchronizeReplicas. Invalid regexes were found' }] },
    note: 'The patterns are Go (RE2) regular expressions.',
  },
  {
    id: 'cluster/validateReplicationSlots/5',
    upstream: {
      file: 'cluster_webhook_test.go',
      line: 4033,
      describe: 'validation of replication slots configuration',
      it: 'should not return an error when SynchronizeReplicasConfiguration is not nil and regex is valid',
    },
    function: 'validateReplicationSlots',
    kind: 'Cluster',
    input: cluster({ imageName: DEFAULT_IMAGE, replicationSlots: { synchronizeReplicas: { excludePatterns: ['validpattern'] } } }),
    verdict: { errors: 0 },
  },
  {
    id: 'cluster/validateReplicationSlots/6',
    upstream: {
      file: 'cluster_webhook_test.go',
      line: 4048,
      describe: 'validation of replication slots configuration',
      it: 'should not return an error when SynchronizeReplicasConfiguration is nil',
    },
    function: 'validateReplicationSlots',
    kind: 'Cluster',
    input: cluster({ imageName: DEFAULT_IMAGE, replicationSlots: {} }),
    verdict: { errors: 0 },
  },
  {
    id: 'cluster/validateReplicationSlotsChange/7',
    upstream: {
      file: 'cluster_webhook_test.go',
      line: 4061,
      describe: 'validation of replication slots configuration',
      it: 'prevents removing the synchronizeReplicas section when synchronizeReplicas is enabled',
    },
    function: 'validateReplicationSlotsChange',
    kind: 'Cluster',
    input: cluster({ imageName: DEFAULT_IMAGE, replicationSlots: { highAvailability: { enabled: false } } }),
    old: cluster({ imageName: DEFAULT_IMAGE, replicationSlots: { highAvailability: { enabled: false }, synchronizeReplicas: { enabled: true } } }),
    oldDefaulted: true,
    verdict: { errors: 1, details: [{ index: 0, messageContains: ['Cannot remove', 'synchronizeReplicas'] }] },
    admission: { rewrittenBy: ['defaulter'], errors: 0 },
    note:
      'The new object is the defaulted old one without spec.replicationSlots.synchronizeReplicas. ' +
      'In admission the defaulter puts synchronizeReplicas (enabled) back on the new object, so nothing is refused.',
  },
  {
    id: 'cluster/validateReplicationSlotsChange/8',
    upstream: {
      file: 'cluster_webhook_test.go',
      line: 4085,
      describe: 'validation of replication slots configuration',
      it: 'allows disabling the synchronizeReplicas feature',
    },
    function: 'validateReplicationSlotsChange',
    kind: 'Cluster',
    input: cluster({ imageName: DEFAULT_IMAGE, replicationSlots: { highAvailability: { enabled: false }, synchronizeReplicas: { enabled: false } } }),
    old: cluster({ imageName: DEFAULT_IMAGE, replicationSlots: { highAvailability: { enabled: false }, synchronizeReplicas: { enabled: true } } }),
    oldDefaulted: true,
    verdict: { errors: 0 },
    note: 'The new object is the defaulted old one with synchronizeReplicas disabled.',
  },
  {
    id: 'cluster/validateReplicationSlotsChange/9',
    upstream: {
      file: 'cluster_webhook_test.go',
      line: 4106,
      describe: 'validation of replication slots configuration',
      it: 'allows removing synchronizeReplicas section when synchronizeReplicas is disabled',
    },
    function: 'validateReplicationSlotsChange',
    kind: 'Cluster',
    input: cluster({ imageName: DEFAULT_IMAGE, replicationSlots: { highAvailability: { enabled: false } } }),
    old: cluster({ imageName: DEFAULT_IMAGE, replicationSlots: { highAvailability: { enabled: false }, synchronizeReplicas: { enabled: false } } }),
    oldDefaulted: true,
    verdict: { errors: 0 },
    note: 'The new object is the defaulted old one without spec.replicationSlots.synchronizeReplicas.',
  },
  // validateSynchronizeLogicalDecoding
  {
    id: 'cluster/validateSynchronizeLogicalDecoding/1',
    upstream: {
      file: 'cluster_webhook_test.go',
      line: 4127,
      describe: 'validation of replication slots configuration',
      it: 'returns no errors when synchronizeLogicalDecoding is disabled',
    },
    function: 'validateSynchronizeLogicalDecoding',
    kind: 'Cluster',
    input: cluster({ replicationSlots: { highAvailability: { synchronizeLogicalDecoding: false } } }),
    verdict: { errors: 0 },
  },
  {
    id: 'cluster/validateSynchronizeLogicalDecoding/2',
    upstream: {
      file: 'cluster_webhook_test.go',
      line: 4142,
      describe: 'validation of replication slots configuration',
      it: 'returns no errors when pg_failover_slots is enabled',
    },
    function: 'validateSynchronizeLogicalDecoding',
    kind: 'Cluster',
    input: cluster({
      replicationSlots: { highAvailability: { synchronizeLogicalDecoding: true } },
      postgresql: { parameters: { hot_standby_feedback: 'true', 'pg_failover_slots.synchronize_slot_names': 'name_like:%' } },
    }),
    verdict: { errors: 0 },
  },
  {
    id: 'cluster/validateSynchronizeLogicalDecoding/3',
    upstream: {
      file: 'cluster_webhook_test.go',
      line: 4163,
      describe: 'validation of replication slots configuration',
      it: 'returns an error when Postgres version is < 17 and pg_failover_slots is not enabled',
    },
    function: 'validateSynchronizeLogicalDecoding',
    kind: 'Cluster',
    input: cluster({ imageName: 'postgres:16', replicationSlots: { highAvailability: { synchronizeLogicalDecoding: true } } }),
    verdict: { errors: 1, details: [{ index: 0, messageContains: ['pg_failover_slots extension must be enabled'] }] },
  },
  {
    id: 'cluster/validateSynchronizeLogicalDecoding/4',
    upstream: {
      file: 'cluster_webhook_test.go',
      line: 4179,
      describe: 'validation of replication slots configuration',
      it: 'returns an error when Postgres version is 17 and hot_standby_feedback is disabled',
    },
    function: 'validateSynchronizeLogicalDecoding',
    kind: 'Cluster',
    input: cluster({
      imageName: 'postgres:17',
      replicationSlots: { highAvailability: { synchronizeLogicalDecoding: true } },
      postgresql: { parameters: { sync_replication_slots: 'on', hot_standby_feedback: 'off' } },
    }),
    verdict: { errors: 1, details: [{ index: 0, messageContains: ['`hot_standby_feedback` must be enabled'] }] },
  },
  {
    id: 'cluster/validateSynchronizeLogicalDecoding/5',
    upstream: {
      file: 'cluster_webhook_test.go',
      line: 4202,
      describe: 'validation of replication slots configuration',
      it: 'returns an error when Postgres version is 17 and sync_replication_slots is disabled',
    },
    function: 'validateSynchronizeLogicalDecoding',
    kind: 'Cluster',
    input: cluster({
      imageName: 'postgres:17',
      replicationSlots: { highAvailability: { synchronizeLogicalDecoding: true } },
      postgresql: { parameters: { hot_standby_feedback: 'on', sync_replication_slots: 'off' } },
    }),
    verdict: { errors: 1, details: [{ index: 0, messageContains: ['`sync_replication_slots` setting or pg_failover_slots extension must be enabled'] }] },
  },
  {
    id: 'cluster/validateSynchronizeLogicalDecoding/6',
    upstream: {
      file: 'cluster_webhook_test.go',
      line: 4225,
      describe: 'validation of replication slots configuration',
      it: 'returns no errors when all conditions are met',
    },
    function: 'validateSynchronizeLogicalDecoding',
    kind: 'Cluster',
    input: cluster({
      imageName: 'postgres:17',
      replicationSlots: { highAvailability: { synchronizeLogicalDecoding: true } },
      postgresql: { parameters: { hot_standby_feedback: 'on', sync_replication_slots: 'on' } },
    }),
    verdict: { errors: 0 },
  },
  // validateManagedExtensions, validatePgFailoverSlots
  {
    id: 'cluster/validateManagedExtensions/1',
    upstream: { file: 'cluster_webhook_test.go', line: 4521, describe: 'Managed Extensions validation', it: 'should succeed if no extension is enabled' },
    function: 'validateManagedExtensions',
    kind: 'Cluster',
    input: cluster(),
    verdict: { errors: 0 },
  },
  {
    id: 'cluster/validatePgFailoverSlots/1',
    upstream: {
      file: 'cluster_webhook_test.go',
      line: 4528,
      describe: 'Managed Extensions validation',
      it: 'should fail if hot_standby_feedback is set to an invalid value',
    },
    function: 'validatePgFailoverSlots',
    kind: 'Cluster',
    input: cluster({
      replicationSlots: { highAvailability: { enabled: true } },
      postgresql: { parameters: { hot_standby_feedback: 'foo', ...FAILOVER_SLOTS } },
    }),
    verdict: { errors: 1 },
  },
  {
    id: 'cluster/validatePgFailoverSlots/2',
    upstream: {
      file: 'cluster_webhook_test.go',
      line: 4547,
      describe: 'Managed Extensions validation',
      it: 'should succeed if pg_failover_slots and its prerequisites are enabled',
    },
    function: 'validatePgFailoverSlots',
    kind: 'Cluster',
    input: cluster({
      replicationSlots: { highAvailability: { enabled: true } },
      postgresql: { parameters: { hot_standby_feedback: 'on', ...FAILOVER_SLOTS } },
    }),
    verdict: { errors: 0 },
  },
  {
    id: 'cluster/validatePgFailoverSlots/3',
    upstream: {
      file: 'cluster_webhook_test.go',
      line: 4566,
      describe: 'Managed Extensions validation',
      it: 'should produce two errors if pg_failover_slots is enabled and its prerequisites are disabled',
    },
    function: 'validatePgFailoverSlots',
    kind: 'Cluster',
    input: cluster({ postgresql: { parameters: { ...FAILOVER_SLOTS } } }),
    verdict: { errors: 2 },
    admission: { rewrittenBy: ['crd-defaults', 'defaulter'], errors: 1 },
    note:
      'No spec.replicationSlots: the function refuses hot_standby_feedback and the missing stanza. Admission never sees that: the CRD ' +
      'defaults spec.replicationSlots to {highAvailability: {enabled: true}} (and the defaulter adds it too), leaving only the hot_standby_feedback error.',
  },
  {
    id: 'cluster/validatePgFailoverSlots/4',
    upstream: {
      file: 'cluster_webhook_test.go',
      line: 4579,
      describe: 'Managed Extensions validation',
      it: 'should produce an error if pg_failover_slots is enabled and HA slots are disabled',
    },
    function: 'validatePgFailoverSlots',
    kind: 'Cluster',
    input: cluster({ postgresql: { parameters: { hot_standby_feedback: 'yes', ...FAILOVER_SLOTS } } }),
    verdict: { errors: 1 },
    admission: { rewrittenBy: ['crd-defaults', 'defaulter'], errors: 0 },
    note:
      'The one error is the missing spec.replicationSlots. With the CRD default (highAvailability enabled) admission finds nothing to refuse; ' +
      'the upstream title ("HA slots are disabled") describes an object that only a direct call can build.',
  },
  {
    id: 'cluster/validatePgFailoverSlots/5',
    upstream: {
      file: 'cluster_webhook_test.go',
      line: 4593,
      describe: 'Managed Extensions validation',
      it: 'should produce an error if pg_failover_slots is enabled and hot_standby_feedback is disabled',
    },
    function: 'validatePgFailoverSlots',
    kind: 'Cluster',
    input: cluster({ replicationSlots: { highAvailability: { enabled: true } }, postgresql: { parameters: { ...FAILOVER_SLOTS } } }),
    verdict: { errors: 1 },
  },
];
