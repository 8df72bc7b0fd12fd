import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { checkFlagFile, checkSecretData, checkTlsSecret, goBase64Error, pemCertificates } from '../../src/checks/secret-contents';

// A throw-away self-signed P-256 certificate and key made with openssl for these tests only.
const CRT = readFileSync(join(__dirname, '../fixtures/fidelity/client.crt'), 'utf8');
const KEY = readFileSync(join(__dirname, '../fixtures/fidelity/client.key'), 'utf8');
const b64 = (s: string) => Buffer.from(s).toString('base64');
const tlsSecret = (data: Record<string, string>, name = 'plugin-client') => ({
  kind: 'Secret',
  metadata: { name, namespace: 'cnpg-system' },
  type: 'kubernetes.io/tls',
  data: Object.fromEntries(Object.entries(data).map(([k, v]) => [k, b64(v)])),
});

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
    expect(checkFlagFile('--client-cert', '/client/ca.crt', pod, container, lookup([tlsSecret({ 'tls.crt': CRT, 'tls.key': KEY })]))).toEqual([
      {
        severity: 'error',
        path: 'spec.template.spec.containers[plugin].args',
        message:
          "--client-cert=/client/ca.crt names key 'ca.crt', which Secret 'plugin-client' does not hold (it has tls.crt, tls.key); the plugin cannot read the file",
        fix: "--client-cert at /client/tls.crt (right for a self-signed client certificate), or add ca.crt holding the client's issuer to the Secret".replace(
          /^/,
          'point ',
        ),
      },
    ]);
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

describe('goBase64Error (Go base64.StdEncoding.Decode)', () => {
  test.each([
    ['', -1],
    ['eA==', -1],
    ['eHk=', -1],
    ['eHl6', -1],
    ['eHl6\neA==\n', -1],
    ['eH\r\nl6', -1],
    // non-zero trailing bits: Go's StdEncoding is not strict
    ['eB==', -1],
  ])('%j decodes', (text, at) => expect(goBase64Error(text)).toBe(at));
  test.each([
    // the offsets Go's CorruptInputError names, as Go 1.23 encoding/base64 DecodeString printed them
    ['eA', 0],
    ['eHl', 0],
    ['e', 0],
    ['eA=', 3],
    ['eA=x', 2],
    ['e===', 1],
    ['====', 0],
    ['eA==eA==', 4],
    ['eA== x', 4],
    ['eHl6!', 4],
    ['eHl-', 3],
    ['eHl_', 3],
    ['€', 0],
    ['eA==\n\nx', 6],
  ])('%j fails at byte %p', (text, at) => expect(goBase64Error(text)).toBe(at));
  test('agrees with a clean round trip of every length', () => {
    for (let n = 0; n < 40; n++) expect(goBase64Error(Buffer.alloc(n, 0xa5).toString('base64'))).toBe(-1);
  });
});

describe('checkSecretData (CNPGI115: what the API server refuses)', () => {
  const secret = (extra: object, type?: string) => ({ kind: 'Secret', metadata: { name: 's', namespace: 'ns' }, ...(type ? { type } : {}), ...extra });
  test('valid base64, stringData, null values and a complete TLS Secret pass', () => {
    expect(checkSecretData(secret({ data: { a: b64('x'), b: null }, stringData: { 'c.txt': 'plain' } }))).toEqual([]);
    expect(checkSecretData(secret({ data: { 'tls.crt': b64(CRT) }, stringData: { 'tls.key': KEY } }, 'kubernetes.io/tls'))).toEqual([]);
    expect(checkSecretData(secret({}))).toEqual([]);
  });
  test('a PEM written under data instead of its base64 is refused, with the byte Go names', () => {
    expect(checkSecretData(secret({ data: { 'tls.crt': CRT } }))).toEqual([
      {
        severity: 'error',
        path: 'data.tls.crt',
        message:
          "Secret 's' data 'tls.crt' is not valid base64 (illegal base64 data at input byte 0); the API server decodes data values as standard padded base64 and refuses the object",
        fix: 'write base64 of the value (e.g. `base64 -w0 < file`), or move the plain text to stringData.tls.crt',
      },
    ]);
  });
  test('a vals reference under data is a warning that names vals; a near miss that is not one stays an error', () => {
    const found = checkSecretData(secret({ data: { token: 'ref+op://Vault/item/field', key: 'secretref+vault://kv/app#/key+' } }));
    expect(found.map((i) => `${i.severity} ${i.path}`)).toEqual(['warning data.token', 'warning data.key']);
    expect(found[0].message).toBe(
      "Secret 's' data 'token' is a vals reference ('ref+op://...'), not base64: vals replaces it before the Secret is applied; applied as it is, the API server refuses the object (illegal base64 data at input byte 6)",
    );
    // text around the reference, or no backend scheme: not a whole reference, so what the API server sees
    for (const text of ['token: ref+op://Vault/item/field', 'ref+op:Vault', 'ref+op://a b']) {
      expect(checkSecretData(secret({ data: { token: text } })).map((i) => i.severity)).toEqual(['error']);
    }
  });
  test.each([
    [{ data: { a: 'abc' } }, undefined, 'data.a'],
    [{ data: { a: 42 } }, undefined, 'data.a'],
    [{ data: { a: ['x'] } }, undefined, 'data.a'],
    [{ data: { 'a b': b64('x') } }, undefined, 'data.a b'],
    [{ stringData: { '..x': 'y' } }, undefined, 'stringData...x'],
    [{ data: { '..': b64('x') } }, undefined, 'data...'],
    [{ data: { ['k'.repeat(254)]: b64('x') } }, undefined, `data.${'k'.repeat(254)}`],
    [{ stringData: { big: 'x'.repeat(1024 * 1024 + 1) } }, undefined, 'data'],
    [{ data: { 'tls.crt': b64(CRT) } }, 'kubernetes.io/tls', 'data'],
    [{}, 'kubernetes.io/tls', 'data'],
  ])('%#: refused at %p', (extra, type, path) => {
    expect(checkSecretData(secret(extra, type)).map((i) => i.path)).toEqual([path]);
  });
  test('exactly 1 MiB is allowed', () => {
    expect(checkSecretData(secret({ stringData: { big: 'x'.repeat(1024 * 1024) } }))).toEqual([]);
  });
});
