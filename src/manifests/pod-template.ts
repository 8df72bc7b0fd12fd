/*
 * Reading pod specs the way the kubelet and the plugin binaries do: which container listens
 * where, which file a flag names, which Secret key that file comes from.
 */
import { dig, objectsOf, asArray, asString, asObject, Json } from './json';

/** A container of a pod spec, with its field path. */
export interface ContainerRef {
  readonly container: Json;
  readonly name: string;
  /** e.g. `containers[0]` */
  readonly path: string;
  /** `containers`, `initContainers` or `ephemeralContainers` */
  readonly list: string;
}

/** The regular containers (and native sidecars: init containers with `restartPolicy: Always`). */
export function runningContainers(spec: Json): ContainerRef[] {
  const out: ContainerRef[] = [];
  for (const { item, i } of objectsOf(spec.containers)) {
    out.push({ container: item, name: asString(item.name) ?? `#${i}`, path: `containers[${i}]`, list: 'containers' });
  }
  for (const { item, i } of objectsOf(spec.initContainers)) {
    if (item.restartPolicy === 'Always') {
      out.push({ container: item, name: asString(item.name) ?? `#${i}`, path: `initContainers[${i}]`, list: 'initContainers' });
    }
  }
  return out;
}

/** Every container of any kind. */
export function allContainers(spec: Json): ContainerRef[] {
  const out: ContainerRef[] = [];
  for (const list of ['containers', 'initContainers', 'ephemeralContainers']) {
    for (const { item, i } of objectsOf(spec[list])) {
      out.push({ container: item, name: asString(item.name) ?? `#${i}`, path: `${list}[${i}]`, list });
    }
  }
  return out;
}

/** The command line (command then args), string items only. */
export function commandLine(container: Json): string[] {
  return [...asArray(container.command), ...asArray(container.args)].filter((a): a is string => typeof a === 'string');
}

/**
 * The value of a Go-style flag (`--name=value`, `-name=value`, `--name value`), the last one
 * winning as with Go's flag package; undefined when absent.
 */
export function flagValue(argv: readonly string[], name: string): string | undefined {
  let value: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    for (const prefix of [`--${name}`, `-${name}`]) {
      if (a === prefix && i + 1 < argv.length) value = argv[i + 1];
      else if (a.startsWith(`${prefix}=`)) value = a.slice(prefix.length + 1);
    }
  }
  return value;
}

/** The literal value of an environment variable (undefined if absent or not a literal). */
export function envValue(container: Json, name: string): { value?: string; fromRef: boolean } | undefined {
  let found: { value?: string; fromRef: boolean } | undefined;
  for (const { item } of objectsOf(container.env)) {
    if (item.name !== name) continue;
    const v = asString(item.value);
    found = v !== undefined ? { value: v, fromRef: false } : { fromRef: item.valueFrom !== undefined };
  }
  return found;
}

/** A container port declaration. */
export interface DeclaredPort {
  readonly containerPort: number;
  readonly name?: string;
}

/** The container's declared ports. */
export function declaredPorts(container: Json): DeclaredPort[] {
  const out: DeclaredPort[] = [];
  for (const { item } of objectsOf(container.ports)) {
    if (typeof item.containerPort === 'number') out.push({ containerPort: item.containerPort, name: asString(item.name) });
  }
  return out;
}

/** Where a file inside a container comes from. */
export type FileSource =
  | { readonly type: 'secret'; readonly secretName: string; readonly key: string; readonly volume: string }
  | { readonly type: 'volume'; readonly volume: string; readonly volumeType: string }
  | { readonly type: 'image' };

function normalizePath(p: string): string {
  const parts: string[] = [];
  for (const seg of p.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') parts.pop();
    else parts.push(seg);
  }
  return '/' + parts.join('/');
}

/** The volumes of a pod spec by name. */
export function volumesByName(spec: Json): Map<string, Json> {
  const out = new Map<string, Json>();
  for (const { item } of objectsOf(spec.volumes)) {
    const n = asString(item.name);
    if (n) out.set(n, item);
  }
  return out;
}

/** The Secret names a volume projects (a `secret` volume or `projected` secret sources). */
export function secretsOfVolume(volume: Json): string[] {
  const out: string[] = [];
  const s = asString(dig(volume, 'secret', 'secretName'));
  if (s) out.push(s);
  for (const { item } of objectsOf(dig(volume, 'projected', 'sources'))) {
    const n = asString(dig(item, 'secret', 'name'));
    if (n) out.push(n);
  }
  return out;
}

/** Maps a path relative to a volume's root to the Secret key behind it, if any. */
function secretKeyAt(volume: Json, relative: string): { secretName: string; key: string } | undefined {
  const secret = asObject(volume.secret);
  if (secret) {
    const secretName = asString(secret.secretName);
    if (!secretName) return undefined;
    const items = objectsOf(secret.items);
    if (items.length === 0) return relative.includes('/') ? undefined : { secretName, key: relative };
    for (const { item } of items) {
      if (asString(item.path) !== undefined && normalizePath(asString(item.path)!) === normalizePath(relative)) {
        const k = asString(item.key);
        if (k) return { secretName, key: k };
      }
    }
    return undefined;
  }
  for (const { item: source } of objectsOf(dig(volume, 'projected', 'sources'))) {
    const s = asObject(source.secret);
    const secretName = asString(s?.name);
    if (!s || !secretName) continue;
    const items = objectsOf(s.items);
    if (items.length === 0) {
      // without items every key lands at the root; a name clash between sources is the user's problem
      if (!relative.includes('/')) return { secretName, key: relative };
      continue;
    }
    for (const { item } of items) {
      if (asString(item.path) !== undefined && normalizePath(asString(item.path)!) === normalizePath(relative)) {
        const k = asString(item.key);
        if (k) return { secretName, key: k };
      }
    }
  }
  return undefined;
}

function volumeType(volume: Json): string {
  return Object.keys(volume).find((k) => k !== 'name') ?? 'unknown';
}

/**
 * Resolves an absolute file path inside a container to the volume (and Secret key) that
 * provides it, using the longest matching mount as the kubelet does.
 */
export function resolveFile(spec: Json, container: Json, file: string): FileSource {
  if (!file.startsWith('/')) return { type: 'image' };
  const target = normalizePath(file);
  const volumes = volumesByName(spec);
  let best: { mount: Json; mountPath: string } | undefined;
  for (const { item: mount } of objectsOf(container.volumeMounts)) {
    const mp = asString(mount.mountPath);
    if (!mp) continue;
    const mountPath = normalizePath(mp);
    const inside = target === mountPath || target.startsWith(mountPath === '/' ? '/' : mountPath + '/');
    if (inside && (!best || mountPath.length > best.mountPath.length)) best = { mount, mountPath };
  }
  if (!best) return { type: 'image' };
  const volumeName = asString(best.mount.name) ?? '';
  const volume = volumes.get(volumeName);
  if (!volume) return { type: 'volume', volume: volumeName, volumeType: 'missing' };
  const subPath = asString(best.mount.subPath);
  let relative = target === best.mountPath ? '' : target.slice(best.mountPath === '/' ? 1 : best.mountPath.length + 1);
  if (subPath) relative = relative ? `${subPath}/${relative}` : subPath;
  const secretKey = relative ? secretKeyAt(volume, relative) : undefined;
  if (secretKey) return { type: 'secret', volume: volumeName, ...secretKey };
  return { type: 'volume', volume: volumeName, volumeType: volumeType(volume) };
}

/** The port of a Go listen address such as `:9090` or `0.0.0.0:9090`. */
export function portOfAddress(address: string): number | undefined {
  const m = /:(\d+)$/.exec(address);
  if (!m) return undefined;
  const n = Number(m[1]);
  return n >= 1 && n <= 65535 ? n : undefined;
}
