import { Chart, Size, Testing } from 'cdk8s';
import fc from 'fast-check';
import { Plugin, PostgresCluster } from '../../src';
import { pluginName } from './arbitraries';
import { check } from './fc-config';
import { JUNK_VALUES, expectOwnError } from './mutation';
import { expectGoodOutput, expectPluginNamesAgree } from './oracle';
import { propertyFile } from './property-file';
import * as S from './scenarios';

/*
 * Property-based tests of StandalonePlugin, PluginTls, IssuerRef and Plugin.fromPluginName: generated valid props synthesize to output that Kubernetes,
 * the upstream CRDs, the restricted Pod Security Standard and the doctor all accept, with the
 * plugin name the same in every place; one prop of valid props replaced with junk gives either
 * this library's own error (naming the construct path and the prop) or such an output.
 */

const { properties } = propertyFile('standalone-plugin-props');

properties('StandalonePlugin (PluginTls, IssuerRef; used by a Cluster, Backup, ScheduledBackup and external cluster)', S.standalonePluginScenario);

describe('Plugin.fromPluginName', () => {
  test('valid names are used as given in every place', () => {
    check(
      fc.property(pluginName, (name) => {
        const apps = new Chart(Testing.app(), 'apps', { namespace: 'databases' });
        const plugin = Plugin.fromPluginName(name);
        const pg = new PostgresCluster(apps, 'pg', { storage: { size: Size.gibibytes(1) } });
        pg.addPlugin(plugin);
        pg.addBackup('b', { plugin });
        const objects = Testing.synth(apps);
        expectGoodOutput(objects, { knownPlugins: [name] });
        expectPluginNamesAgree(objects, { known: [name] });
      }),
    );
  });

  test('junk names throw the library error naming pluginName, or are DNS subdomains of at most 63 characters', () => {
    check(
      fc.property(fc.oneof(fc.constantFrom(...JUNK_VALUES), fc.string(), fc.stringMatching(/^[a-z0-9.-]{0,70}$/)), (value) => {
        let name: string;
        try {
          name = Plugin.fromPluginName(value as string).pluginName;
        } catch (e) {
          expect(expectOwnError(e, ['pluginName'], [])).toBe('pluginName');
          return;
        }
        expect(name).toMatch(/^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/);
        expect(name.length).toBeLessThanOrEqual(63);
      }),
    );
  });
});
