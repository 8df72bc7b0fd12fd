import { Size, Testing } from 'cdk8s';
import { validateMetadata } from '../../src/common/metadata';
import { Plugin } from '../../src/plugins/plugin';
import { PostgresCluster } from '../../src/postgres';
import { ObjectStore, ObjectStoreCredentials } from '../../src/presets';
import { synthErrors } from '../postgres/synth-errors';
import { expectValidationError } from '../util';

const js = (v: unknown): any => v;
const BARMAN = Plugin.fromPluginName('barman-cloud.cloudnative-pg.io');

describe('validateMetadata keeps only what cdk8s needs to render', () => {
  test.each([
    [
      'name',
      42,
      "p: metadata.name 42 must be an object name (a lower-case DNS subdomain), not a number; use lower-case letters, digits, '-' and '.', e.g. 'orders', or leave it out",
    ],
    [
      'name',
      'Bad_Name',
      "p: metadata.name 'Bad_Name' is not an object name (a lower-case DNS subdomain); use lower-case letters, digits, '-' and '.', e.g. 'orders', or leave it out",
    ],
    [
      'namespace',
      ['ns'],
      "p: metadata.namespace [\"ns\"] must be a namespace name (a lower-case DNS label), not an array; use lower-case letters, digits and '-', e.g. 'databases', or leave it out",
    ],
    [
      'namespace',
      'a.b',
      "p: metadata.namespace 'a.b' is not a namespace name (a lower-case DNS label); use lower-case letters, digits and '-', e.g. 'databases', or leave it out",
    ],
    ['labels', 'team', "p: metadata.labels 'team' must be an object of strings, not a string; pass e.g. { team: 'db' }"],
    ['annotations', ['a'], "p: metadata.annotations [\"a\"] must be an object of strings, not an array; pass e.g. { 'example.com/owner': 'db' }"],
    ['finalizers', 'example.com/x', "p: metadata.finalizers 'example.com/x' must be a list of strings, not a string; pass e.g. ['example.com/cleanup']"],
    ['ownerReferences', {}, 'p: metadata.ownerReferences {} must be a list of owner references, not an object; pass [{ apiVersion, kind, name, uid }]'],
  ])('a %s of the wrong type', (field, value, message) => {
    expectValidationError(() => validateMetadata('p', 'metadata', { [field]: value }), message);
  });

  test('values cdk8s cannot render are refused; undefined fields are dropped', () => {
    expectValidationError(
      () => validateMetadata('p', 'metadata', { labels: { at: new Date(0) } }),
      'p: metadata.labels.at "1970-01-01T00:00:00.000Z" is not plain JSON (Date); write strings, numbers, booleans, arrays and plain objects, as the CRD takes them',
    );
    expect(validateMetadata('p', 'metadata', { name: undefined, labels: { a: 'b' } })).toEqual({ labels: { a: 'b' } });
  });
});

/**
 * The metadata checks that restated the API server's rules are gone from the constructs: the
 * schema guard refuses the same junk at synth, each as one line naming the JSON path.
 */
describe('the schema guard refuses the metadata the constructs no longer check', () => {
  const cases: Array<[string, Record<string, unknown>, string]> = [
    ['a label key with two slashes', { labels: { 'a/b/c': 'x' } }, 'metadata.labels'],
    ['a label value with a space', { labels: { team: 'a b' } }, 'metadata.labels.team'],
    ['a label value that is a number', { labels: { team: 1 } }, 'metadata.labels.team'],
    ['an annotation key with a leading dash', { annotations: { '-x': 'me' } }, 'metadata.annotations'],
    ['a duplicate finalizer', { finalizers: ['example.com/a', 'example.com/a'] }, 'metadata.finalizers[1]'],
    ['a finalizer that is a number', { finalizers: [1] }, 'metadata.finalizers[0]'],
    ['an owner reference without uid', { ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'x' }] }, 'metadata.ownerReferences[0]'],
  ];

  test.each(cases)('PostgresCluster: %s', (_, metadata, path) => {
    const chart = Testing.chart();
    new PostgresCluster(chart, 'pg', { storage: { size: Size.gibibytes(1) }, metadata: js({ name: 'pg', ...metadata }) });
    expect(synthErrors(chart).join('\n')).toContain(path);
  });

  test.each(cases)('ObjectStore: %s', (_, metadata, path) => {
    const chart = Testing.chart();
    new ObjectStore(chart, 'store', { destinationPath: 's3://bucket/pg', credentials: ObjectStoreCredentials.s3IamRole(), metadata: js(metadata) });
    expect(synthErrors(chart).join('\n')).toContain(path);
  });

  test.each(cases)('PluginBackup: %s', (_, metadata, path) => {
    const chart = Testing.chart();
    const pg = new PostgresCluster(chart, 'pg', { storage: { size: Size.gibibytes(1) } });
    pg.addPlugin(BARMAN, { isWalArchiver: true, parameters: { barmanObjectName: 'store' } });
    pg.addBackup('b', { plugin: BARMAN, metadata: js(metadata) });
    expect(synthErrors(chart).join('\n')).toContain(path);
  });

  test('a Cluster name that is a subdomain but not a DNS-1035 label', () => {
    const chart = Testing.chart();
    new PostgresCluster(chart, 'pg', { storage: { size: Size.gibibytes(1) }, metadata: { name: 'a.b' } });
    expect(synthErrors(chart).join('\n')).toContain(
      "[test/pg] metadata.name 'a.b' the Cluster webhook refuses the Cluster name 'a.b' (\"cluster name must be a valid DNS label\")",
    );
  });

  test('valid metadata passes', () => {
    const chart = Testing.chart();
    new PostgresCluster(chart, 'pg', {
      storage: { size: Size.gibibytes(1) },
      metadata: { name: 'pg', labels: { team: 'db' }, annotations: { 'Example.com/Owner': 'me' }, finalizers: ['example.com/a'] },
    });
    expect(synthErrors(chart)).toEqual([]);
  });
});
