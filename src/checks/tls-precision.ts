import { isIP } from 'node:net';

/**
 * Go's `(*x509.Certificate).VerifyHostname` for the operator's `ServerName` (Go 1.23
 * crypto/x509/verify.go VerifyHostname, validHostname, matchHostnames, matchExactly):
 * - an IP server name is compared with the IP SANs only;
 * - a DNS server name loses one trailing dot; SANs are patterns that must be valid host names
 *   (a trailing dot makes one invalid, and an invalid pattern only matches an identical
 *   server name, case-insensitively);
 * - `*.` matches exactly one left-most label. The common name is never used.
 * @internal
 */
export function goVerifyHostname(serverName: string, dnsSans: readonly string[], ipSans: readonly string[]): boolean {
  const bare = serverName.startsWith('[') && serverName.endsWith(']') ? serverName.slice(1, -1) : serverName;
  if (isIP(bare) !== 0) {
    const want = normalizeIp(bare);
    return ipSans.some((ip) => isIP(ip) !== 0 && normalizeIp(ip) === want);
  }
  const candidate = serverName.toLowerCase();
  const validCandidate = validHostname(candidate, false);
  for (const san of dnsSans) {
    if (validCandidate && validHostname(san, true)) {
      if (matchHostnames(san.toLowerCase(), candidate)) return true;
    } else if (matchExactly(san, candidate)) {
      return true;
    }
  }
  return false;
}

function normalizeIp(ip: string): string {
  if (isIP(ip) === 4) return ip.split('.').map(Number).join('.');
  const m = /^::ffff:([0-9.]+)$/i.exec(ip);
  if (m && isIP(m[1]) === 4) return m[1];
  // Expand IPv6 to eight groups for comparison.
  const [head, tail] = ip.toLowerCase().split('::');
  const h = head ? head.split(':') : [];
  const t = tail !== undefined && tail !== '' ? tail.split(':') : [];
  const groups = tail === undefined ? h : [...h, ...Array(8 - h.length - t.length).fill('0'), ...t];
  return groups.map((g) => parseInt(g, 16).toString(16)).join(':');
}

function validHostname(host: string, isPattern: boolean): boolean {
  const h = isPattern ? host : host.replace(/\.$/, '');
  if (h.length === 0) return false;
  if (h === '*') return false;
  const parts = h.split('.');
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i];
    if (part.length === 0) return false;
    if (isPattern && i === 0 && part === '*') continue;
    for (let j = 0; j < part.length; j++) {
      const c = part[j];
      if (/[a-zA-Z0-9]/.test(c)) continue;
      if (c === '-' && j !== 0) continue;
      if (c === '_') continue;
      return false;
    }
  }
  return true;
}

function matchExactly(a: string, b: string): boolean {
  if (a === '' || a === '.' || b === '' || b === '.') return false;
  return a.toLowerCase() === b.toLowerCase();
}

function matchHostnames(pattern: string, host: string): boolean {
  const h = host.replace(/\.$/, '');
  if (pattern.length === 0 || h.length === 0) return false;
  const pp = pattern.split('.');
  const hp = h.split('.');
  if (pp.length !== hp.length) return false;
  return pp.every((p, i) => (i === 0 && p === '*') || p === hp[i]);
}

/**
 * Go-style host name match against one DNS SAN (a leftmost `*` matches one label; a SAN with a
 * trailing dot only matches an identical name).
 * @internal
 */
export function sanMatches(san: string, host: string): boolean {
  return goVerifyHostname(host, [san], []);
}
