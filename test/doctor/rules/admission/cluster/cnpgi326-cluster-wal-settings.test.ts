import { clusterDoc, findingsOf } from './webhook-findings';

const SKIP = { annotations: { 'cnpg.io/skipWalArchiving': 'enabled' } };
const of = (parameters: object, spec: object = {}, metadata: object = {}) =>
  findingsOf('CNPGI326', clusterDoc({ postgresql: { parameters }, ...spec }, metadata));
const MINIMAL_TEXT =
  '"`wal_level` should be set at `logical` or `replica` when `archive_mode` is `on`, \'.instances\' field is greater than 1, or this is a replica cluster"';
const MINIMAL_FIX = "use wal_level 'replica' or 'logical' (or leave it out for 'logical')";

describe('CNPGI326 cluster-wal-settings', () => {
  test("wal_level minimal with 3 instances and archiving on (the issue's example), and without max_wal_senders 0", () => {
    expect(of({ wal_level: 'minimal' })).toEqual([
      {
        path: 'spec.postgresql.parameters.wal_level',
        message: `the Cluster webhook refuses wal_level 'minimal' because it has 3 instances, whose replicas stream the WAL, and WAL archiving is on (archive_mode on; only the annotation cnpg.io/skipWalArchiving: enabled turns it off) (${MINIMAL_TEXT})`,
        fix: MINIMAL_FIX,
      },
      {
        path: 'spec.postgresql.parameters.max_wal_senders',
        message:
          'the Cluster webhook refuses wal_level \'minimal\' with max_wal_senders left out ("`max_wal_senders` should be set at `0` when `wal_level` is `minimal`"): PostgreSQL does not start with WAL senders and minimal WAL',
        fix: "set max_wal_senders: '0' with wal_level 'minimal'",
      },
    ]);
  });

  test('wal_level minimal on a single-instance replica cluster without archiving', () => {
    expect(of({ wal_level: 'minimal', max_wal_senders: '0' }, { instances: 1, replica: { enabled: true, source: 'origin' } }, SKIP)).toEqual([
      {
        path: 'spec.postgresql.parameters.wal_level',
        message: `the Cluster webhook refuses wal_level 'minimal' because it is a replica cluster (${MINIMAL_TEXT})`,
        fix: MINIMAL_FIX,
      },
    ]);
  });

  test('an unknown wal_level', () => {
    expect(of({ wal_level: 'archive' })).toEqual([
      {
        path: 'spec.postgresql.parameters.wal_level',
        message: 'the Cluster webhook refuses wal_level \'archive\' ("unrecognized `wal_level` value - allowed values: `logical`, `replica`, `minimal`")',
        fix: "use 'logical' (the operator's default), 'replica' or 'minimal'",
      },
    ]);
  });

  test('wal_log_hints off with 3 instances, or no boolean', () => {
    expect(of({ wal_log_hints: 'false' })).toEqual([
      {
        path: 'spec.postgresql.parameters.wal_log_hints',
        message:
          'the Cluster webhook refuses wal_log_hints \'false\' with 3 instances ("`wal_log_hints` must be set to `on` when `instances` > 1"): pg_rewind needs it to bring a former primary back as a replica',
        fix: "set wal_log_hints: 'on', or leave it out (the operator's default is on)",
      },
    ]);
    expect(of({ wal_log_hints: 'nope' })).toEqual([
      {
        path: 'spec.postgresql.parameters.wal_log_hints',
        message: 'the Cluster webhook refuses wal_log_hints \'nope\' ("invalid `wal_log_hints` value. Must be a postgres boolean")',
        fix: "write 'on' or 'off' (PostgreSQL also reads true, false, yes, no, 1 and 0)",
      },
    ]);
  });

  test('min_wal_size not below max_wal_size, set or default', () => {
    const text = '"Invalid vale. Parameter min_wal_size (default 80MB) should be smaller than parameter max_wal_size (default 1GB)"';
    expect(of({ min_wal_size: '2GB', max_wal_size: '1GB' })).toEqual([
      {
        path: 'spec.postgresql.parameters.min_wal_size',
        message: `the Cluster webhook refuses min_wal_size '2GB', not below max_wal_size '1GB' (${text})`,
        fix: 'make min_wal_size smaller than max_wal_size',
      },
    ]);
    expect(of({ min_wal_size: '3GB' }).map((f) => f.message)).toEqual([
      `the Cluster webhook refuses min_wal_size '3GB', not below max_wal_size '1GB' (the default) (${text})`,
    ]);
  });

  test('sizes that are no PostgreSQL sizes are not compared', () => {
    expect(of({ min_wal_size: '1G', max_wal_size: '1Gb' })).toEqual([
      {
        path: 'spec.postgresql.parameters.min_wal_size',
        message:
          'the Cluster webhook refuses min_wal_size \'1G\' ("Invalid value for configuration parameter min_wal_size"): it reads a size as megabytes or a number with kB, MB, GB or TB',
        fix: "write a PostgreSQL size such as '80MB' (the unit ends in B)",
      },
      {
        path: 'spec.postgresql.parameters.max_wal_size',
        message:
          'the Cluster webhook refuses max_wal_size \'1Gb\' ("Invalid value for configuration parameter max_wal_size"): it reads a size as megabytes or a number with kB, MB, GB or TB',
        fix: "write a PostgreSQL size such as '1GB' (the unit ends in B)",
      },
    ]);
  });

  test('sizes set that are not below the WAL volume', () => {
    expect(of({ min_wal_size: '1GB', max_wal_size: '4GB' }, { walStorage: { size: '1Gi' } })).toEqual([
      {
        path: 'spec.postgresql.parameters.min_wal_size',
        message:
          'the Cluster webhook refuses min_wal_size \'1GB\' (1Gi), not below the WAL volume (spec.walStorage) ("Invalid value. Parameter min_wal_size (default 80MB) should be smaller than WAL volume size"): PostgreSQL would fill the volume before recycling WAL',
        fix: "make min_wal_size smaller than spec.walStorage's size, or the WAL volume larger",
      },
      {
        path: 'spec.postgresql.parameters.max_wal_size',
        message:
          'the Cluster webhook refuses max_wal_size \'4GB\' (4Gi), not below the WAL volume (spec.walStorage) ("Invalid value. Parameter max_wal_size (default 1GB) should be smaller than WAL volume size"): PostgreSQL would fill the volume before recycling WAL',
        fix: "make max_wal_size smaller than spec.walStorage's size, or the WAL volume larger",
      },
    ]);
  });

  test.each([
    ['minimal with one instance, no archiving and max_wal_senders 0', { wal_level: 'minimal', max_wal_senders: '0' }, { instances: 1 }, SKIP],
    ['replica with 3 instances', { wal_level: 'replica' }, {}, {}],
    ['wal_log_hints off with one instance', { wal_log_hints: 'off' }, { instances: 1 }, {}],
    ['wal_log_hints true with 3 instances (the upstream test)', { wal_log_hints: 'true' }, {}, SKIP],
    ['sizes in order, below the WAL volume (the upstream test)', { min_wal_size: '1500', max_wal_size: '2 GB' }, { walStorage: { size: '3Gi' } }, {}],
    ['default sizes are not compared with a small WAL volume (the upstream test)', {}, { walStorage: { size: '100Mi' } }, {}],
  ])('accepted: %s', (_what, parameters, spec, metadata) => {
    expect(of(parameters, spec, metadata)).toEqual([]);
  });
});
