import { healthyCluster, liveFindings } from '../../../live/live-cluster';

describe('CNPGI403 certificate-not-ready', () => {
  test("the plugin's server Certificate not issued: an error", () => {
    const objects = healthyCluster();
    const cert = objects.find((o) => o.kind === 'Certificate' && o.metadata.name.includes('servercertificate'))!;
    cert.status = { conditions: [{ type: 'Ready', status: 'False', reason: 'DoesNotExist', message: 'Issuing certificate as Secret does not exist' }] };
    const name = cert.metadata.name;
    expect(liveFindings(objects, 'CNPGI403')).toEqual([
      {
        severity: 'error',
        object: `Certificate/cnpg-system/${name}`,
        message: `Certificate is not Ready: Ready is False (DoesNotExist): Issuing certificate as Secret does not exist; it writes Secret '${cert.spec.secretName}', which a plugin Service names, so the operator cannot rely on that plugin's certificate`,
        fix: `kubectl describe certificate ${name} -n cnpg-system, then kubectl get certificaterequests -n cnpg-system; fix the issuer or the request it names`,
        path: 'status.conditions',
      },
    ]);
  });

  test('a Certificate of no plugin without a Ready condition: a warning', () => {
    const objects = healthyCluster();
    objects.push({
      apiVersion: 'cert-manager.io/v1',
      kind: 'Certificate',
      metadata: { name: 'web', namespace: 'databases' },
      spec: { secretName: 'web-tls', dnsNames: ['web'], issuerRef: { name: 'ca', kind: 'ClusterIssuer' } },
    });
    expect(liveFindings(objects, 'CNPGI403').map((f) => [f.severity, f.message])).toEqual([
      ['warning', 'Certificate is not Ready: it has no Ready condition yet'],
    ]);
  });

  test('near misses pass: Ready True; not judged when Certificates could not be listed', () => {
    expect(liveFindings(healthyCluster(), 'CNPGI403')).toEqual([]);
    const objects = healthyCluster();
    for (const o of objects) if (o.kind === 'Certificate') delete o.status;
    expect(liveFindings(objects, 'CNPGI403', undefined, ['Certificate'])).toEqual([]);
  });
});
