import { Duration } from 'cdk8s';
import { CertificateRotationPolicy, IssuerRef, PluginCertificates, PluginTls, PrivateKeyAlgorithm, StandalonePlugin } from '../../src';
import { chartIn, expectValidationError, ofKind, synth } from '../util';

const base = { pluginName: 'demo.example.com', image: 'example/plugin:1.0.0' };

function certificates(tls: PluginTls) {
  const chart = chartIn();
  new StandalonePlugin(chart, 'demo', { ...base, tls });
  return ofKind(synth(chart), 'Certificate');
}

describe('certificate options', () => {
  test('documented defaults: 2160h, 360h, ECDSA P-256, rotation Always', () => {
    for (const cert of certificates(PluginTls.selfSigned())) {
      expect(cert.spec.duration).toBe('2160h');
      expect(cert.spec.renewBefore).toBe('360h');
      expect(cert.spec.privateKey).toEqual({ algorithm: 'ECDSA', size: 256, rotationPolicy: 'Always' });
    }
  });

  test('privateCa defaults: CA valid 87600h, renewed 720h before', () => {
    const ca = certificates(PluginTls.privateCa()).find((c) => c.spec.isCA);
    expect(ca?.spec.duration).toBe('87600h');
    expect(ca?.spec.renewBefore).toBe('720h');
  });

  describe('a lifetime the user chose gets no default renewal: cert-manager renews at two thirds of it', () => {
    const lifetimes = (tls: PluginTls) => certificates(tls).map((c) => [c.spec.isCA === true ? 'ca' : 'leaf', c.spec.duration, c.spec.renewBefore]);

    test('fromIssuer({ duration: 2h }): accepted, renewBefore not written', () => {
      expect(lifetimes(PluginTls.fromIssuer(IssuerRef.clusterIssuer('corp-ca'), { duration: Duration.hours(2) }))).toEqual([
        ['leaf', '2h', undefined],
        ['leaf', '2h', undefined],
      ]);
      expect(lifetimes(PluginTls.selfSigned({ duration: Duration.hours(1) }))).toEqual([
        ['leaf', '1h', undefined],
        ['leaf', '1h', undefined],
      ]);
    });

    test('privateCa with short lifetimes: neither the CA nor the leaves get a default renewal', () => {
      expect(lifetimes(PluginTls.privateCa({ duration: Duration.hours(2), caDuration: Duration.hours(3) }))).toEqual([
        ['ca', '3h', undefined],
        ['leaf', '2h', undefined],
        ['leaf', '2h', undefined],
      ]);
    });

    test('each default renewal stays with its own default lifetime', () => {
      expect(lifetimes(PluginTls.privateCa({ caDuration: Duration.hours(10000) }))).toEqual([
        ['ca', '10000h', undefined],
        ['leaf', '2160h', '360h'],
        ['leaf', '2160h', '360h'],
      ]);
      expect(lifetimes(PluginTls.privateCa({ duration: Duration.hours(48) }))).toEqual([
        ['ca', '87600h', '720h'],
        ['leaf', '48h', undefined],
        ['leaf', '48h', undefined],
      ]);
    });

    test('a renewal given is written and judged, with or without a lifetime', () => {
      expect(lifetimes(PluginTls.selfSigned({ duration: Duration.hours(2), renewBefore: Duration.minutes(30) }))[0]).toEqual(['leaf', '2h', '30m']);
      expect(lifetimes(PluginTls.selfSigned({ renewBefore: Duration.hours(48) }))[0]).toEqual(['leaf', '2160h', '48h']);
      expectValidationError(
        () => PluginTls.fromIssuer(IssuerRef.clusterIssuer('corp-ca'), { duration: Duration.hours(2), renewBefore: Duration.hours(2) }),
        "PluginTls.fromIssuer: renewBefore '2h' is not shorter than duration (2h); make renewBefore shorter than duration, so the certificate is renewed before it expires",
      );
    });
  });

  test('a certificate DNS name keeps the DNS label limit: 63 characters a label', () => {
    const long = `${'p'.repeat(64)}.example.internal`;
    expectValidationError(
      () => PluginTls.selfSigned({ extraServerDnsNames: [long] }),
      `PluginTls.selfSigned: extraServerDnsNames[0] '${long}' is not a DNS name; use a lower-case DNS name such as 'plugin.example.internal' (or '*.example.internal')`,
    );
    expect(() => PluginTls.selfSigned({ extraServerDnsNames: [`${'p'.repeat(63)}.example.internal`] })).not.toThrow();
  });

  test('durations render in the one Go form of the library (renderDuration)', () => {
    const certs = certificates(PluginTls.selfSigned({ duration: Duration.minutes(90), renewBefore: Duration.seconds(600) }));
    expect(certs.map((c) => [c.spec.duration, c.spec.renewBefore])).toEqual([
      ['1h30m', '10m'],
      ['1h30m', '10m'],
    ]);
  });

  test('RSA defaults to 2048 bits; Ed25519 has no size', () => {
    expect(certificates(PluginTls.selfSigned({ privateKeyAlgorithm: PrivateKeyAlgorithm.RSA }))[0].spec.privateKey).toEqual({
      algorithm: 'RSA',
      size: 2048,
      rotationPolicy: 'Always',
    });
    expect(
      certificates(PluginTls.selfSigned({ privateKeyAlgorithm: PrivateKeyAlgorithm.ED25519, rotationPolicy: CertificateRotationPolicy.NEVER }))[0].spec
        .privateKey,
    ).toEqual({ algorithm: 'Ed25519', rotationPolicy: 'Never' });
  });

  test('extra server DNS names are added after the verified names, without repeats', () => {
    const server = certificates(
      PluginTls.selfSigned({ extraServerDnsNames: ['plugin.example.internal', '*.plugins.example.internal', 'plugin.example.internal'] }),
    ).find((c) => c.spec.usages.includes('server auth'));
    expect(server?.spec.dnsNames.slice(4)).toEqual(['plugin.example.internal', '*.plugins.example.internal']);
  });

  test.each<[string, () => PluginTls, string]>([
    [
      'renewBefore >= duration',
      () => PluginTls.selfSigned({ duration: Duration.hours(24), renewBefore: Duration.hours(24) }),
      "PluginTls.selfSigned: renewBefore '24h' is not shorter than duration (24h); make renewBefore shorter than duration, so the certificate is renewed before it expires",
    ],
    [
      'duration under an hour',
      () => PluginTls.selfSigned({ duration: Duration.minutes(30), renewBefore: Duration.minutes(10) }),
      "PluginTls.selfSigned: duration '30m' is shorter than one hour, the least cert-manager accepts; use Duration.hours(1) or more",
    ],
    [
      'renewBefore under five minutes',
      () => PluginTls.selfSigned({ renewBefore: Duration.minutes(1) }),
      "PluginTls.selfSigned: renewBefore '1m' is shorter than five minutes, the least cert-manager accepts; use Duration.minutes(5) or more",
    ],
    [
      'a CA that expires before its leaves',
      () => PluginTls.privateCa({ caDuration: Duration.hours(720), caRenewBefore: Duration.hours(100), duration: Duration.hours(2160) }),
      "PluginTls.privateCa: caDuration '720h' is shorter than the leaves' duration (2160h); cert-manager signs each leaf for its full duration, so it would outlive the CA that signed it; make caDuration at least as long as duration",
    ],
    [
      'a string instead of a Duration',
      () => PluginTls.selfSigned({ duration: '2160h' as any }),
      "PluginTls.selfSigned: duration '2160h' must be a cdk8s Duration, not a string; use Duration.hours(1)",
    ],
    [
      'CA renewBefore >= CA duration',
      () => PluginTls.privateCa({ caDuration: Duration.hours(100), caRenewBefore: Duration.hours(200) }),
      "PluginTls.privateCa: caRenewBefore '200h' is not shorter than caDuration (100h); make caRenewBefore shorter than caDuration, so the certificate is renewed before it expires",
    ],
    [
      'RSA below 2048 bits',
      () => PluginTls.selfSigned({ privateKeyAlgorithm: PrivateKeyAlgorithm.RSA, privateKeySize: 1024 }),
      'PluginTls.selfSigned: privateKeySize 1024 is not a valid RSA key size; use 2048, 3072 or 4096 (cert-manager accepts 2048 to 8192)',
    ],
    [
      'an ECDSA size that is no curve',
      () => PluginTls.selfSigned({ privateKeySize: 255 }),
      'PluginTls.selfSigned: privateKeySize 255 is not a valid ECDSA key size; use 256 (P-256), 384 (P-384) or 521 (P-521)',
    ],
    [
      'an Ed25519 size',
      () => PluginTls.selfSigned({ privateKeyAlgorithm: PrivateKeyAlgorithm.ED25519, privateKeySize: 256 }),
      'PluginTls.selfSigned: privateKeySize 256 is not a valid Ed25519 key size; leave privateKeySize unset: an Ed25519 key has no size',
    ],
    [
      'an unknown algorithm',
      () => PluginTls.selfSigned({ privateKeyAlgorithm: 'DSA' as any }),
      "PluginTls.selfSigned: privateKeyAlgorithm 'DSA' is not a PrivateKeyAlgorithm; use one of PrivateKeyAlgorithm.ECDSA, PrivateKeyAlgorithm.RSA, PrivateKeyAlgorithm.ED25519",
    ],
    [
      'an unknown rotation policy',
      () => PluginTls.selfSigned({ rotationPolicy: 'Sometimes' as any }),
      "PluginTls.selfSigned: rotationPolicy 'Sometimes' is not a CertificateRotationPolicy; use one of CertificateRotationPolicy.ALWAYS, CertificateRotationPolicy.NEVER",
    ],
    [
      'a bad extra DNS name',
      () => PluginTls.selfSigned({ extraServerDnsNames: ['Not A Name'] }),
      "PluginTls.selfSigned: extraServerDnsNames[0] 'Not A Name' is not a DNS name; use a lower-case DNS name such as 'plugin.example.internal' (or '*.example.internal')",
    ],
    [
      'the same Secret for both sides',
      () => PluginTls.fromSecrets({ clientSecretName: 'tls', serverSecretName: 'tls' }),
      "PluginTls.fromSecrets: serverSecretName 'tls' is also the client Secret; use two Secrets: the operator presents the client one and trusts the server one",
    ],
    [
      'a bad Secret name',
      () => PluginTls.fromSecrets({ clientSecretName: 'Client', serverSecretName: 'server' }),
      "PluginTls.fromSecrets: clientSecretName 'Client' is not a Secret name (a lower-case DNS subdomain); use a name such as 'plugin-client-tls'",
    ],
    [
      'a bad client CA key',
      () => PluginTls.fromSecrets({ clientSecretName: 'client', serverSecretName: 'server', clientCaKey: 'ca/crt' }),
      "PluginTls.fromSecrets: clientCaKey 'ca/crt' is not a Secret key; use the key holding the client CA, normally 'ca.crt'",
    ],
    [
      'a fromIssuer without an IssuerRef',
      () => PluginTls.fromIssuer('corp-ca' as any),
      "PluginTls.fromIssuer: issuer 'corp-ca' must be an IssuerRef, not a string; use IssuerRef.issuer('name'), IssuerRef.clusterIssuer('name') or IssuerRef.external({...})",
    ],
  ])('rejects %s where it is written', (_what, tls, message) => {
    expectValidationError(tls, message);
  });

  test('rejects a tls prop that is not a PluginTls', () => {
    expectValidationError(
      () => new StandalonePlugin(chartIn(), 'demo', { ...base, tls: 'selfSigned' as any }),
      "cnpg-system/demo: tls 'selfSigned' must be a PluginTls, not a string; use PluginTls.selfSigned(), privateCa(), fromIssuer(...) or fromSecrets(...)",
    );
  });
});

describe('certificate subjects', () => {
  test('a 63-character Service name keeps the CA, client and server common names distinct and within 64 characters', () => {
    const chart = chartIn();
    const serviceName = `p${'x'.repeat(61)}y`;
    new StandalonePlugin(chart, 'demo', { ...base, serviceName, tls: PluginTls.privateCa() });
    const names = ofKind(synth(chart), 'Certificate').map((c) => c.spec.commonName as string);
    expect(names).toEqual([`${serviceName.slice(0, 61)}-ca`, `${serviceName.slice(0, 57)}-client`, serviceName]);
    expect(new Set(names).size).toBe(3);
    for (const n of names) expect(n.length).toBeLessThanOrEqual(64);
  });
});

describe('PluginCertificates made by the user', () => {
  test('reports its schema guard lines on itself: only the children a construct of the library makes for itself move up', () => {
    const chart = chartIn();
    new PluginCertificates(chart, 'tls', { tls: PluginTls.selfSigned(), serviceName: 'svc', namespace: 'cnpg-system', names: { issuer: 'Bad_Issuer' } });
    expect(() => synth(chart)).toThrow(/\n\s*\[cnpg-system\/tls\] Issuer 'Bad_Issuer' metadata\.name: is not a lowercase RFC 1123 subdomain/);
  });
});
