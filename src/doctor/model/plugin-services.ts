/*
 * Plugin Services, read as the operator's plugin controller reads them
 * (cloudnative-pg internal/controller/plugin_controller.go and plugin_predicates.go): the model
 * side. The rules that judge what is read live in `rules/plugin-service-*` folders.
 */
import { supportsPluginServerName } from '../../checks/cnpg-version';
import type { Version } from '../../checks/cnpg-version';
import { stringMap, dig, asObject, Json } from '../../manifests/json';
import { Manifest, PodTemplate } from '../../manifests/manifest-index';
import type { ManifestIndex } from '../../manifests/manifest-index';
import { editDistance } from '../../manifests/nearest-name';

/** The label and annotation keys of a plugin Service. */
export const PLUGIN_KEYS = {
  name: 'cnpg.io/pluginName',
  port: 'cnpg.io/pluginPort',
  clientSecret: 'cnpg.io/pluginClientSecret',
  serverSecret: 'cnpg.io/pluginServerSecret',
  serverName: 'cnpg.io/pluginServerName',
} as const;

/** A plugin key: `name` (the label), `port`, `clientSecret`, `serverSecret`, `serverName` (the annotations). */
export type PluginKeyId = keyof typeof PLUGIN_KEYS;
/** The plugin keys: the label, then the annotations. */
export const PLUGIN_KEY_IDS = Object.keys(PLUGIN_KEYS) as PluginKeyId[];

function normalizeKey(k: string): string {
  return k.toLowerCase().replace(/[^a-z0-9]/g, '');
}
const NORMALIZED = new Map<PluginKeyId, string>(PLUGIN_KEY_IDS.map((id) => [id, normalizeKey(PLUGIN_KEYS[id])]));

/** Which plugin key a near-miss spelling was meant to be, if any. */
export function nearMissOf(k: string): PluginKeyId | undefined {
  if (PLUGIN_KEY_IDS.some((id) => PLUGIN_KEYS[id] === k)) return undefined;
  const n = normalizeKey(k);
  // the upstream docs name the label `cnpg.io/plugin`
  if (n === 'cnpgioplugin' || n === 'cnpgioplugins') return 'name';
  let best: { id: PluginKeyId; d: number } | undefined;
  for (const id of PLUGIN_KEY_IDS) {
    const target = NORMALIZED.get(id)!;
    if (n === target) return id;
    if (!n.startsWith('cnpg') && !n.includes('plugin')) continue;
    const d = editDistance(n, target, 2, { transpositions: false });
    if (d <= 2 && (!best || d < best.d)) best = { id, d };
  }
  return best?.id;
}

/** Go's strconv.Atoi accepts an optional sign and decimal digits. */
function parsePort(value: string): number | undefined {
  if (!/^[+-]?\d{1,10}$/.test(value)) return undefined;
  return Number(value);
}

/** One plugin key (the label or an annotation) as a Service holds it. */
export interface PluginKeyReading {
  /** Whether the key is where the operator reads it: the name under the labels, the rest under the annotations. */
  readonly present: boolean;
  /** The value found there, whatever its type (a YAML number, null, a list). */
  readonly value?: unknown;
  /** Whether the key is set in the other map (the name as an annotation, the rest as labels). */
  readonly elsewhere: boolean;
  /** A key of either map that looks like a misspelling of this one. */
  readonly nearMiss?: { readonly key: string; readonly where: 'label' | 'annotation' };
}

/**
 * Reads a Service as the operator would: each plugin key where it is and with what value, the
 * usable (non-empty string) values and the port; undefined when it does not look like a plugin
 * Service (no plugin key, not even misspelled). The rules of the plugin-service-keys family
 * judge what is read.
 */
export function readPluginService(ctx: PluginServiceContext, svc: Manifest): PluginServiceInfo | undefined {
  const labelsRaw = asObject(dig(svc.raw, 'metadata', 'labels')) ?? {};
  const annotationsRaw = asObject(dig(svc.raw, 'metadata', 'annotations')) ?? {};
  const has = (o: Json, k: string) => Object.prototype.hasOwnProperty.call(o, k);
  const nearMisses: Array<{ key: string; where: 'label' | 'annotation'; id: PluginKeyId }> = [];
  for (const [where, map] of [
    ['label', labelsRaw],
    ['annotation', annotationsRaw],
  ] as const) {
    for (const k of Object.keys(map)) {
      const id = nearMissOf(k);
      if (id) nearMisses.push({ key: k, where, id });
    }
  }
  const exactAnywhere = PLUGIN_KEY_IDS.some((id) => has(labelsRaw, PLUGIN_KEYS[id]) || has(annotationsRaw, PLUGIN_KEYS[id]));
  if (!exactAnywhere && nearMisses.length === 0) return undefined;

  const keys = {} as Record<PluginKeyId, PluginKeyReading>;
  const values: Partial<Record<PluginKeyId, string>> = {};
  for (const id of PLUGIN_KEY_IDS) {
    const k = PLUGIN_KEYS[id];
    // where each key must be: the name is a label, the rest are annotations
    const home = id === 'name' ? labelsRaw : annotationsRaw;
    const away = id === 'name' ? annotationsRaw : labelsRaw;
    const miss = nearMisses.find((n) => n.id === id);
    const present = has(home, k);
    keys[id] = {
      present,
      ...(present ? { value: home[k] } : {}),
      elsewhere: has(away, k),
      ...(miss ? { nearMiss: { key: miss.key, where: miss.where } } : {}),
    };
    const v = home[k];
    if (present && typeof v === 'string' && v.length > 0) values[id] = v;
  }

  const parsedPort = values.port === undefined ? undefined : parsePort(values.port);
  const port = parsedPort !== undefined && parsedPort >= 1 && parsedPort <= 65535 ? parsedPort : undefined;
  const inOperatorNamespace = svc.namespace === ctx.operatorNamespace;
  const verifiedName = values.serverName !== undefined && supportsPluginServerName(ctx.version) ? values.serverName : svc.name;
  const templates = podTemplatesBehind(ctx, svc);

  return {
    service: svc,
    pluginName: values.name,
    portAnnotation: values.port,
    parsedPort,
    port,
    clientSecret: values.clientSecret,
    serverSecret: values.serverSecret,
    serverNameAnnotation: values.serverName,
    verifiedName,
    valid: values.name !== undefined && port !== undefined && values.clientSecret !== undefined && values.serverSecret !== undefined,
    inOperatorNamespace,
    templates,
    keys,
  };
}

/**
 * The pod templates a Service selects (none for ExternalName or without a selector). A selector
 * that matches more than a few workloads is already wrong; keeping the first ones keeps a
 * pathological input (one selector over thousands of Deployments) linear.
 */
export function podTemplatesBehind(ctx: PluginServiceContext, svc: Manifest): PodTemplate[] {
  const spec = asObject(dig(svc.raw, 'spec')) ?? {};
  if (spec.type === 'ExternalName') return [];
  const selector = stringMap(spec.selector);
  return Object.keys(selector).length > 0 ? ctx.index.podTemplatesSelected(svc.namespace, selector).slice(0, 25) : [];
}

/** A Service that looks like a plugin Service, as the operator would read it. */
export interface PluginServiceInfo {
  readonly service: Manifest;
  /** `cnpg.io/pluginName`, when a non-empty string. */
  readonly pluginName?: string;
  /** `cnpg.io/pluginPort`, when a non-empty string (whether or not it is a port). */
  readonly portAnnotation?: string;
  /** `cnpg.io/pluginPort` read as the operator's `strconv.Atoi` reads it; undefined when it is no integer. */
  readonly parsedPort?: number;
  /** The port the operator dials: `parsedPort` when it is a TCP port (1 to 65535). */
  readonly port?: number;
  readonly clientSecret?: string;
  readonly serverSecret?: string;
  /** `cnpg.io/pluginServerName`, when a non-empty string. */
  readonly serverNameAnnotation?: string;
  /** The name the operator verifies (depends on the CNPG version). */
  readonly verifiedName: string;
  /** All of label and the three annotations usable. */
  readonly valid: boolean;
  /** In the operator namespace. */
  readonly inOperatorNamespace: boolean;
  /** Pod templates behind its selector (at most 25). */
  readonly templates: PodTemplate[];
  /** How the Service holds each plugin key: where, with which value, or a near-miss spelling. */
  readonly keys: Readonly<Record<PluginKeyId, PluginKeyReading>>;
}

/** What the plugin Service readers read of the doctor's model. */
export interface PluginServiceContext {
  readonly index: ManifestIndex;
  readonly operatorNamespace: string;
  readonly version: Version;
}
