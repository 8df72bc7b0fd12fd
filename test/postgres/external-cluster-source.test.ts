import { Size, Testing } from 'cdk8s';
import { Plugin } from '../../src/plugins/plugin';
import { ExternalClusterSource, PostgresCluster } from '../../src/postgres';
import { expectValidationError, only, synth } from '../util';
import { synthErrors } from './synth-errors';

const BARMAN = Plugin.fromPluginName('barman-cloud.cloudnative-pg.io');
const js = (v: unknown): any => v;

function externalsOf(source: ExternalClusterSource): unknown {
  const chart = Testing.chart();
  new PostgresCluster(chart, 'pg', { storage: { size: Size.gibibytes(1) } }).addExternalCluster('origin', source);
  return only(synth(chart), 'Cluster').spec.externalClusters;
}

describe('ExternalClusterSource', () => {
  test('fromPlugin writes name and parameters only', () => {
    expect(externalsOf(ExternalClusterSource.fromPlugin(BARMAN, { parameters: { serverName: 'pg' } }))).toEqual([
      { name: 'origin', plugin: { name: BARMAN.pluginName, parameters: { serverName: 'pg' } } },
    ]);
  });

  test('fromConnection writes the libpq parameters and the Secret references', () => {
    expect(
      externalsOf(
        ExternalClusterSource.fromConnection({
          connectionParameters: { host: 'h', user: 'streaming_replica' },
          password: { name: 'creds', key: 'password' },
          sslRootCert: { name: 'ca', key: 'ca.crt' },
        }),
      ),
    ).toEqual([
      {
        name: 'origin',
        connectionParameters: { host: 'h', user: 'streaming_replica' },
        password: { name: 'creds', key: 'password' },
        sslRootCert: { name: 'ca', key: 'ca.crt' },
      },
    ]);
  });

  test('fromBarmanObjectStore with a connection too', () => {
    expect(externalsOf(ExternalClusterSource.fromBarmanObjectStore({ destinationPath: 's3://old/' }, { connectionParameters: { host: 'h' } }))).toEqual([
      { name: 'origin', barmanObjectStore: { destinationPath: 's3://old/' }, connectionParameters: { host: 'h' } },
    ]);
  });

  test('a password in connectionParameters is refused without echoing it', () => {
    expectValidationError(
      () => ExternalClusterSource.fromConnection({ connectionParameters: { host: 'h', Password: 'hunter2' } }),
      "ExternalClusterSource.fromConnection: connection.connectionParameters.Password '<redacted>' would put a secret in the manifest; " +
        'store it in a Secret and reference it with password: { name, key }',
    );
  });

  test('Secret references are complete and name a Secret that can exist', () => {
    expectValidationError(
      () => ExternalClusterSource.fromConnection({ connectionParameters: { host: 'h' }, password: js({ name: 's' }) }),
      "ExternalClusterSource.fromConnection: connection.password.key is not a Secret data key (letters, digits, -, _ and ., not '.' nor starting with '..'); pass { name: 'backup-credentials', key: 'ACCESS_KEY_ID' }",
    );
    expectValidationError(
      () => ExternalClusterSource.fromConnection({ connectionParameters: { host: 'h' }, sslKey: { name: 'Bad_Name', key: 'k' } }),
      "ExternalClusterSource.fromConnection: connection.sslKey.name 'Bad_Name' is not a Secret name (an RFC 1123 subdomain); pass { name: 'backup-credentials', key: 'ACCESS_KEY_ID' }",
    );
  });

  test('unknown keys and wrong shapes are refused', () => {
    expectValidationError(
      () => ExternalClusterSource.fromConnection(js({ connectionParameter: { host: 'h' } })),
      'ExternalClusterSource.fromConnection: connection.connectionParameter {"host":"h"} is not a declared key of connection; did you mean \'connectionParameters\'?',
    );
    expectValidationError(
      () => ExternalClusterSource.fromConnection(js({})),
      "ExternalClusterSource.fromConnection: connection.connectionParameters null must be an object of strings, not null; pass { key: 'value' }",
    );
    expectValidationError(
      () => ExternalClusterSource.fromPlugin(BARMAN, js({ parameter: {} })),
      "ExternalClusterSource.fromPlugin: options.parameter {} is not a declared key of options; did you mean 'parameters'?",
    );
    // The in-tree section is written as given: the Cluster refuses at synth what would not be written.
    const chart = Testing.chart();
    new PostgresCluster(chart, 'pg', { storage: { size: Size.gibibytes(1) } }).addExternalCluster(
      'old',
      ExternalClusterSource.fromBarmanObjectStore(js('s3://old/')),
    );
    expect(synthErrors(chart)).toEqual([
      "[test/pg] externalClusters[0].barmanObjectStore 's3://old/' would be written as {}; write plain JSON values (strings, numbers, booleans, arrays, objects), as the CRD takes them",
    ]);
  });
});

describe('Secret data keys as the API server takes them', () => {
  test.each(['.', '..', '..data', 'a b', 'a/b', 'k'.repeat(254)])('%p is refused', (key) => {
    expect(() => ExternalClusterSource.fromConnection({ connectionParameters: { host: 'h' }, password: { name: 's', key } })).toThrow(
      'is not a Secret data key',
    );
  });
  test.each(['password', 'tls.crt', '.dockerconfigjson', 'a..b', 'K_1-x'])('%p is accepted', (key) => {
    expect(() => ExternalClusterSource.fromConnection({ connectionParameters: { host: 'h' }, password: { name: 's', key } })).not.toThrow();
  });
});
