import * as path from 'path';
import { Chart, Testing } from 'cdk8s';
import { Construct } from 'constructs';
import { recordSidecarPlugin, sidecarPluginOf } from '../../src/manifests/sidecar-plugins';
import { CnpgOperator } from '../../src/plugins';

const OPERATOR = path.join(__dirname, '..', 'fixtures', 'operator', 'operator.yaml');

describe('the sidecar plugins recorded in the construct tree', () => {
  test('a construct that recorded a sidecar gives its container and plugin name; any other gives none', () => {
    const chart = Testing.chart();
    const sidecar = new Construct(chart, 'sidecar');
    recordSidecarPlugin(sidecar, { containerName: 'hello', pluginName: 'hello.example.com' });
    expect(sidecarPluginOf(sidecar)).toEqual({ containerName: 'hello', pluginName: 'hello.example.com' });
    expect(sidecarPluginOf(chart)).toBeUndefined();
    expect(sidecarPluginOf(new Construct(chart, 'other'))).toBeUndefined();
  });

  test('SidecarPlugin records itself', () => {
    const operator = CnpgOperator.fromManifest(new Chart(Testing.app(), 'operator'), 'cnpg', { path: OPERATOR });
    const sidecar = operator.addSidecarPlugin('hello', {
      pluginName: 'cnpg-i-hello-world.cloudnative-pg.io',
      image: 'ghcr.io/cloudnative-pg/cnpg-i-hello-world:v0.1.0',
      args: ['plugin'],
      containerName: 'hello',
    });
    expect(sidecarPluginOf(sidecar)).toEqual({ containerName: 'hello', pluginName: 'cnpg-i-hello-world.cloudnative-pg.io' });
  });
});
