/*
 * The one fact about a sidecar plugin that the operator Deployment does not otherwise carry:
 * which plugin a sidecar container serves (the socket's file name is chosen by the plugin at run
 * time). `SidecarPlugin` writes it into an annotation of the operator Deployment, and the doctor
 * reads it back from any manifests, so the synthesized output describes itself. In the ground
 * layer so that both can reach it.
 */
import { asObject, asString, dig } from './json';

/**
 * The annotation of the operator Deployment that names its sidecar plugins: a JSON list of
 * `{"container": <container name>, "plugin": <plugin name>, "socket": <socket path>}`, one per
 * sidecar container, sorted by container. The operator does not read it; the doctor does.
 */
export const SIDECAR_PLUGINS_ANNOTATION = 'cnpg-i.dev/sidecar-plugins';

/** One sidecar plugin as the annotation names it. */
export interface SidecarPluginEntry {
  /** The sidecar container's name. */
  readonly container: string;
  /** The plugin's name, which is the socket's file name. */
  readonly plugin: string;
  /** The socket's path: `<socket directory>/<plugin>`. */
  readonly socket: string;
}

/** The annotation's value for these sidecars: compact JSON, sorted by container, so output is deterministic. */
export function formatSidecarPlugins(entries: readonly SidecarPluginEntry[]): string {
  const sorted = [...entries].sort((a, b) => (a.container < b.container ? -1 : a.container > b.container ? 1 : 0));
  return JSON.stringify(sorted.map((e) => ({ container: e.container, plugin: e.plugin, socket: e.socket })));
}

/** What an object's sidecar plugins annotation says. */
export type SidecarPluginsReading =
  { readonly ok: true; readonly entries: readonly SidecarPluginEntry[] } | { readonly ok: false; readonly value: unknown; readonly problem: string };

/** The example quoted when the annotation cannot be read. */
export const SIDECAR_PLUGINS_EXAMPLE =
  '[{"container":"hello","plugin":"cnpg-i-hello-world.cloudnative-pg.io","socket":"/plugins/cnpg-i-hello-world.cloudnative-pg.io"}]';

/**
 * Reads the sidecar plugins annotation of a manifest; undefined when it has none. Keys other
 * than `container`, `plugin` and `socket` are ignored, so later versions can add some.
 */
export function readSidecarPluginsAnnotation(raw: unknown): SidecarPluginsReading | undefined {
  const annotations = asObject(dig(raw, 'metadata', 'annotations'));
  if (!annotations || !Object.prototype.hasOwnProperty.call(annotations, SIDECAR_PLUGINS_ANNOTATION)) return undefined;
  return parseSidecarPlugins(annotations[SIDECAR_PLUGINS_ANNOTATION]);
}

/** What the annotation's value says, read as {@link readSidecarPluginsAnnotation} reads it. */
export function parseSidecarPlugins(value: unknown): SidecarPluginsReading {
  const text = asString(value);
  if (text === undefined) return { ok: false, value, problem: 'is not a string' };
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { ok: false, value, problem: 'is not JSON' };
  }
  if (!Array.isArray(parsed)) return { ok: false, value, problem: 'is not a JSON list' };
  const entries: SidecarPluginEntry[] = [];
  for (const [i, item] of parsed.entries()) {
    const o = asObject(item);
    const field = (k: string) => {
      const v = o?.[k];
      return typeof v === 'string' && v.length > 0 ? v : undefined;
    };
    const container = field('container');
    const plugin = field('plugin');
    const socket = field('socket');
    if (container === undefined || plugin === undefined || socket === undefined) {
      const missing = ['container', 'plugin', 'socket'].filter((k) => field(k) === undefined);
      return { ok: false, value, problem: `has an entry ${i} without a non-empty string ${missing.join(', ')}` };
    }
    if (entries.some((e) => e.container === container)) return { ok: false, value, problem: `names container '${container}' twice` };
    entries.push({ container, plugin, socket });
  }
  return { ok: true, entries };
}
