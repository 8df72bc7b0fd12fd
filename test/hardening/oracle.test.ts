import { apiServerProblems, expectApiServerAccepts, expectGoodOutput } from './oracle';

/*
 * The API server oracle refuses each kind of object a real API server rejected in issue #13's
 * dry runs, and expectGoodOutput (which every hardening property calls) includes it.
 */

const pod = (name: string, resources: unknown) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, namespace: 'ns' },
  spec: { containers: [{ name: 'c', image: 'ghcr.io/a/b:v1', resources }] },
});
const cluster = (metadata: object, spec: object) => ({
  apiVersion: 'postgresql.cnpg.io/v1',
  kind: 'Cluster',
  metadata: { namespace: 'ns', ...metadata },
  spec: { instances: 1, storage: { size: '1Gi' }, ...spec },
});

describe('the API server oracle', () => {
  test.each<[string, object, string]>([
    [
      'a request above its limit',
      pod('p', { requests: { memory: '1Gi' }, limits: { memory: '1000Mi' } }),
      "Pod/ns/p spec.containers[0].resources.requests.memory: is above the memory limit '1000Mi'",
    ],
    [
      'initdb.icuLocale without localeProvider icu (CEL)',
      cluster({ name: 'pg' }, { bootstrap: { initdb: { icuLocale: 'en' } } }),
      "Cluster/ns/pg spec.bootstrap.initdb: fails the CRD rule `!has(self.icuLocale) || self.localeProvider == 'icu'`",
    ],
    ['duplicate finalizers', cluster({ name: 'pg', finalizers: ['a.io/x', 'a.io/x'] }, {}), 'Cluster/ns/pg metadata.finalizers[1]: repeats item 0'],
    [
      'an owner reference without uid',
      cluster({ name: 'pg', ownerReferences: [{ apiVersion: 'v1', kind: 'X', name: 'x' }] }, {}),
      'Cluster/ns/pg metadata.ownerReferences[0].uid: must not be empty',
    ],
    [
      'a name with an underscore',
      { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'system-barman_payments54-serviceaccount-c8a1b2c3', namespace: 'ns' } },
      'ServiceAccount/ns/system-barman_payments54-serviceaccount-c8a1b2c3 metadata.name: is not a lowercase RFC 1123 subdomain',
    ],
    [
      'a Cluster name that is no DNS-1035 label',
      cluster({ name: 'qjn635-hello.barman18-2-c85afaa5' }, {}),
      'Cluster/ns/qjn635-hello.barman18-2-c85afaa5 metadata.name: the Cluster webhook refuses the Cluster name \'qjn635-hello.barman18-2-c85afaa5\' ("cluster name must be a valid DNS label")',
    ],
    [
      'a Deployment name with a dot',
      { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'a.b', namespace: 'ns' }, spec: {} },
      'Deployment/ns/a.b metadata.name: is not a DNS label',
    ],
    [
      'a field the CRD prunes',
      cluster({ name: 'pg' }, { plugins: [{ name: 'x.io', isWalArchiver: true }] }),
      "Cluster/ns/pg spec.plugins[0].isWalArchiver: is not a field the CRD declares, so the API server drops it; value true; allowed the field 'isWALArchiver'",
    ],
  ])('refuses %s', (_what, obj, line) => {
    const problems = apiServerProblems([obj]);
    expect(problems.some((p) => p.startsWith(line))).toBe(true);
    expect(() => expectApiServerAccepts([obj])).toThrow(line);
  });

  test('accepts what the API server accepts', () => {
    expect(
      apiServerProblems([pod('p', { requests: { cpu: '500m', memory: '1000Mi' }, limits: { cpu: '1', memory: '1Gi' } }), cluster({ name: 'pg' }, {})]),
    ).toEqual([]);
  });

  test('expectGoodOutput, which the properties call, includes it', () => {
    expect(() => expectGoodOutput([pod('p', { requests: { cpu: '2' }, limits: { cpu: '1' } })])).toThrow(
      "Pod/ns/p spec.containers[0].resources.requests.cpu: is above the cpu limit '1'",
    );
  });
});
