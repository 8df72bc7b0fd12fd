import * as fs from 'fs';
import * as path from 'path';
import * as YAML from 'yaml';
import { analyzeManifests } from '../../src/doctor/check-manifests';
import { describeWithShared, sharedPath } from '../shared';
import { summary } from './helpers';

function load(...files: string[]): unknown[] {
  return files.flatMap((f) => YAML.parseAllDocuments(fs.readFileSync(sharedPath('reference', f), 'utf8')).map((d) => d.toJS()));
}
const HELLO_DIR = 'cnpg-i-hello-world-kubernetes';
const HELLO = ['certificate-issuer.yaml', 'client-certificate.yaml', 'deployment.yaml', 'server-certificate.yaml', 'service.yaml', 'kustomization.yaml'].map(
  (f) => path.join(HELLO_DIR, f),
);

describeWithShared('the doctor over the upstream manifests', () => {
  test('barman-cloud v0.14.0 with the CNPG 1.30.0 operator: discovered, only its development images (CNPGI126)', () => {
    const r = analyzeManifests(load('plugin-barman-cloud-v0.14.0-manifest.yaml', 'cnpg-1.30.0.yaml'));
    expect(r.operatorNamespace).toBe('cnpg-system');
    expect(r.plugins).toEqual([
      {
        name: 'barman-cloud.cloudnative-pg.io',
        source: 'service',
        object: 'Service/cnpg-system/barman-cloud',
        port: 9090,
        clientSecret: 'barman-cloud-client-tls',
        serverSecret: 'barman-cloud-server-tls',
        serverName: 'barman-cloud',
        address: 'barman-cloud.cnpg-system.svc:9090',
      },
    ]);
    // the committed manifest names the -testing:main builds (image and SIDECAR_IMAGE); the
    // operator's Cluster and Pooler CRDs are too large for client-side apply (upstream installs
    // with kubectl apply --server-side)
    expect(r.findings.map((f) => [f.ruleId, f.path])).toEqual([
      ['CNPGI126', 'spec.template.spec.containers[0].image'],
      ['CNPGI126', 'spec.template.spec.containers[0].env[0]'],
      ['CNPGI124', 'metadata.annotations'],
      ['CNPGI124', 'metadata.annotations'],
    ]);
  });

  test('barman-cloud alone: only the assumed operator namespace and its development images', () => {
    const r = analyzeManifests(load('plugin-barman-cloud-v0.14.0-manifest.yaml'));
    expect(summary(r.findings)).toEqual([
      'CNPGI001 warning input',
      'CNPGI126 warning Deployment/cnpg-system/barman-cloud',
      'CNPGI126 warning Deployment/cnpg-system/barman-cloud',
    ]);
    expect(r.plugins.map((p) => p.name)).toEqual(['barman-cloud.cloudnative-pg.io']);
  });

  test('hello-world kustomization (namespace cnpg-system) with the operator: discovered, no errors', () => {
    const r = analyzeManifests(load(...HELLO, 'cnpg-1.30.0.yaml'), { defaultNamespace: 'cnpg-system' });
    expect(r.plugins).toEqual([
      {
        name: 'cnpg-i-hello-world.cloudnative-pg.io',
        source: 'service',
        object: 'Service/cnpg-system/hello-world',
        port: 9090,
        clientSecret: 'helloworld-client-tls',
        serverSecret: 'helloworld-server-tls',
        serverName: 'hello-world',
        address: 'hello-world.cnpg-system.svc:9090',
      },
    ]);
    expect(r.findings.filter((f) => f.severity === 'error')).toEqual([]);
    // the example Deployment sets no securityContext at all; its kustomization.yaml, read here as
    // one of the files rather than rendered, is CNPGI093's
    expect(summary(r.findings)).toEqual([
      'CNPGI050 warning Deployment/cnpg-system/hello-world',
      // cnpg-i-hello-world:latest
      'CNPGI126 warning Deployment/cnpg-system/hello-world',
      'CNPGI093 warning Kustomization (kustomize) document #6',
      'CNPGI124 warning CustomResourceDefinition/clusters.postgresql.cnpg.io',
      'CNPGI124 warning CustomResourceDefinition/poolers.postgresql.cnpg.io',
    ]);
  });

  test('hello-world applied to another namespace is outside the operator namespace', () => {
    const r = analyzeManifests(load(...HELLO, 'cnpg-1.30.0.yaml'), { defaultNamespace: 'default' });
    expect(summary(r.findings.filter((f) => f.severity === 'error'))).toEqual(['CNPGI017 error Service/default/hello-world']);
    expect(r.plugins).toEqual([]);
  });

  test('the operator manifest alone: operator found, only its two CRDs too large for client-side apply', () => {
    const r = analyzeManifests(load('cnpg-1.30.0.yaml'));
    expect(r.operatorNamespace).toBe('cnpg-system');
    // 272,526 and 339,202 bytes of annotations after kubectl's client-side apply, over 262,144
    expect(summary(r.findings)).toEqual([
      'CNPGI124 warning CustomResourceDefinition/clusters.postgresql.cnpg.io',
      'CNPGI124 warning CustomResourceDefinition/poolers.postgresql.cnpg.io',
    ]);
    expect(r.objectCount).toBeGreaterThan(20);
  });
});
