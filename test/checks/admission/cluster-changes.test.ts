import { ChangeIssue } from '../../../src/checks/admission/admission-check';
import { ADMISSION_CHANGE_CHECKS, admissionChangeCheck, admitChange } from '../../../src/checks/admission/index';

type Spec = Record<string, unknown>;
const cluster = (spec: Spec, status?: Spec, annotations?: Record<string, string>) => ({
  apiVersion: 'postgresql.cnpg.io/v1',
  kind: 'Cluster',
  metadata: { name: 'pg', namespace: 'app', ...(annotations ? { annotations } : {}) },
  spec: { instances: 3, storage: { size: '10Gi' }, ...spec },
  ...(status ? { status } : {}),
});
/** The issues of one update check on the two objects as given (no defaulting). */
const check = (upstream: string, next: Spec, previous: Spec): readonly ChangeIssue[] => admissionChangeCheck('Cluster', upstream)!.check(next, previous, {});

test('the update checks are those of validateClusterChanges, in its order', () => {
  expect(ADMISSION_CHANGE_CHECKS.map((c) => c.upstream)).toEqual([
    'validateImageChange',
    'validateConfigurationChange',
    'validateStorageChange',
    'validateWalStorageChange',
    'validateTablespacesChange',
    'validateUnixPermissionIdentifierChange',
    'validateReplicationSlotsChange',
    'validateWALLevelChange',
    'validateReplicaClusterChange',
  ]);
});

describe('validateImageChange', () => {
  const live = (major: number, spec: Spec = {}) => cluster(spec, { pgDataImageInfo: { image: 'x', majorVersion: major } });
  test('a downgrade from the data directory major, at the catalog major when the Cluster uses a catalog', () => {
    expect(check('validateImageChange', cluster({ imageName: 'postgres:16.4' }), live(17))).toEqual([
      {
        severity: 'error',
        path: 'spec.imageName',
        message:
          'asks for PostgreSQL 16 on a data directory of PostgreSQL 17; the Cluster webhook refuses it ("can\'t downgrade from major 17 to 16"): a data directory never goes back to an older major',
        fix: 'keep major 17; to run 16, restore a backup into a new Cluster',
        before: 17,
        after: 16,
      },
    ]);
    expect(check('validateImageChange', cluster({ imageCatalogRef: { kind: 'ImageCatalog', name: 'pg', major: 15 } }), live(16))[0].path).toBe(
      'spec.imageCatalogRef.major',
    );
  });
  test('an upgrade to a major below 16', () => {
    expect(check('validateImageChange', cluster({ imageName: 'postgres:15.8' }), live(14))).toEqual([
      {
        severity: 'error',
        path: 'spec.imageName',
        message: 'upgrades PostgreSQL from 14 to 15; the Cluster webhook refuses it ("major upgrades are only supported to version 16 or higher")',
        fix: 'upgrade to PostgreSQL 16 or later, or keep major 14',
        before: 14,
        after: 15,
      },
    ]);
  });
  test.each([
    ['an upgrade to 16 or later', cluster({ imageName: 'postgres:16.1' }), live(14)],
    ['a minor update', cluster({ imageName: 'postgres:17.6' }), live(17)],
    ['no status: nothing to compare with', cluster({ imageName: 'postgres:13' }), cluster({ imageName: 'postgres:17' })],
    ['an unreadable new tag (validateImageName reports it)', cluster({ imageName: 'postgres:latest' }), live(17)],
    ['the default image over a data directory of the same major', cluster({}), live(18)],
  ])('passes: %s', (_what, next, previous) => {
    expect(check('validateImageChange', next, previous)).toEqual([]);
  });
});

describe('validateConfigurationChange', () => {
  const spec = (tag: string, parameters: Record<string, string>, method = 'switchover') => ({
    imageName: `postgres:${tag}`,
    primaryUpdateMethod: method,
    postgresql: { parameters },
  });
  test('image and parameters together with switchover, with the differences as Go writes them', () => {
    expect(check('validateConfigurationChange', cluster(spec('17.6', { work_mem: '8MB', a: '<&>' })), cluster(spec('17.5', { work_mem: '4MB' })))).toEqual([
      {
        severity: 'error',
        path: 'spec.imageName',
        message:
          'changes together with postgresql.parameters while primaryUpdateMethod is switchover; the Cluster webhook refuses it ' +
          '("Can\'t change image name and configuration at the same time when `primaryUpdateMethod` is set to `switchover`. ' +
          'There are differences in PostgreSQL configuration parameters: {"a":["","\\u003c\\u0026\\u003e"],"work_mem":["4MB","8MB"]}")',
        fix: 'change the image in one update and the parameters in the next',
        before: 'postgres:17.5',
        after: 'postgres:17.6',
      },
    ]);
  });
  test.each([
    ['the restart method', spec('17.6', { work_mem: '8MB' }, 'restart'), spec('17.5', { work_mem: '4MB' }, 'restart')],
    ['the image alone', spec('17.6', { work_mem: '4MB' }), spec('17.5', { work_mem: '4MB' })],
    ['the parameters alone', spec('17.5', { work_mem: '8MB' }), spec('17.5', { work_mem: '4MB' })],
  ])('passes: %s', (_what, next, previous) => {
    expect(check('validateConfigurationChange', cluster(next), cluster(previous))).toEqual([]);
  });
});

describe('the storage checks', () => {
  test('a smaller size, at the field that holds it; the webhook names the section', () => {
    expect(check('validateStorageChange', cluster({ storage: { pvcTemplate: { resources: { requests: { storage: '9000M' } } } } }), cluster({}))).toEqual([
      {
        severity: 'error',
        path: 'spec.storage.pvcTemplate.resources.requests.storage',
        webhookPath: 'spec.storage',
        message:
          'shrinks the storage from 10Gi to 9000M; the Cluster webhook refuses it ("can\'t shrink existing storage from 10Gi to 9000M"): a PersistentVolumeClaim can only grow',
        fix: 'keep spec.storage.pvcTemplate.resources.requests.storage: 10Gi or more; for smaller volumes, restore a backup into a new Cluster',
        before: '10Gi',
        after: '9000M',
      },
    ]);
  });
  test('a PVC template without a request is size 0 to the webhook', () => {
    expect(check('validateStorageChange', cluster({ storage: { pvcTemplate: { storageClassName: 'x' } } }), cluster({}))[0]).toMatchObject({
      before: '10Gi',
      after: '0',
    });
  });
  test.each([
    ['the same size in other units', { size: '10240Mi' }],
    ['a larger size', { size: '20Gi' }],
    ['a size that does not parse', { size: 'lots' }],
  ])('passes: %s', (_what, storage) => {
    expect(check('validateStorageChange', cluster({ storage }), cluster({}))).toEqual([]);
  });

  test('walStorage removed, or smaller', () => {
    expect(check('validateWalStorageChange', cluster({}), cluster({ walStorage: { size: '1Gi' } }))).toEqual([
      {
        severity: 'error',
        path: 'spec.walStorage',
        message:
          'is removed; the Cluster webhook refuses it ("walStorage cannot be disabled once configured"): the instances keep their WAL on a volume of its own',
        fix: 'keep spec.walStorage as it was',
        before: '1Gi',
        after: null,
      },
    ]);
    expect(check('validateWalStorageChange', cluster({ walStorage: { size: '1Gi' } }), cluster({ walStorage: { size: '2Gi' } }))[0]).toMatchObject({
      path: 'spec.walStorage.size',
      webhookPath: 'spec.walStorage',
      before: '2Gi',
      after: '1Gi',
    });
  });
  test('passes: walStorage added, or kept', () => {
    expect(check('validateWalStorageChange', cluster({ walStorage: { size: '1Gi' } }), cluster({}))).toEqual([]);
    expect(check('validateWalStorageChange', cluster({ walStorage: { size: '1Gi' } }), cluster({ walStorage: { size: '1Gi' } }))).toEqual([]);
  });

  const ts = (...spaces: Array<[string, string]>) => ({ tablespaces: spaces.map(([name, size]) => ({ name, storage: { size } })) });
  test('tablespaces: the section removed is one error naming them all', () => {
    expect(check('validateTablespacesChange', cluster({}), cluster(ts(['a', '1Gi'], ['b', '1Gi'])))).toEqual([
      {
        severity: 'error',
        path: 'spec.tablespaces',
        message: 'is removed; the Cluster webhook refuses it ("tablespaces section cannot be deleted once created"): PostgreSQL keeps the tablespaces',
        fix: "keep spec.tablespaces with every tablespace it had ('a', 'b')",
        before: ['a', 'b'],
        after: null,
      },
    ]);
  });
  test('tablespaces: one dropped, one shrunk; by name, the webhook naming the stored index', () => {
    expect(check('validateTablespacesChange', cluster(ts(['b', '1Gi'])), cluster(ts(['a', '1Gi'], ['b', '2Gi'])))).toEqual([
      {
        severity: 'error',
        path: 'spec.tablespaces[a]',
        webhookPath: 'spec.tablespaces[0]',
        message: 'drops tablespace \'a\'; the Cluster webhook refuses it ("no tablespace can be deleted once created")',
        fix: "keep tablespace 'a' in spec.tablespaces",
        before: 'a',
        after: null,
      },
      {
        severity: 'error',
        path: 'spec.tablespaces[b].storage.size',
        webhookPath: 'spec.tablespaces[1]',
        message:
          "shrinks tablespace 'b' from 2Gi to 1Gi; the Cluster webhook refuses it (\"can't shrink existing storage from 2Gi to 1Gi\"): a PersistentVolumeClaim can only grow",
        fix: 'keep spec.tablespaces[b].storage.size: 2Gi or more; for smaller volumes, restore a backup into a new Cluster',
        before: '2Gi',
        after: '1Gi',
      },
    ]);
  });
  test('passes: tablespaces added, reordered or grown', () => {
    expect(check('validateTablespacesChange', cluster(ts(['b', '2Gi'], ['a', '1Gi'], ['c', '1Gi'])), cluster(ts(['a', '1Gi'], ['b', '1Gi'])))).toEqual([]);
    expect(check('validateTablespacesChange', cluster(ts(['a', '1Gi'])), cluster({}))).toEqual([]);
  });
});

describe('validateUnixPermissionIdentifierChange', () => {
  test('GID first, then UID', () => {
    expect(
      check('validateUnixPermissionIdentifierChange', cluster({ postgresUID: 1000, postgresGID: 1000 }), cluster({ postgresUID: 26, postgresGID: 26 })),
    ).toEqual(
      ['GID', 'UID'].map((what) => ({
        severity: 'error',
        path: `spec.postgres${what}`,
        message: `changes from 26 to 1000; the Cluster webhook refuses it ("${what} is an immutable field in the spec"): the files of the data directory belong to the old ${what}`,
        fix: `keep spec.postgres${what}: 26`,
        before: 26,
        after: 1000,
      })),
    );
  });
  test('passes: the same values; through admission, the CRD default 26 written out', () => {
    expect(check('validateUnixPermissionIdentifierChange', cluster({ postgresUID: 26 }), cluster({ postgresUID: 26 }))).toEqual([]);
    expect(admitChange('Cluster', cluster({ postgresUID: 26, postgresGID: 26 }), cluster({})).issues.size).toBe(0);
  });
});

describe('validateReplicationSlotsChange', () => {
  const slots = (replicationSlots: Spec) => cluster({ replicationSlots });
  test('the prefix changed while HA slots are enabled', () => {
    expect(
      check(
        'validateReplicationSlotsChange',
        slots({ highAvailability: { enabled: true, slotPrefix: '_x_' }, synchronizeReplicas: { enabled: true } }),
        slots({ highAvailability: { enabled: true, slotPrefix: '_cnpg_' }, synchronizeReplicas: { enabled: true } }),
      ),
    ).toEqual([
      {
        severity: 'error',
        path: 'spec.replicationSlots.highAvailability.slotPrefix',
        message:
          "changes from '_cnpg_' to '_x_' while the HA replication slots are enabled; the Cluster webhook refuses it (\"Cannot change replication slot prefix while highAvailability is enabled\"): the operator finds the slots to drop by their prefix",
        fix: "keep slotPrefix '_cnpg_'; to change it, set replicationSlots.highAvailability.enabled: false in one update, then change the prefix",
        before: '_cnpg_',
        after: '_x_',
      },
    ]);
  });
  test('the stanzas removed while enabled (an absent stanza is enabled)', () => {
    const issues = check('validateReplicationSlotsChange', cluster({}), slots({}));
    expect(issues.map((i) => [i.path, i.message, i.fix])).toEqual([
      [
        'spec.replicationSlots',
        'is removed while replicationSlots.highAvailability.enabled is true; the Cluster webhook refuses it ("Cannot remove spec.replicationSlots section while highAvailability is enabled")',
        'keep spec.replicationSlots; set replicationSlots.highAvailability.enabled: false in one update, then remove it in the next',
      ],
      [
        'spec.replicationSlots',
        'is removed while replicationSlots.synchronizeReplicas.enabled is true; the Cluster webhook refuses it ("Cannot remove spec.replicationSlots section while synchronizeReplicas is enabled. Disable synchronizeReplicas first to allow cleanup of user-defined replication slots on replicas")',
        'keep spec.replicationSlots; set replicationSlots.synchronizeReplicas.enabled: false in one update, then remove it in the next',
      ],
    ]);
    expect(
      check('validateReplicationSlotsChange', slots({ highAvailability: { enabled: false } }), slots({ highAvailability: { enabled: false } }))[0].path,
    ).toBe('spec.replicationSlots.synchronizeReplicas');
  });
  test('passes: disabled HA slots change their prefix; no stored stanza; through admission, a removed stanza comes back', () => {
    expect(
      check(
        'validateReplicationSlotsChange',
        slots({ highAvailability: { enabled: false, slotPrefix: '_x_' }, synchronizeReplicas: { enabled: false } }),
        slots({ highAvailability: { enabled: false, slotPrefix: '_cnpg_' }, synchronizeReplicas: { enabled: false } }),
      ),
    ).toEqual([]);
    expect(check('validateReplicationSlotsChange', cluster({}), cluster({}))).toEqual([]);
    expect(admitChange('Cluster', cluster({}), slots({ highAvailability: { enabled: true } })).issues.size).toBe(0);
  });
});

describe('validateWALLevelChange', () => {
  const wal = (level: string) => cluster({ postgresql: { parameters: { wal_level: level } } });
  test('to minimal from another level', () => {
    expect(check('validateWALLevelChange', wal('minimal'), wal('replica'))).toEqual([
      {
        severity: 'error',
        path: 'spec.postgresql.parameters.wal_level',
        message:
          "changes from 'replica' to 'minimal'; the Cluster webhook refuses it on an existing Cluster (\"Change of `wal_level` to `minimal` not allowed on an existing cluster (from replica)\"): replicas and WAL archiving need more WAL than minimal writes",
        fix: 'keep wal_level: replica',
        before: 'replica',
        after: 'minimal',
      },
    ]);
  });
  test('passes: minimal kept, another level, or no stored level', () => {
    expect(check('validateWALLevelChange', wal('minimal'), wal('minimal'))).toEqual([]);
    expect(check('validateWALLevelChange', wal('logical'), wal('replica'))).toEqual([]);
    expect(check('validateWALLevelChange', wal('minimal'), cluster({}))).toEqual([]);
  });
});

describe('validateReplicaClusterChange', () => {
  const switching = { switchReplicaClusterStatus: { inProgress: true } };
  test('the role changed during a switch to a replica, at the field that changes it', () => {
    expect(
      check(
        'validateReplicaClusterChange',
        cluster({ replica: { enabled: false, source: 'a' } }, switching),
        cluster({ replica: { enabled: true, source: 'a' } }),
      ),
    ).toEqual([
      {
        severity: 'error',
        path: 'spec.replica.enabled',
        message:
          'makes the Cluster a primary cluster while the operator is still switching it to a replica (status.switchReplicaClusterStatus.inProgress); the Cluster webhook forbids it ("cannot modify the field while there is an ongoing operation to enable the replica cluster")',
        fix: 'wait until status.switchReplicaClusterStatus.inProgress is false, then change the replica role',
        before: true,
        after: false,
      },
    ]);
    expect(check('validateReplicaClusterChange', cluster({ replica: { primary: 'other', source: 'a' } }, switching), cluster({}))[0]).toMatchObject({
      path: 'spec.replica.primary',
      webhookPath: 'spec.replica.enabled',
      after: true,
    });
  });
  test('through admission, the status is the stored one (the API server keeps it on an update)', () => {
    const next = cluster({ replica: { enabled: false, source: 'a' } });
    const previous = cluster({ replica: { enabled: true, source: 'a' } }, switching);
    expect([...admitChange('Cluster', next, previous).issues.keys()]).toEqual(['validateReplicaClusterChange']);
    expect(
      admitChange('Cluster', cluster({ replica: { enabled: false, source: 'a' } }, switching), cluster({ replica: { enabled: true, source: 'a' } })).issues
        .size,
    ).toBe(0);
  });
  test('passes: no switch in progress, or the same role', () => {
    expect(
      check('validateReplicaClusterChange', cluster({ replica: { enabled: false, source: 'a' } }), cluster({ replica: { enabled: true, source: 'a' } })),
    ).toEqual([]);
    expect(
      check(
        'validateReplicaClusterChange',
        cluster({ replica: { enabled: true, source: 'b' } }, switching),
        cluster({ replica: { enabled: true, source: 'a' } }),
      ),
    ).toEqual([]);
  });
});

describe('admitChange', () => {
  test('defaults both objects and judges; the objects passed in are not changed', () => {
    const next = cluster({ storage: { size: '5Gi' } });
    const previous = cluster({});
    const copy = JSON.stringify([next, previous]);
    const admission = admitChange('Cluster', next, previous);
    expect(JSON.stringify([next, previous])).toBe(copy);
    expect([...admission.issues.keys()]).toEqual(['validateStorageChange']);
    expect(admission.validationDisabled).toBe(false);
    expect(admission.previous).toMatchObject({ spec: { postgresUID: 26, replicationSlots: { highAvailability: { enabled: true, slotPrefix: '_cnpg_' } } } });
  });
  test("the new object's cnpg.io/validation: disabled makes the webhook accept the update unjudged", () => {
    const admission = admitChange('Cluster', cluster({ storage: { size: '5Gi' } }, undefined, { 'cnpg.io/validation': 'disabled' }), cluster({}));
    expect(admission.validationDisabled).toBe(true);
    expect(admission.issues.size).toBe(0);
    expect(admitChange('Cluster', cluster({ storage: { size: '5Gi' } }), cluster({}, undefined, { 'cnpg.io/validation': 'disabled' })).issues.size).toBe(1);
  });
  test('a kind without update checks has no issues', () => {
    expect(admitChange('Pooler', { kind: 'Pooler', spec: {} }, { kind: 'Pooler', spec: {} }).issues.size).toBe(0);
  });
});
