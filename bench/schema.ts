// Schema layer throughput on a generated fleet, in a fresh process per measurement:
//
//   node <built>/bench/schema.js generate <N> <file.yaml>   writes N objects (Clusters, Backups,
//                                                           ScheduledBackups, Certificates,
//                                                           ObjectStores, Services, in turn)
//   node <built>/bench/schema.js parse|validate <file.yaml>
//
// `parse` reads and parses the file with the yaml package; `validate` does the same and then runs
// every object through the schema layer (first use included: loading the schemas and their
// generated validators, and the CEL library when a rule needs it). Prints { mode, objects, ms, parseMs, validateMs, maxRssMb, issues }.
import { readFileSync, writeFileSync } from 'fs';
import { parseAllDocuments, stringify } from 'yaml';
import { validateObject } from '../src/schema';

/** The i-th object of the fleet; every one is valid, so the run measures the passing path. */
export function fleetObject(i: number): Record<string, unknown> {
  const metadata = { name: `pg-${i}`, namespace: 'databases', labels: { 'app.kubernetes.io/part-of': 'fleet', team: `t${i % 7}` } };
  switch (i % 6) {
    case 0:
      return {
        apiVersion: 'postgresql.cnpg.io/v1',
        kind: 'Cluster',
        metadata,
        spec: {
          instances: 3,
          storage: { size: '10Gi' },
          resources: { requests: { cpu: '500m', memory: '1Gi' } },
          plugins: [{ name: 'barman-cloud.cloudnative-pg.io', isWALArchiver: true, parameters: { barmanObjectName: `store-${i}` } }],
          bootstrap: { initdb: { database: 'app', owner: 'app', localeProvider: 'icu', icuLocale: 'en-US' } },
          postgresql: { parameters: { max_connections: '200' } },
        },
      };
    case 1:
      return {
        apiVersion: 'postgresql.cnpg.io/v1',
        kind: 'Backup',
        metadata,
        spec: { cluster: { name: `pg-${i}` }, method: 'plugin', pluginConfiguration: { name: 'barman-cloud.cloudnative-pg.io' } },
      };
    case 2:
      return {
        apiVersion: 'postgresql.cnpg.io/v1',
        kind: 'ScheduledBackup',
        metadata,
        spec: { cluster: { name: `pg-${i}` }, schedule: '0 0 2 * * *', method: 'plugin', pluginConfiguration: { name: 'barman-cloud.cloudnative-pg.io' } },
      };
    case 3:
      return {
        apiVersion: 'cert-manager.io/v1',
        kind: 'Certificate',
        metadata,
        spec: {
          secretName: `pg-${i}-tls`,
          dnsNames: [`pg-${i}`, `pg-${i}.databases.svc`],
          duration: '2160h',
          issuerRef: { name: 'ca', kind: 'Issuer', group: 'cert-manager.io' },
          privateKey: { algorithm: 'ECDSA', size: 256 },
          usages: ['server auth'],
        },
      };
    case 4:
      return {
        apiVersion: 'barmancloud.cnpg.io/v1',
        kind: 'ObjectStore',
        metadata,
        spec: {
          configuration: {
            destinationPath: `s3://backups/pg-${i}`,
            s3Credentials: { accessKeyId: { name: 'creds', key: 'ID' }, secretAccessKey: { name: 'creds', key: 'KEY' } },
          },
          retentionPolicy: '30d',
        },
      };
    default:
      return { apiVersion: 'v1', kind: 'Service', metadata, spec: { selector: { app: `pg-${i}` }, ports: [{ name: 'grpc', port: 9090, targetPort: 'grpc' }] } };
  }
}

if (require.main === module) {
  const [mode, a, b] = process.argv.slice(2);
  if (mode === 'generate') {
    const n = Number(a);
    writeFileSync(b, Array.from({ length: n }, (_, i) => stringify(fleetObject(i))).join('---\n'));
  } else {
    const t0 = process.hrtime.bigint();
    const objects = parseAllDocuments(readFileSync(a, 'utf8')).map((d) => d.toJS());
    const t1 = process.hrtime.bigint();
    let issues = 0;
    if (mode === 'validate') for (const o of objects) issues += validateObject(o).length;
    const t2 = process.hrtime.bigint();
    console.log(
      JSON.stringify({
        mode,
        objects: objects.length,
        ms: Number(t2 - t0) / 1e6,
        parseMs: Number(t1 - t0) / 1e6,
        validateMs: Number(t2 - t1) / 1e6,
        maxRssMb: Math.round(process.resourceUsage().maxRSS / 1024),
        issues,
      }),
    );
  }
}
