// The example app that `npm run synth` renders into dist/.
import { App, Chart } from 'cdk8s';
import { PluginTls, StandalonePlugin } from './index';

const app = new App();

// Plugins live in the operator's namespace: the chart's namespace is used for everything.
const system = new Chart(app, 'cnpg-system', { namespace: 'cnpg-system' });

new StandalonePlugin(system, 'hello', {
  pluginName: 'cnpg-i-hello-world.cloudnative-pg.io',
  image: 'ghcr.io/cloudnative-pg/cnpg-i-hello-world:v0.1.0',
  args: ['plugin'],
  tls: PluginTls.privateCa(),
  serverName: 'hello-world.cnpg-system.svc',
});

app.synth();
