import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { checkManifests } from '../../src/doctor/check-manifests';
import { DOCTOR_RULES } from '../../src/doctor/registry';

const B = 'barman-cloud.cloudnative-pg.io';

/** The operator-fidelity rules: the rule files of src/doctor/rules/operator-fidelity/. */
const FIDELITY_IDS = new Set(
  readdirSync(join(__dirname, '../../src/doctor/rules/operator-fidelity'))
    .map((f) => /^cnpgi(\d{3})-/.exec(f))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => `CNPGI${m[1]}`),
);
const FIDELITY = DOCTOR_RULES.filter((r) => FIDELITY_IDS.has(r.id));
const fidelityFindings = (objects: unknown[]) => checkManifests(objects).filter((f) => FIDELITY_IDS.has(f.ruleId));

describe('the operator-fidelity rules', () => {
  test('the example app synthesized by this library (dist/) has no fidelity findings', () => {
    const dir = join(__dirname, '../../dist');
    const objects = readdirSync(dir)
      .filter((f) => f.endsWith('.yaml'))
      .flatMap((f) =>
        parseAllDocuments(readFileSync(join(dir, f), 'utf8'))
          .map((d) => d.toJS())
          .filter(Boolean),
      );
    expect(objects.length).toBeGreaterThan(10);
    // Nor any of the admission rules that follow them.
    expect(checkManifests(objects).filter((f) => f.ruleId >= 'CNPGI100')).toEqual([]);
  });

  test('each family reports on its own objects', () => {
    const objects = [
      {
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: { name: 'cnpg-controller-manager', namespace: 'cnpg-system' },
        spec: {
          template: {
            spec: {
              containers: [
                {
                  name: 'manager',
                  image: 'ghcr.io/cloudnative-pg/cloudnative-pg:1.30.0',
                  env: [
                    { name: 'OPERATOR_NAMESPACE', valueFrom: { fieldRef: { fieldPath: 'metadata.namespace' } } },
                    { name: 'INCLUDE_PLUGINS', value: 'missing.example.com' },
                  ],
                },
              ],
            },
          },
        },
      },
      {
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: { name: 'barman-cloud', namespace: 'cnpg-system' },
        spec: {
          template: {
            metadata: { labels: { app: 'barman-cloud' } },
            spec: {
              containers: [
                { name: 'barman-cloud', image: 'ghcr.io/cloudnative-pg/plugin-barman-cloud:v0.14.0', args: ['operator'], ports: [{ containerPort: 9090 }] },
              ],
            },
          },
        },
      },
      {
        apiVersion: 'v1',
        kind: 'Service',
        metadata: {
          name: 'barman-cloud',
          namespace: 'cnpg-system',
          labels: { 'cnpg.io/pluginName': 'barman-cloud' },
          annotations: { 'cnpg.io/pluginPort': '9090', 'cnpg.io/pluginClientSecret': 'c', 'cnpg.io/pluginServerSecret': 's' },
        },
        spec: { selector: { app: 'barman-cloud' }, ports: [{ port: 9090, targetPort: '9090' }] },
      },
      {
        apiVersion: 'postgresql.cnpg.io/v1',
        kind: 'Cluster',
        metadata: { name: 'pg', namespace: 'db' },
        spec: { plugins: [{ name: B, parameters: { objectStore: 'x' } }], bootstrap: { recovery: { source: 'nope' } } },
      },
      {
        apiVersion: 'postgresql.cnpg.io/v1',
        kind: 'ScheduledBackup',
        metadata: { name: 'nightly', namespace: 'db' },
        spec: { cluster: { name: 'pg' }, schedule: '0 2 * * *', method: 'plugin', pluginConfiguration: { name: 'other.example.com' } },
      },
      { apiVersion: 'postgresql.cnpg.io/v1', kind: 'Backup', metadata: { name: 'b', namespace: 'db' }, spec: { cluster: { name: 'pg' }, method: 'Plugin' } },
      {
        apiVersion: 'cert-manager.io/v1',
        kind: 'Certificate',
        metadata: { name: 'c', namespace: 'cnpg-system' },
        spec: { secretName: 'c', issuerRef: { name: 'i' }, usages: ['clientAuth'] },
      },
    ];
    const families = [...new Set(fidelityFindings(objects).map((f) => `${f.ruleId} ${f.object.split('/')[0]}`))].sort();
    expect(families).toEqual([
      'CNPGI100 Cluster',
      'CNPGI101 Backup',
      'CNPGI102 ScheduledBackup',
      'CNPGI103 ScheduledBackup',
      'CNPGI104 Deployment',
      'CNPGI105 Service',
      'CNPGI106 Cluster',
      'CNPGI107 Deployment',
      'CNPGI108 Certificate',
      'CNPGI114 Service',
    ]);
  });

  test('there are nineteen, and every why cites a source', () => {
    expect(FIDELITY.length).toBe(19);
    for (const f of FIDELITY) expect(f.why.length).toBeGreaterThan(20);
  });
});
