import { X509Certificate, createPrivateKey } from 'node:crypto';
import { FidelityIssue, Obj, arr, at, meta, obj, str } from './issue';
import { secretValues } from './operator-config';

/** The PEM certificates in a value, parsed; `bad` counts blocks that do not parse. @internal */
export function pemCertificates(pem: string): { certs: X509Certificate[]; bad: number } {
  const blocks = pem.match(/-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g) ?? [];
  const certs: X509Certificate[] = [];
  let bad = 0;
  for (const b of blocks) {
    try { certs.push(new X509Certificate(b)); } catch { bad++; }
  }
  return { certs, bad };
}

/**
 * Class 8: a TLS Secret's contents as the operator reads them (cloudnative-pg v1.30.0
 * internal/controller/plugin_controller.go reconcile: tls.X509KeyPair on the client Secret,
 * AppendCertsFromPEM on the server Secret's tls.crt). `needsKey` is true for the client Secret.
 * @internal
 */
export function checkTlsSecret(secret: Obj, needsKey: boolean): FidelityIssue[] {
  const issues: FidelityIssue[] = [];
  const values = secretValues(secret);
  const name = meta(secret).name;
  const crt = values['tls.crt'];
  if (crt === undefined || crt === '') {
    issues.push({ severity: 'error', path: 'data.tls.crt', message: `Secret '${name}' has ${crt === undefined ? 'no' : 'an empty'} tls.crt; the operator cannot load the plugin's TLS material`, fix: 'let cert-manager write the Secret, or create it with kubectl create secret tls' });
  } else {
    const { certs, bad } = pemCertificates(crt);
    if (certs.length === 0 || bad > 0) {
      issues.push({ severity: 'error', path: 'data.tls.crt', message: `Secret '${name}' tls.crt ${certs.length === 0 && bad === 0 ? 'holds no PEM certificate' : 'holds a PEM block that does not parse as a certificate'}; the operator reports InvalidClientCertificate/InvalidServerCertificate`, fix: 'store the PEM certificate (base64 of the PEM text under data, or the PEM itself under stringData)' });
    }
  }
  if (needsKey) {
    const key = values['tls.key'];
    let ok = key !== undefined && key !== '';
    if (ok) { try { createPrivateKey(key); } catch { ok = false; } }
    if (!ok) issues.push({ severity: 'error', path: 'data.tls.key', message: `Secret '${name}' has no usable tls.key; tls.X509KeyPair fails and the plugin is not registered`, fix: 'store the PEM private key matching tls.crt under tls.key' });
  }
  return issues;
}

/**
 * Class 8: a file a plugin flag names (`--client-cert=/client/ca.crt`) must exist in the Secret
 * mounted there (`findSecret` looks a Secret up by name in the pod's namespace). Returns the
 * issue with a fix that fits what the Secret holds.
 * @internal
 */
export function checkFlagFile(flag: string, filePath: string, podSpec: Obj, container: Obj, findSecret: (name: string) => Obj | undefined): FidelityIssue[] {
  const mounts = arr(container.volumeMounts).map((m) => obj(m) ?? {});
  const mount = mounts.find((m) => typeof m.mountPath === 'string' && filePath.startsWith(`${String(m.mountPath).replace(/\/$/, '')}/`));
  if (!mount) return [];
  const volume = arr(podSpec.volumes).map((v) => obj(v) ?? {}).find((v) => v.name === mount.name);
  const secretName = str(at(volume, 'secret', 'secretName'));
  if (!secretName) return [];
  const secret = findSecret(secretName);
  if (!secret) return [];
  const rel = filePath.slice(String(mount.mountPath).replace(/\/$/, '').length + 1);
  const items = arr(at(volume, 'secret', 'items')).map((i) => obj(i) ?? {});
  const key = items.length ? str(items.find((i) => i.path === rel)?.key) : rel;
  const values = secretValues(secret);
  if (key !== undefined && values[key] !== undefined) return [];
  const held = Object.keys(values).sort();
  const suggestion = rel === 'ca.crt' && held.includes('tls.crt')
    ? `point ${flag} at ${String(mount.mountPath).replace(/\/$/, '')}/tls.crt (right for a self-signed client certificate), or add ca.crt holding the client's issuer to the Secret`
    : `point ${flag} at one of the keys the Secret holds (${held.join(', ') || 'none'}), or add '${rel}' to it`;
  return [{
    severity: 'error', path: `spec.template.spec.containers[${str(container.name) ?? ''}].args`,
    message: `${flag}=${filePath} names ${key === undefined ? 'a path the volume items do not map' : `key '${key}'`}, which Secret '${secretName}' does not hold (it has ${held.join(', ') || 'no keys'}); the plugin cannot read the file`,
    fix: suggestion,
  }];
}
