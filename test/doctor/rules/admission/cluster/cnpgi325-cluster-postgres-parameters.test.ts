import { admissionCheck } from '../../../../../src/checks/admission/index';
import { clusterDoc, findingsOf } from './webhook-findings';

const of = (parameters: object, spec: object = {}, metadata: object = {}) =>
  findingsOf('CNPGI325', clusterDoc({ postgresql: { parameters }, ...spec }, metadata));
const FIXED = '"Can\'t set fixed configuration parameter"';
const NAME_FIX = "use a PostgreSQL setting name, such as 'work_mem' or 'auto_explain.log_min_duration' (letters, digits, '_' and '$', at most one dot)";

describe('CNPGI325 cluster-postgres-parameters', () => {
  test("a fixed parameter: port (the issue's example)", () => {
    expect(of({ port: '5433' })).toEqual([
      {
        path: 'spec.postgresql.parameters.port',
        message: `the Cluster webhook refuses port: '5433' (${FIXED}): the operator manages port`,
        fix: "remove port from spec.postgresql.parameters; PostgreSQL always listens on 5432; clients reach it through the Cluster's -rw, -ro and -r Services",
      },
    ]);
  });

  test('a fixed parameter the operator writes itself passes only with its value', () => {
    // archive_mode is rewritten by the defaulter before the webhook judges it (cloudnative-pg v1.30.0
    // pkg/postgres/configuration.go CreatePostgresqlConfiguration overwrites it: 'on' on a primary),
    // so admission never refuses it; the check alone, on the object as written, does
    expect(of({ archive_mode: 'always' })).toEqual([]);
    expect(
      admissionCheck('Cluster', 'validateConfiguration')!
        .check(
          {
            apiVersion: 'postgresql.cnpg.io/v1',
            kind: 'Cluster',
            metadata: { name: 'pg' },
            spec: { instances: 1, imageName: 'ghcr.io/cloudnative-pg/postgresql:17.5', postgresql: { parameters: { archive_mode: 'always' } } },
          },
          {},
        )
        .map((i) => [i.path, i.message, i.fix]),
    ).toEqual([
      [
        'spec.postgresql.parameters.archive_mode',
        `the Cluster webhook refuses archive_mode: 'always' (${FIXED}): the operator manages archive_mode (the one value that passes is 'on', which the operator writes itself)`,
        'remove archive_mode from spec.postgresql.parameters; archiving follows the backup configuration (a WAL archiver plugin or spec.backup)',
      ],
    ]);
    expect(of({ cluster_name: 'x', shared_preload_libraries: 'pg_stat_statements' })).toEqual([
      {
        path: 'spec.postgresql.parameters.cluster_name',
        message: `the Cluster webhook refuses cluster_name: 'x' (${FIXED}): the operator manages cluster_name`,
        fix: 'remove cluster_name from spec.postgresql.parameters',
      },
      {
        path: 'spec.postgresql.parameters.shared_preload_libraries',
        message: `the Cluster webhook refuses shared_preload_libraries: 'pg_stat_statements' (${FIXED}): the operator manages shared_preload_libraries (the one value that passes is '', which the operator writes itself)`,
        fix: 'remove shared_preload_libraries from spec.postgresql.parameters; list the libraries in spec.postgresql.shared_preload_libraries',
      },
    ]);
  });

  test('a name that is no setting name; one that would inject a line into postgresql.conf', () => {
    // (in sorted order: the webhook ranges over a Go map)
    expect(of({ 'work mem': '4MB', 'a.b.c': 'x' })).toEqual([
      {
        path: 'spec.postgresql.parameters["a.b.c"]',
        message:
          'the Cluster webhook refuses the parameter name \'a.b.c\' ("must be a valid PostgreSQL configuration parameter name (a GUC name, optionally namespaced with a single dot)"): the operator writes each name into postgresql.conf as it is',
        fix: NAME_FIX,
      },
      {
        path: 'spec.postgresql.parameters["work mem"]',
        message:
          'the Cluster webhook refuses the parameter name \'work mem\' ("must be a valid PostgreSQL configuration parameter name (a GUC name, optionally namespaced with a single dot)"): the operator writes each name into postgresql.conf as it is',
        fix: NAME_FIX,
      },
    ]);
    // a refused name is not judged as a fixed parameter too
    expect(of({ 'archive_command\nrestart_after_crash': 'on' }).map((f) => f.path)).toEqual([
      'spec.postgresql.parameters["archive_command\\nrestart_after_crash"]',
    ]);
  });

  test('shared_buffers that is no PostgreSQL size; a boolean setting that is no boolean', () => {
    expect(of({ shared_buffers: '1G', sync_replication_slots: 'o' })).toEqual([
      {
        path: 'spec.postgresql.parameters.shared_buffers',
        message:
          'the Cluster webhook refuses shared_buffers \'1G\' ("Invalid value for configuration parameter shared_buffers. More info on accepted values format: https://www.postgresql.org/docs/current/config-setting.html#CONFIG-SETTING-NAMES-VALUES"): it reads a size as megabytes or a number with kB, MB, GB or TB',
        fix: "write a PostgreSQL size such as '512MB' or '2GB' (the unit ends in B)",
      },
      {
        path: 'spec.postgresql.parameters.sync_replication_slots',
        message: 'the Cluster webhook refuses sync_replication_slots \'o\' ("invalid `sync_replication_slots` value. Must be a postgres boolean")',
        fix: "write 'on' or 'off' (PostgreSQL also reads true, false, yes, no, 1 and 0)",
      },
    ]);
  });

  test.each([
    ["the operator's archive_mode on a primary Cluster", { archive_mode: 'on' }],
    ["the operator's fixed defaults", { logging_collector: 'on', log_destination: 'csvlog', log_rotation_age: '0', shared_preload_libraries: '' }],
    ['namespaced and $ names (the upstream test)', { work_mem: '16MB', 'auto_explain.log_min_duration': '100ms', 'some$ext.param$1': 'value' }],
    ['shared_buffers in megabytes, bare or with a space', { shared_buffers: '128' }],
    ['shared_buffers with a space before the unit', { shared_buffers: '2 GB' }],
    ['booleans as PostgreSQL reads them', { hot_standby_feedback: 'ON', sync_replication_slots: 'ye' }],
  ])('accepted: %s', (_what, parameters) => {
    expect(of(parameters)).toEqual([]);
  });

  test('accepted: archive_mode off with WAL archiving skipped, always on a replica cluster', () => {
    expect(of({ archive_mode: 'off' }, {}, { annotations: { 'cnpg.io/skipWalArchiving': 'enabled' } })).toEqual([]);
    expect(of({ archive_mode: 'always' }, { replica: { enabled: true, source: 'origin' } })).toEqual([]);
  });
});
