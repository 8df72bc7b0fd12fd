import { findingsOf, pooler } from '../admission-objects';

const findings = (...objects: unknown[]) => findingsOf('CNPGI383', ...objects);
const tls = { enablePodMonitor: true, tls: { enabled: true } };

describe('CNPGI383 pooler-monitoring-tls', () => {
  test.each([[{ poolMode: 'session' }], [{ clientTLSSecret: { name: '' } }], [{ clientTLSSecret: {} }]])(
    'metrics over TLS, the PodMonitor and %j',
    (pgbouncer) => {
      const [f, ...rest] = findings(pooler({ pgbouncer, monitoring: tls }));
      expect(rest).toEqual([]);
      expect(f).toMatchObject({
        severity: 'error',
        object: 'Pooler/app/pg-pooler-rw',
        path: 'spec.pgbouncer.clientTLSSecret',
        message:
          "the Pooler webhook refuses metrics over TLS with the operator's PodMonitor and no clientTLSSecret (Required value: \"clientTLSSecret is required when spec.monitoring.tls.enabled is true and the operator-generated PodMonitor is enabled\"): the metrics endpoint would serve the Cluster's server certificate, which names the Cluster's Services, not the Pooler",
        fix: "set spec.pgbouncer.clientTLSSecret.name to a TLS Secret whose certificate names the Pooler, or set spec.monitoring.enablePodMonitor: false and write the Pooler's PodMonitor yourself",
      });
    },
  );

  test.each([
    [{ pgbouncer: { clientTLSSecret: { name: 'pooler-tls' } }, monitoring: tls }],
    [{ monitoring: { enablePodMonitor: false, tls: { enabled: true } } }],
    [{ monitoring: { tls: { enabled: true } } }],
    [{ monitoring: { enablePodMonitor: true, tls: { enabled: false } } }],
    [{ monitoring: { enablePodMonitor: true } }],
  ])('accepted: %j', (spec) => {
    expect(findings(pooler(spec))).toEqual([]);
  });
});
