/*
 * Plugin Services, read as the operator's plugin controller reads them
 * (cloudnative-pg internal/controller/plugin_controller.go and plugin_predicates.go): the model
 * side. The rules that judge what is read live in `rules/plugin-service-*.ts`.
 */
import { supportsPluginServerName } from '../checks/cnpg-version';
import { stringMap, dig, asObject, Json } from '../manifests/json';
import { Manifest, PodTemplate } from '../manifests/manifest-index';
import { editDistance } from '../manifests/nearest-name';
import { Severity } from './finding';
import type { DoctorModel, PluginServiceInfo } from './model';

/** The label and annotation keys of a plugin Service. */
export const PLUGIN_KEYS = {
  name: 'cnpg.io/pluginName',
  port: 'cnpg.io/pluginPort',
  clientSecret: 'cnpg.io/pluginClientSecret',
  serverSecret: 'cnpg.io/pluginServerSecret',
  serverName: 'cnpg.io/pluginServerName',
} as const;

type KeyId = keyof typeof PLUGIN_KEYS;
const KEY_IDS = Object.keys(PLUGIN_KEYS) as KeyId[];

function normalizeKey(k: string): string {
  return k.toLowerCase().replace(/[^a-z0-9]/g, '');
}
const NORMALIZED = new Map<KeyId, string>(KEY_IDS.map((id) => [id, normalizeKey(PLUGIN_KEYS[id])]));

/** Which plugin key a near-miss spelling was meant to be, if any. */
export function nearMissOf(k: string): KeyId | undefined {
  if (KEY_IDS.some((id) => PLUGIN_KEYS[id] === k)) return undefined;
  const n = normalizeKey(k);
  // the upstream docs name the label `cnpg.io/plugin`
  if (n === 'cnpgioplugin' || n === 'cnpgioplugins') return 'name';
  let best: { id: KeyId; d: number } | undefined;
  for (const id of KEY_IDS) {
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

const KEY_FIX: Record<KeyId, string> = {
  name: `label it \`${PLUGIN_KEYS.name}: <plugin name>\` under metadata.labels`,
  port: `annotate it \`${PLUGIN_KEYS.port}: "<port>"\` under metadata.annotations`,
  clientSecret: `annotate it \`${PLUGIN_KEYS.clientSecret}: <client certificate Secret>\` under metadata.annotations`,
  serverSecret: `annotate it \`${PLUGIN_KEYS.serverSecret}: <server certificate Secret>\` under metadata.annotations`,
  serverName: `annotate it \`${PLUGIN_KEYS.serverName}: <name in the server certificate>\` under metadata.annotations`,
};

/** A problem with a plugin Service's label or annotations, found while reading them. */
export interface PluginKeyProblem {
  readonly ruleId: 'CNPGI010' | 'CNPGI011' | 'CNPGI012' | 'CNPGI013';
  readonly severity: Severity;
  readonly message: string;
  readonly fix: string;
  readonly path: string;
}

/**
 * Reads a Service as the operator would; undefined when it does not look like a plugin Service
 * (no plugin key, not even misspelled).
 */
export function readPluginService(ctx: DoctorModel, svc: Manifest): PluginServiceInfo | undefined {
  const keyProblems: PluginKeyProblem[] = [];
  const problem = (ruleId: PluginKeyProblem['ruleId'], severity: Severity, message: string, fix: string, path: string) => {
    keyProblems.push({ ruleId, severity, message, fix, path });
  };
  const labelsRaw = asObject(dig(svc.raw, 'metadata', 'labels')) ?? {};
  const annotationsRaw = asObject(dig(svc.raw, 'metadata', 'annotations')) ?? {};
  const has = (o: Json, k: string) => Object.prototype.hasOwnProperty.call(o, k);
  const nearMisses: Array<{ key: string; where: 'label' | 'annotation'; id: KeyId }> = [];
  for (const [where, map] of [
    ['label', labelsRaw],
    ['annotation', annotationsRaw],
  ] as const) {
    for (const k of Object.keys(map)) {
      const id = nearMissOf(k);
      if (id) nearMisses.push({ key: k, where, id });
    }
  }
  const exactAnywhere = KEY_IDS.some((id) => has(labelsRaw, PLUGIN_KEYS[id]) || has(annotationsRaw, PLUGIN_KEYS[id]));
  if (!exactAnywhere && nearMisses.length === 0) return undefined;

  // where each key must be: the name is a label, the rest are annotations
  const home = (id: KeyId): Json => (id === 'name' ? labelsRaw : annotationsRaw);
  const away = (id: KeyId): Json => (id === 'name' ? annotationsRaw : labelsRaw);
  const homePath = (id: KeyId) => (id === 'name' ? 'metadata.labels' : 'metadata.annotations');
  const values: Partial<Record<KeyId, string>> = {};

  for (const id of KEY_IDS) {
    const k = PLUGIN_KEYS[id];
    const rule = id === 'name' ? ('CNPGI010' as const) : ('CNPGI011' as const);
    const what = id === 'name' ? 'label' : 'annotation';
    if (!has(home(id), k)) {
      const miss = nearMisses.find((n) => n.id === id);
      if (id === 'serverName') {
        if (miss) {
          problem(
            rule,
            'warning',
            `${miss.where} \`${miss.key}\` looks like a misspelling of the optional annotation \`${k}\`; the operator ignores it and verifies the short Service name '${svc.name}'`,
            `rename it to \`${k}\` (an annotation), or remove it`,
            `${miss.where === 'label' ? 'metadata.labels' : 'metadata.annotations'}.${miss.key}`,
          );
        }
        continue;
      }
      if (has(away(id), k)) {
        problem(
          rule,
          'error',
          `\`${k}\` is set as ${id === 'name' ? 'an annotation' : 'a label'}, but the operator reads it from ${id === 'name' ? 'the labels' : 'the annotations'}, so it ignores this Service`,
          `move it under ${homePath(id)}`,
          `${id === 'name' ? 'metadata.annotations' : 'metadata.labels'}.${k}`,
        );
      } else if (miss) {
        problem(
          rule,
          'error',
          `${miss.where} \`${miss.key}\` looks like a misspelling of the ${what} \`${k}\`; the operator only knows the exact key, so it ignores this Service`,
          `rename it to \`${k}\`${miss.where === (id === 'name' ? 'label' : 'annotation') ? '' : ` and move it under ${homePath(id)}`}`,
          `${miss.where === 'label' ? 'metadata.labels' : 'metadata.annotations'}.${miss.key}`,
        );
      } else {
        problem(
          rule,
          'error',
          `plugin Service has no ${what} \`${k}\`; the operator silently ignores a plugin Service missing ${id === 'name' ? 'it' : 'any of the three annotations (port, client and server Secret)'}`,
          KEY_FIX[id],
          homePath(id),
        );
      }
      continue;
    }
    const v = home(id)[k];
    const path = `${homePath(id)}.${k}`;
    if (typeof v !== 'string') {
      if (id === 'port') {
        problem(
          'CNPGI013',
          'error',
          `\`${k}\` is ${v === null ? 'null' : `a ${typeof v}`}, not a string; the API server rejects non-string ${what} values`,
          typeof v === 'number' ? `quote it: \`${k}: "${v}"\`` : KEY_FIX[id],
          path,
        );
      } else {
        problem(
          'CNPGI012',
          'error',
          `\`${k}\` is ${v === null ? 'null' : Array.isArray(v) ? 'a list' : `a ${typeof v}`}, not a string; the API server rejects non-string ${what} values`,
          KEY_FIX[id],
          path,
        );
      }
      continue;
    }
    if (v.length === 0) {
      if (id === 'serverName') {
        problem(
          'CNPGI012',
          'warning',
          `\`${k}\` is empty; the operator verifies the short Service name '${svc.name}' instead`,
          'remove the annotation or give it the name in the server certificate',
          path,
        );
        continue;
      }
      problem('CNPGI012', 'error', `\`${k}\` is empty; the operator skips a plugin Service whose ${what} is empty`, KEY_FIX[id], path);
      continue;
    }
    values[id] = v;
  }

  let port: number | undefined;
  if (values.port !== undefined) {
    const parsed = parsePort(values.port);
    if (parsed === undefined) {
      problem(
        'CNPGI013',
        'error',
        `\`${PLUGIN_KEYS.port}\` '${values.port}' is not an integer; the operator's strconv.Atoi fails and it retries forever (InvalidPortAnnotation)`,
        `write the port number only, e.g. \`${PLUGIN_KEYS.port}: "9090"\``,
        `metadata.annotations.${PLUGIN_KEYS.port}`,
      );
    } else if (parsed < 1 || parsed > 65535) {
      problem(
        'CNPGI013',
        'error',
        `\`${PLUGIN_KEYS.port}\` '${values.port}' is not a TCP port (1 to 65535)`,
        'use the port the plugin listens on, e.g. "9090"',
        `metadata.annotations.${PLUGIN_KEYS.port}`,
      );
    } else {
      port = parsed;
    }
  }

  const inOperatorNamespace = svc.namespace === ctx.operatorNamespace;
  const verifiedName = values.serverName !== undefined && supportsPluginServerName(ctx.version) ? values.serverName : svc.name;
  const templates = podTemplatesBehind(ctx, svc);

  return {
    service: svc,
    pluginName: values.name,
    port,
    clientSecret: values.clientSecret,
    serverSecret: values.serverSecret,
    serverNameAnnotation: values.serverName,
    verifiedName,
    valid: values.name !== undefined && port !== undefined && values.clientSecret !== undefined && values.serverSecret !== undefined,
    inOperatorNamespace,
    templates,
    keyProblems,
  };
}

/**
 * The pod templates a Service selects (none for ExternalName or without a selector). A selector
 * that matches more than a few workloads is already wrong; keeping the first ones keeps a
 * pathological input (one selector over thousands of Deployments) linear.
 */
export function podTemplatesBehind(ctx: DoctorModel, svc: Manifest): PodTemplate[] {
  const spec = asObject(dig(svc.raw, 'spec')) ?? {};
  if (spec.type === 'ExternalName') return [];
  const selector = stringMap(spec.selector);
  return Object.keys(selector).length > 0 ? ctx.index.podTemplatesSelected(svc.namespace, selector).slice(0, 25) : [];
}
