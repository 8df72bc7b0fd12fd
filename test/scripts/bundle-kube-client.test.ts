// scripts/bundle-kube-client.mjs, run as `npm run build` runs it, and its bundle used as the
// compiled tree uses it.
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

const ROOT = path.join(__dirname, '..', '..');

test('the build bundles the KubeConfig of @kubernetes/client-node into one CommonJS file that reads a kubeconfig', () => {
  const out = fs.mkdtempSync(path.join(os.tmpdir(), 'cnpg-i-kube-client-'));
  try {
    const live = path.join(out, 'src', 'live');
    fs.mkdirSync(live, { recursive: true });
    // a compiled kube-access.js stand-in with the one require the script rewrites
    fs.writeFileSync(path.join(live, 'kube-access.js'), "exports.k = () => require('@kubernetes/client-node');\n");
    execFileSync(process.execPath, [path.join(ROOT, 'scripts', 'bundle-kube-client.mjs'), out], { cwd: ROOT });
    expect(fs.readFileSync(path.join(live, 'kube-access.js'), 'utf8')).toBe("exports.k = () => require('./vendor/kube-client');\n");
    const bundle = fs.readFileSync(path.join(live, 'vendor', 'kube-client.js'), 'utf8');
    expect(bundle).toMatch(
      /^\/\*!\n \* The KubeConfig of @kubernetes\/client-node, bundled into CommonJS .*\n \* {3}@kubernetes\/client-node \d+\.\d+\.\d+ \(Apache-2\.0\)\n/,
    );
    const kubeconfig = path.join(out, 'config');
    fs.writeFileSync(
      kubeconfig,
      'apiVersion: v1\nkind: Config\nclusters:\n- name: c\n  cluster: {server: "https://127.0.0.1:6443"}\nusers:\n- name: u\n  user: {token: t0ken}\ncontexts:\n- name: x\n  context: {cluster: c, user: u}\ncurrent-context: x\n',
    );
    const probe = `const { KubeConfig } = require(${JSON.stringify(path.join(live, 'vendor', 'kube-client.js'))}); const kc = new KubeConfig(); kc.loadFromFile(${JSON.stringify(kubeconfig)}); const o = {}; kc.applyToHTTPSOptions(o).then(() => console.log(kc.getCurrentCluster().server, o.headers.Authorization));`;
    // run outside jest's module system, as a consumer's Node.js runs the compiled tree
    expect(execFileSync(process.execPath, ['-e', probe], { encoding: 'utf8' }).trim()).toBe('https://127.0.0.1:6443 Bearer t0ken');
  } finally {
    fs.rmSync(out, { recursive: true, force: true });
  }
});
