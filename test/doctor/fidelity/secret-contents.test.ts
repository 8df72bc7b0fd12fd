import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { checkFlagFile, checkTlsSecret, pemCertificates } from '../../../src/doctor/fidelity/secret-contents';

// A throw-away self-signed P-256 certificate and key made with openssl for these tests only.
const CRT = readFileSync(join(__dirname, '../../fixtures/fidelity/client.crt'), 'utf8');
const KEY = readFileSync(join(__dirname, '../../fixtures/fidelity/client.key'), 'utf8');
const b64 = (s: string) => Buffer.from(s).toString('base64');
const tlsSecret = (data: Record<string, string>, name = 'plugin-client') => ({ kind: 'Secret', metadata: { name, namespace: 'cnpg-system' }, type: 'kubernetes.io/tls', data: Object.fromEntries(Object.entries(data).map(([k, v]) => [k, b64(v)])) });

describe('checkTlsSecret', () => {
  test('a PEM certificate and key pass, under data or stringData', () => {
    expect(checkTlsSecret(tlsSecret({ 'tls.crt': CRT, 'tls.key': KEY }), true)).toEqual([]);
    expect(checkTlsSecret({ kind: 'Secret', metadata: { name: 's' }, stringData: { 'tls.crt': CRT + CRT } }, false)).toEqual([]);
    expect(pemCertificates(CRT + CRT).certs.length).toBe(2);
  });

  test.each([
    [{ 'tls.key': KEY }, true, ['data.tls.crt']],
    [{ 'tls.crt': '', 'tls.key': KEY }, true, ['data.tls.crt']],
    [{ 'tls.crt': 'not pem', 'tls.key': KEY }, true, ['data.tls.crt']],
    [{ 'tls.crt': CRT.replace(/[A-Za-z]{8}\n/, 'AAAA\n'), 'tls.key': KEY }, true, ['data.tls.crt']],
    [{ 'tls.crt': CRT }, true, ['data.tls.key']],
    [{ 'tls.crt': CRT, 'tls.key': 'garbage' }, true, ['data.tls.key']],
    [{ 'tls.crt': CRT }, false, []],
  ])('%#', (data, needsKey, paths) => {
    expect(checkTlsSecret(tlsSecret(data as Record<string, string>), needsKey).map((i) => i.path)).toEqual(paths);
  });
});

const lookup = (secrets: Array<{ metadata: { name: string } }>) => (name: string) => secrets.find((s) => s.metadata.name === name);

describe('checkFlagFile', () => {
  const pod = { volumes: [{ name: 'client', secret: { secretName: 'plugin-client' } }] };
  const container = { name: 'plugin', volumeMounts: [{ name: 'client', mountPath: '/client' }] };
  test('a kubectl-made TLS Secret has no ca.crt: the fix points at what the Secret holds', () => {
    expect(checkFlagFile('--client-cert', '/client/ca.crt', pod, container, lookup([tlsSecret({ 'tls.crt': CRT, 'tls.key': KEY })]))).toEqual([{
      severity: 'error', path: 'spec.template.spec.containers[plugin].args',
      message: "--client-cert=/client/ca.crt names key 'ca.crt', which Secret 'plugin-client' does not hold (it has tls.crt, tls.key); the plugin cannot read the file",
      fix: '--client-cert at /client/tls.crt (right for a self-signed client certificate), or add ca.crt holding the client\'s issuer to the Secret'.replace(/^/, 'point '),
    }]);
  });

  test('a key that exists, a cert-manager Secret with ca.crt, and an unmounted path pass', () => {
    const secrets = [tlsSecret({ 'tls.crt': CRT, 'tls.key': KEY, 'ca.crt': CRT })];
    expect(checkFlagFile('--client-cert', '/client/ca.crt', pod, container, lookup(secrets))).toEqual([]);
    expect(checkFlagFile('--client-cert', '/client/tls.crt', pod, container, lookup(secrets))).toEqual([]);
    expect(checkFlagFile('--client-cert', '/elsewhere/ca.crt', pod, container, lookup(secrets))).toEqual([]);
  });

  test('volume items remap keys', () => {
    const mapped = { volumes: [{ name: 'client', secret: { secretName: 'plugin-client', items: [{ key: 'tls.crt', path: 'ca.pem' }] } }] };
    const secrets = [tlsSecret({ 'tls.crt': CRT, 'tls.key': KEY })];
    expect(checkFlagFile('--client-cert', '/client/ca.pem', mapped, container, lookup(secrets))).toEqual([]);
    expect(checkFlagFile('--client-cert', '/client/tls.crt', mapped, container, lookup(secrets)).length).toBe(1);
  });
});
