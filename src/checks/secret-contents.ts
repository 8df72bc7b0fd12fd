import { X509Certificate, createPrivateKey } from 'node:crypto';
import { Json, asArray, asObject, asString, dig, objectMeta } from '../manifests/json';
import { CheckIssue } from './issue';
import { secretValues } from './operator-config';

/** The PEM certificates in a value, parsed; `bad` counts blocks that do not parse. @internal */
export function pemCertificates(pem: string): { certs: X509Certificate[]; bad: number } {
  const blocks = pem.match(/-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g) ?? [];
  const certs: X509Certificate[] = [];
  let bad = 0;
  for (const b of blocks) {
    try {
      certs.push(new X509Certificate(b));
    } catch {
      bad++;
    }
  }
  return { certs, bad };
}

/**
 * Class 8: a TLS Secret's contents as the operator reads them (cloudnative-pg v1.30.0
 * internal/controller/plugin_controller.go reconcile: tls.X509KeyPair on the client Secret,
 * AppendCertsFromPEM on the server Secret's tls.crt). `needsKey` is true for the client Secret.
 * @internal
 */
export function checkTlsSecret(secret: Json, needsKey: boolean): CheckIssue[] {
  const issues: CheckIssue[] = [];
  // A Secret with neither data nor stringData is a placeholder that cert-manager or another
  // controller fills at run time: nothing to read yet.
  if (asObject(secret.data) === undefined && asObject(secret.stringData) === undefined) return issues;
  const values = secretValues(secret);
  const name = objectMeta(secret).name;
  // a data value the API server cannot decode is CNPGI115's: the Secret never exists
  const data = asObject(secret.data) ?? {};
  const undecodable = (k: string): boolean =>
    data[k] !== undefined &&
    data[k] !== null &&
    asObject(secret.stringData)?.[k] === undefined &&
    (typeof data[k] !== 'string' || goBase64Error(data[k] as string) >= 0);
  const crt = undecodable('tls.crt') ? 'skip' : values['tls.crt'];
  if (crt === 'skip') {
    // reported by CNPGI115
  } else if (crt === undefined || crt === '') {
    issues.push({
      severity: 'error',
      path: 'data.tls.crt',
      message: `Secret '${name}' has ${crt === undefined ? 'no' : 'an empty'} tls.crt; the operator reads ${needsKey ? 'its client pair from tls.crt + tls.key' : 'the server root from tls.crt'}, never ca.crt, and reports ${needsKey ? 'InvalidClientCertificate' : 'InvalidServerCertificate'}`,
      fix: 'store the PEM certificate (and key) under tls.crt and tls.key: let cert-manager write the Secret, or create it with kubectl create secret tls',
    });
  } else {
    const { certs, bad } = pemCertificates(crt);
    if (certs.length === 0 || bad > 0) {
      issues.push({
        severity: 'error',
        path: 'data.tls.crt',
        message: `Secret '${name}' tls.crt ${certs.length === 0 && bad === 0 ? 'holds no PEM certificate' : 'holds a PEM block that does not parse as a certificate'}; the operator reports InvalidClientCertificate/InvalidServerCertificate`,
        fix: 'store the PEM certificate (base64 of the PEM text under data, or the PEM itself under stringData)',
      });
    }
  }
  if (needsKey && !undecodable('tls.key')) {
    const key = values['tls.key'];
    let ok = key !== undefined && key !== '';
    if (ok) {
      try {
        createPrivateKey(key);
      } catch {
        ok = false;
      }
    }
    if (!ok)
      issues.push({
        severity: 'error',
        path: 'data.tls.key',
        message: `Secret '${name}' has no usable tls.key; tls.X509KeyPair fails and the plugin is not registered`,
        fix: 'store the PEM private key matching tls.crt under tls.key',
      });
  }
  return issues;
}

/**
 * Class 8: a file a plugin flag names (`--client-cert=/client/ca.crt`) must exist in the Secret
 * mounted there (`findSecret` looks a Secret up by name in the pod's namespace). Returns the
 * issue with a fix that fits what the Secret holds.
 * @internal
 */
export function checkFlagFile(flag: string, filePath: string, podSpec: Json, container: Json, findSecret: (name: string) => Json | undefined): CheckIssue[] {
  const mounts = asArray(container.volumeMounts).map((m) => asObject(m) ?? {});
  const mount = mounts.find((m) => typeof m.mountPath === 'string' && filePath.startsWith(`${String(m.mountPath).replace(/\/$/, '')}/`));
  if (!mount) return [];
  const volume = asArray(podSpec.volumes)
    .map((v) => asObject(v) ?? {})
    .find((v) => v.name === mount.name);
  const secretName = asString(dig(volume, 'secret', 'secretName'));
  if (!secretName) return [];
  const secret = findSecret(secretName);
  // absent, or a placeholder (no data, no stringData) that a controller fills at run time
  if (!secret || (asObject(secret.data) === undefined && asObject(secret.stringData) === undefined)) return [];
  const rel = filePath.slice(String(mount.mountPath).replace(/\/$/, '').length + 1);
  const items = asArray(dig(volume, 'secret', 'items')).map((i) => asObject(i) ?? {});
  const key = items.length ? asString(items.find((i) => i.path === rel)?.key) : rel;
  const values = secretValues(secret);
  if (key !== undefined && values[key] !== undefined) return [];
  const held = Object.keys(values).sort();
  const suggestion =
    rel === 'ca.crt' && held.includes('tls.crt')
      ? `point ${flag} at ${String(mount.mountPath).replace(/\/$/, '')}/tls.crt (right for a self-signed client certificate), or add ca.crt holding the client's issuer to the Secret`
      : `point ${flag} at one of the keys the Secret holds (${held.join(', ') || 'none'}), or add '${rel}' to it`;
  return [
    {
      severity: 'error',
      path: `spec.template.spec.containers[${asString(container.name) ?? ''}].args`,
      message: `${flag}=${filePath} names ${key === undefined ? 'a path the volume items do not map' : `key '${key}'`}, which Secret '${secretName}' does not hold (it has ${held.join(', ') || 'no keys'}); the plugin cannot read the file`,
      fix: suggestion,
    },
  ];
}

const B64 = new Uint8Array(256).fill(0xff);
'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'.split('').forEach((c, i) => {
  B64[c.charCodeAt(0)] = i;
});

/**
 * Where Go's `base64.StdEncoding.Decode` fails on `text`, as the byte offset its
 * `CorruptInputError` names, or -1 when it decodes. Go's rules: the standard alphabet, `=`
 * padding required to a multiple of four, `\r` and `\n` skipped anywhere, nothing after the
 * padding but newlines, and non-zero trailing bits accepted (the encoding is not strict).
 * @internal
 */
export function goBase64Error(text: string): number {
  const src = Buffer.from(text, 'utf8');
  let si = 0;
  const skipNewlines = (): void => {
    while (si < src.length && (src[si] === 0x0a || src[si] === 0x0d)) si++;
  };
  while (true) {
    for (let j = 0; j < 4; j++) {
      skipNewlines();
      if (si === src.length) {
        if (j === 0) return -1;
        return si - j; // an incomplete quantum: StdEncoding requires padding
      }
      const c = src[si++];
      if (B64[c] !== 0xff) continue;
      if (c !== 0x3d) return si - 1; // not in the alphabet
      // padding: only in the last two places of a quantum, and then only newlines may follow
      if (j < 2) return si - 1;
      if (j === 2) {
        skipNewlines();
        if (si === src.length) return src.length;
        if (src[si] !== 0x3d) return si - 1;
        si++;
      }
      skipNewlines();
      return si < src.length ? si : -1;
    }
  }
}

const MAX_SECRET_SIZE = 1024 * 1024;
const CONFIG_KEY = /^[-._a-zA-Z0-9]+$/;

/**
 * A whole value that is a vals secret reference, `ref+BACKEND://PATH` or `secretref+...`, as vals
 * finds them (helmfile/vals v0.46.0 pkg/expansion/expand_match.go `DefaultRefRegexp`): text that
 * vals replaces with the secret before anything is applied.
 */
const VALS_REFERENCE = /^(?:secret)?ref\+[^+:]*:\/\/[^+\n ]+[^+\n ",]\+?$/;

/**
 * Class 8: what the API server does with a Secret before anyone reads it. `data` values are
 * `[]byte`, decoded from JSON strings with Go's `base64.StdEncoding` (kubernetes-sigs/json
 * internal/golang/encoding/json/decode.go literalStore, used by apimachinery v0.32.13
 * pkg/runtime/serializer/json/json.go Serializer.unmarshal): a value that is not valid base64,
 * or not a string, makes the request fail before validation. Then `ValidateSecret`: every key
 * (of `data` and `stringData`, merged) a config key (apimachinery v0.32.13
 * pkg/util/validation/validation.go IsConfigMapKey), at most 1 MiB in all, and a
 * `kubernetes.io/tls` Secret holding both `tls.crt` and `tls.key`.
 * @internal
 */
export function checkSecretData(secret: Json): CheckIssue[] {
  const issues: CheckIssue[] = [];
  const name = objectMeta(secret).name;
  const data = asObject(secret.data) ?? {};
  const stringData = asObject(secret.stringData) ?? {};
  let size = 0;
  for (const [key, value] of Object.entries(data)) {
    if (value === null || value === undefined) continue;
    if (typeof value !== 'string') {
      issues.push({
        severity: 'error',
        path: `data.${key}`,
        message: `Secret '${name}' data '${key}' is a ${Array.isArray(value) ? 'list' : typeof value}, not a base64 string; the API server cannot decode the object and refuses it`,
        fix: 'write the base64 of the value as a string, or the plain value under stringData',
      });
      continue;
    }
    const at = goBase64Error(value);
    if (at >= 0 && VALS_REFERENCE.test(value)) {
      // a template that vals (or a tool built on it) renders before anything is applied
      issues.push({
        severity: 'warning',
        path: `data.${key}`,
        message: `Secret '${name}' data '${key}' is a vals reference ('${value.slice(0, value.indexOf('://') + 3)}...'), not base64: vals replaces it before the Secret is applied; applied as it is, the API server refuses the object (illegal base64 data at input byte ${at})`,
        fix: 'apply what `vals eval` renders, not this file; the doctor can read that output (`vals eval -f FILE | cnpg-i-doctor -`)',
      });
      continue;
    }
    if (at >= 0) {
      issues.push({
        severity: 'error',
        path: `data.${key}`,
        message: `Secret '${name}' data '${key}' is not valid base64 (illegal base64 data at input byte ${at}); the API server decodes data values as standard padded base64 and refuses the object`,
        fix: `write base64 of the value (e.g. \`base64 -w0 < file\`), or move the plain text to stringData.${key}`,
      });
      continue;
    }
    size += Buffer.from(value, 'base64').length;
  }
  for (const value of Object.values(stringData)) if (typeof value === 'string') size += Buffer.byteLength(value, 'utf8');
  for (const [field, map] of [
    ['data', data],
    ['stringData', stringData],
  ] as const) {
    for (const key of Object.keys(map)) {
      const why =
        key.length > 253
          ? 'is longer than 253 characters'
          : !CONFIG_KEY.test(key)
            ? "holds characters other than letters, digits, '-', '_' and '.'"
            : key === '.' || key === '..'
              ? `is '${key}'`
              : key.startsWith('..')
                ? "starts with '..'"
                : undefined;
      if (why)
        issues.push({
          severity: 'error',
          path: `${field}.${key}`,
          message: `Secret '${name}' key '${key}' ${why}; the API server refuses the Secret (a key becomes a file name)`,
          fix: 'rename the key, e.g. tls.crt or ca-bundle.pem',
        });
    }
  }
  if (size > MAX_SECRET_SIZE) {
    issues.push({
      severity: 'error',
      path: 'data',
      message: `Secret '${name}' holds ${size} bytes, over the 1 MiB limit; the API server refuses it`,
      fix: 'split the data over several Secrets',
    });
  }
  if (secret.type === 'kubernetes.io/tls') {
    const keys = new Set([...Object.keys(data), ...Object.keys(stringData)]);
    const missing = ['tls.crt', 'tls.key'].filter((k) => !keys.has(k));
    if (missing.length) {
      issues.push({
        severity: 'error',
        path: 'data',
        message: `Secret '${name}' has type kubernetes.io/tls but no ${missing.join(' and no ')}; the API server refuses it`,
        fix: 'add both keys (kubectl create secret tls writes them), or use type Opaque',
      });
    }
  }
  return issues;
}
