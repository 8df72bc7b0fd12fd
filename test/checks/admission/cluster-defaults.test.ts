/*
 * The Cluster defaulter (cloudnative-pg v1.30.0 api/v1/cluster_defaults.go setDefaults) step by
 * step, then against the conformance table: every case that runs the upstream defaulter
 * (`defaulted`, `oldDefaulted`, with the values it asserts in `afterDefaulting`), and every case
 * where admission as a whole decides otherwise than the tested function because of the
 * defaulting (`admission`).
 */
import { AdmissionContext } from '../../../src/checks/admission/admission-check';
import { defaultCluster, goBool, livenessPingerConfig } from '../../../src/checks/admission/cluster-defaults';
import { defaultObject } from '../../../src/checks/admission/defaults';
import { admissionCheck, admit } from '../../../src/checks/admission/index';
import { OPERATOR_DEFAULT_PARAMETERS } from '../../../src/checks/admission/postgres-configuration';
import { Json, dig } from '../../../src/manifests/json';
import { AdmissionCase, DefaultedValue } from '../../conformance/case';
import { ADMISSION_CASES } from '../../conformance/table';
import { disagreement } from '../../conformance/verdict';

const DEFAULT_IMAGE = 'ghcr.io/cloudnative-pg/postgresql:18.4-system-trixie';
const copy = <T>(x: T): T => JSON.parse(JSON.stringify(x)) as T;
const cluster = (spec: object, metadata: object = {}): Json => ({
  apiVersion: 'postgresql.cnpg.io/v1',
  kind: 'Cluster',
  metadata: { name: 'pg', ...metadata },
  spec,
});
const defaulted = (spec: object, metadata: object = {}, context: AdmissionContext = {}) => defaultCluster(cluster(copy(spec), metadata), context).spec as any;

describe('defaultCluster, step by step', () => {
  test('the image: the operator default when neither imageName nor imageCatalogRef is set', () => {
    expect(defaulted({}).imageName).toBe(DEFAULT_IMAGE);
    expect(defaulted({ imageName: '' }).imageName).toBe(DEFAULT_IMAGE);
    expect(defaulted({}, {}, { defaultImageName: 'registry.example.com/pg:17.6' }).imageName).toBe('registry.example.com/pg:17.6');
    expect(defaulted({ imageName: 'postgres:16.4' }).imageName).toBe('postgres:16.4');
    expect(defaulted({ imageCatalogRef: { apiGroup: 'postgresql.cnpg.io', kind: 'ImageCatalog', name: 'pg', major: 16 } }).imageName).toBeUndefined();
  });

  test('initdb by default, with the application database app owned by app, UTF8 and the C locale', () => {
    expect(defaulted({}).bootstrap).toEqual({ initdb: { database: 'app', owner: 'app', encoding: 'UTF8', localeCollate: 'C', localeCType: 'C' } });
    expect(defaulted({ bootstrap: { initdb: { database: 'orders' } } }).bootstrap.initdb).toMatchObject({ database: 'orders', owner: 'orders' });
    expect(defaulted({ bootstrap: { initdb: { owner: 'alice' } } }).bootstrap.initdb).toMatchObject({ database: 'app', owner: 'alice' });
    expect(
      defaulted({ bootstrap: { initdb: { database: 'a', owner: 'b', encoding: 'LATIN1', localeCollate: 'en_US', localeCType: 'en_US' } } }).bootstrap.initdb,
    ).toEqual({
      database: 'a',
      owner: 'b',
      encoding: 'LATIN1',
      localeCollate: 'en_US',
      localeCType: 'en_US',
    });
  });

  test('a monolith import keeps an empty database (and so an empty owner); a microservice import gets app', () => {
    const monolith = defaulted({ bootstrap: { initdb: { import: { type: 'monolith', databases: ['*'] } } } }).bootstrap.initdb;
    expect(monolith.database).toBeUndefined();
    expect(monolith.owner).toBeUndefined();
    expect(defaulted({ bootstrap: { initdb: { owner: 'o', import: { type: 'monolith' } } } }).bootstrap.initdb).toMatchObject({ owner: 'o' });
    expect(defaulted({ bootstrap: { initdb: { owner: 'o', import: { type: 'monolith' } } } }).bootstrap.initdb.database).toBeUndefined();
    expect(defaulted({ bootstrap: { initdb: { import: { type: 'microservice' } } } }).bootstrap.initdb).toMatchObject({ database: 'app', owner: 'app' });
  });

  test('recovery and pg_basebackup get the database and owner, and no initdb', () => {
    expect(defaulted({ bootstrap: { recovery: { source: 'origin' } } }).bootstrap).toEqual({ recovery: { source: 'origin', database: 'app', owner: 'app' } });
    expect(defaulted({ bootstrap: { recovery: { owner: 'o' } } }).bootstrap.recovery).toEqual({ owner: 'o', database: 'app' });
    expect(defaulted({ bootstrap: { pg_basebackup: { database: 'd' } } }).bootstrap).toEqual({ pg_basebackup: { database: 'd', owner: 'd' } });
    // With two methods only the first of recovery, pg_basebackup and initdb is completed.
    expect(defaulted({ bootstrap: { recovery: {}, initdb: {} } }).bootstrap).toEqual({ recovery: { database: 'app', owner: 'app' }, initdb: {} });
  });

  test('pod anti-affinity: preferred unless switched off or set', () => {
    expect(defaulted({}).affinity).toEqual({ podAntiAffinityType: 'preferred' });
    expect(defaulted({ affinity: { enablePodAntiAffinity: true } }).affinity.podAntiAffinityType).toBe('preferred');
    expect(defaulted({ affinity: { enablePodAntiAffinity: false } }).affinity).toEqual({ enablePodAntiAffinity: false });
    expect(defaulted({ affinity: { podAntiAffinityType: 'required' } }).affinity.podAntiAffinityType).toBe('required');
  });

  test('the backup target, only with a backup stanza', () => {
    expect(defaulted({}).backup).toBeUndefined();
    expect(defaulted({ backup: {} }).backup).toEqual({ target: 'prefer-standby' });
    expect(defaulted({ backup: { target: 'primary' } }).backup).toEqual({ target: 'primary' });
  });

  test('the parameters become the operator configuration: its defaults, the user parameters, then archive_mode', () => {
    const parameters = defaulted({ postgresql: { parameters: { max_connections: '200', wal_level: 'replica', port: '5433' } } }).postgresql.parameters;
    expect(parameters).toEqual({ ...OPERATOR_DEFAULT_PARAMETERS, max_connections: '200', wal_level: 'replica', port: '5433', archive_mode: 'on' });
    expect(Object.keys(parameters)).toEqual(Object.keys(parameters).sort());
    expect(defaulted({}).postgresql.parameters).toEqual({ ...OPERATOR_DEFAULT_PARAMETERS, archive_mode: 'on' });
    // A user's archive_mode never survives: the operator sets it last.
    expect(defaulted({ postgresql: { parameters: { archive_mode: 'off' } } }).postgresql.parameters.archive_mode).toBe('on');
    expect(defaulted({ replica: { enabled: true, source: 'o' } }).postgresql.parameters.archive_mode).toBe('always');
    expect(defaulted({ replica: { source: 'o', primary: 'other' } }).postgresql.parameters.archive_mode).toBe('always');
    expect(defaulted({ replica: { source: 'o', primary: 'pg' } }).postgresql.parameters.archive_mode).toBe('on');
    expect(defaulted({ replica: { enabled: true } }, { annotations: { 'cnpg.io/skipWalArchiving': 'enabled' } }).postgresql.parameters.archive_mode).toBe(
      'off',
    );
  });

  test('the parameters are rewritten whenever the major version reads, from a catalog, the image tag or the default image', () => {
    const rewritten = (spec: object, context: AdmissionContext = {}) =>
      dig(defaulted(spec, {}, context), 'postgresql', 'parameters', 'wal_level') === 'logical';
    expect(rewritten({ imageCatalogRef: { name: 'pg', kind: 'ImageCatalog', major: 16 } })).toBe(true);
    expect(rewritten({ imageName: 'postgres:17rc1' })).toBe(true);
    expect(rewritten({ imageName: 'postgres:13.3.2.1-1' })).toBe(true);
    for (const image of ['postgres:latest', 'postgres', 'postgres@sha256:0123abcd', 'postgres:v17', 'postgres:17.-1', 'postgres:99999999999999999999']) {
      expect([image, rewritten({ imageName: image })]).toEqual([image, false]);
    }
    expect(rewritten({}, { defaultImageName: 'postgres:latest' })).toBe(false);
  });

  test('SetDefaults (the stored object of an update) drops the user fixed parameters', () => {
    const spec = { postgresql: { parameters: { port: '5433', max_connections: '200' } } };
    const stored = defaultCluster(cluster(copy(spec)), {}, { keepUserFixedParameters: false }).spec as any;
    expect(stored.postgresql.parameters.port).toBeUndefined();
    expect(stored.postgresql.parameters.max_connections).toBe('200');
  });

  test('the log level', () => {
    expect(defaulted({}).logLevel).toBe('info');
    expect(defaulted({ logLevel: 'debug' }).logLevel).toBe('debug');
  });

  test('the default monitoring queries come first, once, unless the Cluster disables them', () => {
    expect(defaulted({}).monitoring).toEqual({ customQueriesConfigMap: [{ name: 'cnpg-default-monitoring', key: 'queries' }] });
    const both = defaulted({}, {}, { monitoringQueriesSecret: 'anything' }).monitoring;
    expect(both.customQueriesSecret).toEqual([{ name: 'cnpg-default-monitoring', key: 'queries' }]);
    const mine = { name: 'mine', key: 'q' };
    expect(defaulted({ monitoring: { customQueriesConfigMap: [mine] } }).monitoring.customQueriesConfigMap).toEqual([
      { name: 'cnpg-default-monitoring', key: 'queries' },
      mine,
    ]);
    const already = [mine, { name: 'cnpg-default-monitoring', key: 'other' }];
    expect(defaulted({ monitoring: { customQueriesConfigMap: already } }).monitoring.customQueriesConfigMap).toEqual(already);
    expect(defaulted({ monitoring: { disableDefaultQueries: true } }).monitoring).toEqual({ disableDefaultQueries: true });
    expect(defaulted({}, {}, { monitoringQueriesConfigMap: '' }).monitoring).toEqual({});
  });

  test('replication slots: both stanzas when missing, the high availability one with the _cnpg_ prefix', () => {
    expect(defaulted({}).replicationSlots).toEqual({ highAvailability: { enabled: true, slotPrefix: '_cnpg_' }, synchronizeReplicas: { enabled: true } });
    // A present stanza is kept as written (the CRD's defaults, applied before, give it its prefix).
    expect(defaulted({ replicationSlots: { highAvailability: { enabled: false } } }).replicationSlots).toEqual({
      highAvailability: { enabled: false },
      synchronizeReplicas: { enabled: true },
    });
  });

  test('tablespace owners: the application owner, else postgres', () => {
    const owners = (spec: object) => defaulted(spec).tablespaces.map((t: any) => t.owner.name);
    expect(owners({ tablespaces: [{ name: 'a' }, { name: 'b', owner: { name: 'bob' } }] })).toEqual(['app', 'bob']);
    expect(owners({ bootstrap: { recovery: { owner: 'restorer' } }, tablespaces: [{ name: 'a' }] })).toEqual(['restorer']);
    expect(owners({ bootstrap: { initdb: { import: { type: 'monolith' } } }, tablespaces: [{ name: 'a' }] })).toEqual(['postgres']);
  });

  test('synchronous replication: required data durability unless set', () => {
    expect(defaulted({ postgresql: { synchronous: { method: 'any', number: 1 } } }).postgresql.synchronous.dataDurability).toBe('required');
    expect(defaulted({ postgresql: { synchronous: { method: 'any', number: 1, dataDurability: 'preferred' } } }).postgresql.synchronous.dataDurability).toBe(
      'preferred',
    );
    expect(defaulted({}).postgresql.synchronous).toBeUndefined();
  });

  test("the operator's INCLUDE_PLUGINS are appended, enabled, when not listed", () => {
    const context = { includePlugins: ['a.example.com', 'b.example.com'] };
    expect(defaulted({}, {}, context).plugins).toEqual([
      { name: 'a.example.com', enabled: true },
      { name: 'b.example.com', enabled: true },
    ]);
    expect(defaulted({ plugins: [{ name: 'b.example.com', enabled: false }] }, {}, context).plugins).toEqual([
      { name: 'b.example.com', enabled: false },
      { name: 'a.example.com', enabled: true },
    ]);
    expect(defaulted({}).plugins).toBeUndefined();
  });

  test('the isolation check of the liveness probe: kept, else from the livenessPinger annotation, else on with 1000 ms', () => {
    const check = (spec: object, annotations?: object) => defaulted(spec, annotations ? { annotations } : {}).probes.liveness.isolationCheck;
    expect(check({})).toEqual({ enabled: true, requestTimeout: 1000, connectionTimeout: 1000 });
    const set = { enabled: false, requestTimeout: 5, connectionTimeout: 6 };
    expect(check({ probes: { liveness: { isolationCheck: set } } }, { 'alpha.cnpg.io/livenessPinger': '{"enabled":true}' })).toEqual(set);
    expect(check({ probes: { liveness: {} } }, { 'alpha.cnpg.io/livenessPinger': '{"enabled":false,"requestTimeout":300}' })).toEqual({
      enabled: false,
      requestTimeout: 300,
      connectionTimeout: 1000,
    });
    expect(check({}, { 'alpha.cnpg.io/livenessPinger': '{"requestTimeout":300}' })).toEqual({ enabled: true, requestTimeout: 1000, connectionTimeout: 1000 });
    expect(check({}, { 'alpha.cnpg.io/livenessPinger': 'not json' })).toEqual({ enabled: true, requestTimeout: 1000, connectionTimeout: 1000 });
  });

  test('the livenessPinger annotation is read as Go reads it into the isolation check', () => {
    expect(livenessPingerConfig('{"enabled":true,"requestTimeout":0,"connectionTimeout":7}')).toEqual({
      enabled: true,
      requestTimeout: 1000,
      connectionTimeout: 7,
    });
    expect(livenessPingerConfig('{"Enabled":false,"REQUESTTIMEOUT":9,"unknown":1}')).toEqual({ enabled: false, requestTimeout: 9, connectionTimeout: 1000 });
    for (const bad of [
      '{"enabled":"yes"}',
      '{"enabled":true,"requestTimeout":"5"}',
      '{"enabled":true,"connectionTimeout":1.5}',
      '[]',
      '"x"',
      '{',
      'null',
      '{"enabled":null}',
    ]) {
      expect([bad, 'error' in livenessPingerConfig(bad)]).toEqual([bad, true]);
    }
  });

  test('the failoverQuorum annotation sets synchronous.failoverQuorum when it is a Go boolean and synchronous is set', () => {
    const quorum = (value: string, spec: object = { postgresql: { synchronous: { method: 'any', number: 1 } } }) =>
      dig(defaulted(spec, { annotations: { 'alpha.cnpg.io/failoverQuorum': value } }), 'postgresql', 'synchronous', 'failoverQuorum');
    expect(quorum('t')).toBe(true);
    expect(quorum('False')).toBe(false);
    expect(quorum('yes')).toBeUndefined();
    expect(quorum('true', {})).toBeUndefined();
    expect(goBool('TRUE')).toBe(true);
    expect(goBool('tRUE')).toBeUndefined();
  });

  test('odd input is left alone, never a TypeError', () => {
    for (const spec of [
      { bootstrap: 'initdb' },
      { bootstrap: { initdb: [] } },
      { affinity: 3 },
      { postgresql: { parameters: ['port'] } },
      { monitoring: { customQueriesConfigMap: 'x' } },
      { replicationSlots: true },
      { tablespaces: ['a', null] },
      { plugins: 'x' },
      { probes: { liveness: 'on' } },
      { imageCatalogRef: { major: 'sixteen' } },
    ]) {
      expect(() => defaulted(spec, {}, { includePlugins: ['p'] })).not.toThrow();
    }
    expect(defaulted({ bootstrap: 'initdb' }).bootstrap).toBe('initdb');
    expect(defaulted({ postgresql: { parameters: ['port'] } }).postgresql.parameters).toEqual(['port']);
    expect(defaultCluster({ spec: 'x' }, {})).toEqual({ spec: 'x' });
  });

  test('a parameter named __proto__ stays data', () => {
    const parameters = defaulted({ postgresql: { parameters: JSON.parse('{"__proto__":"x","max_connections":"1"}') } }).postgresql.parameters;
    expect(Object.getPrototypeOf(parameters)).toBe(Object.prototype);
    expect(Object.prototype.hasOwnProperty.call(parameters, '__proto__')).toBe(true);
  });
});

/** The value at a dotted path (`spec.replicationSlots.highAvailability.enabled`). */
const at = (o: Json, path: string): unknown => dig(o, ...path.split('.'));

function expectValues(o: Json, values: readonly DefaultedValue[]): void {
  for (const v of values) {
    if (v.equals === undefined) expect([v.path, at(o, v.path) !== undefined]).toEqual([v.path, true]);
    else expect([v.path, at(o, v.path)]).toEqual([v.path, v.equals]);
  }
}

/**
 * What the defaulting (CRD defaults, then the defaulter) writes that makes admission decide
 * otherwise than the tested function (the table's `admission`), read from the upstream code:
 * the value the whole chain must give, on the new object (or, for an update, on both).
 */
const ADMISSION_REWRITES: Readonly<Record<string, readonly DefaultedValue[]>> = {
  'cluster/validateInitDB/2': [{ path: 'spec.bootstrap.initdb.owner', equals: 'app' }],
  'cluster/validateInitDB/3': [{ path: 'spec.bootstrap.initdb.database', equals: 'app' }],
  'cluster/validatePgBaseBackupApplicationDatabase/1': [{ path: 'spec.bootstrap.pg_basebackup.owner', equals: 'app' }],
  'cluster/validatePgBaseBackupApplicationDatabase/2': [{ path: 'spec.bootstrap.pg_basebackup.database', equals: 'app' }],
  'cluster/validateRecoveryApplicationDatabase/1': [{ path: 'spec.bootstrap.recovery.owner', equals: 'app' }],
  'cluster/validateRecoveryApplicationDatabase/2': [{ path: 'spec.bootstrap.recovery.database', equals: 'app' }],
  // The stanza validatePgFailoverSlots wants is there (CRD default), enabled: only the
  // hot_standby_feedback error is left (/3), or none (/4).
  'cluster/validatePgFailoverSlots/3': [{ path: 'spec.replicationSlots.highAvailability.enabled', equals: true }],
  'cluster/validatePgFailoverSlots/4': [{ path: 'spec.replicationSlots.highAvailability.enabled', equals: true }],
  // The removed stanzas come back: the slot prefix changes to _cnpg_ (/3, /5), synchronizeReplicas
  // is enabled again (/4, /7).
  'cluster/validateReplicationSlotsChange/3': [
    { path: 'spec.replicationSlots.highAvailability.enabled', equals: true },
    { path: 'spec.replicationSlots.highAvailability.slotPrefix', equals: '_cnpg_' },
  ],
  'cluster/validateReplicationSlotsChange/4': [{ path: 'spec.replicationSlots.synchronizeReplicas.enabled', equals: true }],
  'cluster/validateReplicationSlotsChange/5': [
    { path: 'spec.replicationSlots.highAvailability.slotPrefix', equals: '_cnpg_' },
    { path: 'spec.replicationSlots.synchronizeReplicas.enabled', equals: true },
  ],
  'cluster/validateReplicationSlotsChange/7': [{ path: 'spec.replicationSlots.synchronizeReplicas.enabled', equals: true }],
};

const inputOf = (c: AdmissionCase): Json => copy(c.input) as unknown as Json;

describe('defaultCluster against the conformance table', () => {
  const defaultedCases = ADMISSION_CASES.filter((c) => c.defaulted);
  const oldDefaultedCases = ADMISSION_CASES.filter((c) => c.oldDefaulted);
  const admissionCases = ADMISSION_CASES.filter((c) => c.admission !== undefined);

  test('the table has cases of each sort', () => {
    expect([defaultedCases.length, oldDefaultedCases.length, admissionCases.length].every((n) => n > 0)).toBe(true);
  });

  test.each(defaultedCases.map((c) => [c.id, c] as const))('%s: the values the upstream test asserts after Default()', (_id, c) => {
    const object = defaultCluster(inputOf(c), {});
    expectValues(object, c.afterDefaulting ?? []);
    // Each such case names the default image or gets it.
    expect(at(object, 'spec.imageName')).toBe(c.input.spec.imageName ?? DEFAULT_IMAGE);
    const check = admissionCheck(c.kind, c.function);
    if (check) expect(disagreement(c.verdict, check.check(object, {}))).toBeUndefined();
  });

  test.each(oldDefaultedCases.map((c) => [c.id, c] as const))('%s: the stored object after SetDefaults()', (_id, c) => {
    const old = defaultCluster(copy(c.old!) as unknown as Json, {}, { keepUserFixedParameters: false });
    const given = (path: string) => at(copy(c.old!) as unknown as Json, path);
    // What the update checks compare: the slot stanzas (as written, else enabled) and wal_level
    // (as written, else the operator's logical).
    expect(at(old, 'spec.replicationSlots.highAvailability.enabled')).toBe(given('spec.replicationSlots.highAvailability.enabled') ?? true);
    expect(at(old, 'spec.replicationSlots.synchronizeReplicas.enabled')).toBe(given('spec.replicationSlots.synchronizeReplicas.enabled') ?? true);
    expect(at(old, 'spec.postgresql.parameters.wal_level')).toBe(given('spec.postgresql.parameters.wal_level') ?? 'logical');
  });

  test('every case with an admission difference has its rewrite listed here', () => {
    expect(admissionCases.map((c) => c.id).sort()).toEqual(Object.keys(ADMISSION_REWRITES).sort());
  });

  test.each(admissionCases.map((c) => [c.id, c] as const))('%s: the CRD defaults and the defaulter rewrite what the verdict depends on', (_id, c) => {
    expectValues(defaultObject('Cluster', inputOf(c), {}), ADMISSION_REWRITES[c.id]);
    if (c.old === undefined && admissionCheck(c.kind, c.function) !== undefined) {
      const issues = [...(admit(c.kind, inputOf(c)).issues.get(c.function) ?? [])];
      expect(disagreement({ errors: c.admission!.errors, paths: c.admission!.paths }, issues)).toBeUndefined();
    }
  });
});
