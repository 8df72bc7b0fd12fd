import { parsePostgresQuantityValue } from '../../../../../src/checks/admission/postgres-size';
import { compareQuantities, parseQuantity } from '../../../../../src/manifests/quantity';
import { CLUSTER_POSTGRES_HELPER_CASES } from '../../../../conformance/cases/cluster-postgres';
import { clusterFindings } from '../cluster-findings';

const run = (requests: object, limits: object = {}, parameters: object = {}) =>
  clusterFindings('CNPGI339', (c) => {
    c.spec.resources = { requests, limits };
    c.spec.postgresql = { parameters };
  });

describe('CNPGI339 cluster-resources', () => {
  test('a memory request above its limit', () => {
    expect(run({ memory: '2Gi' }, { memory: '1Gi' })).toEqual([
      {
        severity: 'error',
        message: "the Cluster webhook refuses the memory request '2Gi' above the limit '1Gi' (\"Memory request is greater than the limit\")",
        fix: "lower the memory request to at most '1Gi', or raise the limit",
        path: 'spec.resources.requests.memory',
      },
    ]);
  });

  test('shared_buffers above the memory request', () => {
    expect(run({ memory: '1Gi' }, {}, { shared_buffers: '2GB' })).toEqual([
      {
        severity: 'error',
        message:
          "the Cluster webhook refuses the memory request '1Gi' below shared_buffers '2GB' (\"Memory request is lower than PostgreSQL `shared_buffers` value\"): PostgreSQL allocates shared_buffers at start",
        fix: "request more memory than shared_buffers ('2GB'), or lower shared_buffers (a quarter of the memory is usual)",
        path: 'spec.resources.requests.memory',
      },
    ]);
    // A bare number is megabytes, kB is KiB.
    expect(run({ memory: '1000Mi' }, {}, { shared_buffers: '1001' })).toHaveLength(1);
    expect(run({ memory: '1Gi' }, {}, { shared_buffers: '2000000kB' })).toHaveLength(1);
  });

  test('cpu, huge pages and ephemeral storage', () => {
    expect(run({ cpu: '2', 'ephemeral-storage': '2Gi', 'hugepages-2Mi': '1Gi' }, { cpu: '1500m', 'ephemeral-storage': '1Gi', 'hugepages-2Mi': '2Gi' })).toEqual(
      [
        {
          severity: 'error',
          message: "the Cluster webhook refuses the cpu request '2' above the limit '1500m' (\"CPU request is greater than the limit\")",
          fix: "lower the cpu request to at most '1500m', or raise the limit",
          path: 'spec.resources.requests.cpu',
        },
        {
          severity: 'error',
          message:
            "the Cluster webhook refuses the hugepages-2Mi request '1Gi' that differs from its limit '2Gi' (\"HugePages requests must equal the limits\")",
          fix: 'make the hugepages-2Mi request and limit equal',
          path: 'spec.resources.requests.hugepages-2Mi',
        },
        {
          severity: 'error',
          message:
            "the Cluster webhook refuses the ephemeral-storage request '2Gi' above the limit '1Gi' (\"Ephemeral storage request is greater than the limit\")",
          fix: "lower the ephemeral-storage request to at most '1Gi', or raise the limit",
          path: 'spec.resources.requests.ephemeral-storage',
        },
      ],
    );
    expect(run({ 'hugepages-1Gi': '1Gi' })).toEqual([
      {
        severity: 'error',
        message: 'the Cluster webhook refuses huge pages (hugepages-1Gi) without a cpu or memory request or limit ("HugePages require cpu or memory")',
        fix: 'request memory (and cpu) for the instances beside the huge pages',
        path: 'spec.resources',
      },
    ]);
  });

  test('near misses the webhook accepts', () => {
    expect(run({ memory: '1Gi', cpu: '1' }, { memory: '1024Mi', cpu: '1000m' })).toEqual([]);
    // A zero or missing side is no bound.
    expect(run({ memory: '2Gi', cpu: '2' }, { memory: '0', cpu: '0' })).toEqual([]);
    expect(run({ memory: '2Gi' })).toEqual([]);
    expect(run({}, { memory: '1Gi' }, { shared_buffers: '2GB' })).toEqual([]);
    // shared_buffers within the request, not a PostgreSQL size, or held by huge pages.
    expect(run({ memory: '2Gi' }, {}, { shared_buffers: '2GB' })).toEqual([]);
    expect(run({ memory: '1Gi' }, {}, { shared_buffers: '2G' })).toEqual([]);
    expect(run({ memory: '1Gi' }, {}, { shared_buffers: '2gb' })).toEqual([]);
    expect(run({ memory: '256Mi', 'hugepages-1Gi': '1Gi' }, {}, { shared_buffers: '1GB' })).toEqual([]);
    expect(run({ memory: '256Mi' }, { 'hugepages-2Mi': '1Gi' }, { shared_buffers: '1GB' })).toEqual([]);
    expect(run({ memory: '2Gi', 'hugepages-2Mi': '1Gi' }, { 'hugepages-2Mi': '1024Mi' })).toEqual([]);
    expect(run({ 'ephemeral-storage': '1Gi' }, { 'ephemeral-storage': '1Gi' })).toEqual([]);
  });

  test('PostgreSQL sizes as the webhook reads them (its own tests)', () => {
    for (const h of CLUSTER_POSTGRES_HELPER_CASES.filter((c) => c.function === 'parsePostgresQuantityValue')) {
      const parsed = parsePostgresQuantityValue(h.args.value as string);
      if (h.expected.fails) expect([h.id, parsed]).toEqual([h.id, undefined]);
      else expect([h.id, compareQuantities(parsed!.value, parseQuantity(h.expected.returns)!)]).toEqual([h.id, 0]);
    }
    expect(parsePostgresQuantityValue('2 GB')).toEqual({ quantity: '2Gi', value: parseQuantity('2Gi') });
    expect(parsePostgresQuantityValue('1KB')).toEqual({ quantity: '1Ki', value: parseQuantity('1Ki') });
    expect(parsePostgresQuantityValue('70M')).toBeUndefined();
    expect(parsePostgresQuantityValue('')).toBeUndefined();
  });
});
