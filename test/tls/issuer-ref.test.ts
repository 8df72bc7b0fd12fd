import { IssuerRef } from '../../src';
import { expectValidationError } from '../util';

describe('IssuerRef', () => {
  test('issuer() names a namespaced cert-manager Issuer', () => {
    const ref = IssuerRef.issuer('corp-ca');
    expect({ group: ref.group, kind: ref.kind, name: ref.name }).toEqual({ group: 'cert-manager.io', kind: 'Issuer', name: 'corp-ca' });
  });

  test('clusterIssuer() names a ClusterIssuer', () => {
    const ref = IssuerRef.clusterIssuer('corp-ca');
    expect({ group: ref.group, kind: ref.kind, name: ref.name }).toEqual({ group: 'cert-manager.io', kind: 'ClusterIssuer', name: 'corp-ca' });
  });

  test('external() keeps the group and kind of an external issuer', () => {
    const ref = IssuerRef.external({ group: 'awspca.cert-manager.io', kind: 'AWSPCAClusterIssuer', name: 'pca' });
    expect({ group: ref.group, kind: ref.kind, name: ref.name }).toEqual({ group: 'awspca.cert-manager.io', kind: 'AWSPCAClusterIssuer', name: 'pca' });
  });

  test.each([
    [
      () => IssuerRef.issuer('Corp_CA'),
      "IssuerRef.issuer: name 'Corp_CA' is not a Kubernetes object name (a lower-case DNS subdomain); use a name such as 'corp-ca'",
    ],
    [
      () => IssuerRef.clusterIssuer(''),
      "IssuerRef.clusterIssuer: name '' is not a Kubernetes object name (a lower-case DNS subdomain); use a name such as 'corp-ca'",
    ],
    [
      () => IssuerRef.external({ group: 'Bad Group', kind: 'X', name: 'x' }),
      "IssuerRef.external: group 'Bad Group' is not an API group (a lower-case DNS subdomain); use a name such as 'awspca.cert-manager.io'",
    ],
    [
      () => IssuerRef.external({ group: 'a.io', kind: 'lowercase', name: 'x' }),
      "IssuerRef.external: kind 'lowercase' is not a Kubernetes kind; use the issuer's kind in CamelCase, e.g. 'AWSPCAClusterIssuer'",
    ],
    [
      () => IssuerRef.external(undefined as any),
      "IssuerRef.external: props is missing: it must be an object; pass e.g. { group: 'awspca.cert-manager.io', kind: 'AWSPCAClusterIssuer', name: 'corp-ca' }",
    ],
  ])('bad input gets a clear error (%#)', (fn, message) => {
    expectValidationError(fn, message);
  });
});

test('IssuerRef.CERT_MANAGER_GROUP is the group of cert-manager issuers, and external() refuses unknown keys', () => {
  expect(IssuerRef.CERT_MANAGER_GROUP).toBe('cert-manager.io');
  expect(IssuerRef.issuer('corp-ca').group).toBe(IssuerRef.CERT_MANAGER_GROUP);
  expect(() => IssuerRef.external({ group: 'awspca.cert-manager.io', kind: 'AWSPCAClusterIssuer', name: 'ca', namespace: 'x' } as any)).toThrow(
    "IssuerRef.external: props.namespace 'x' is not a declared key of props; remove it; props takes group, kind, name",
  );
});
