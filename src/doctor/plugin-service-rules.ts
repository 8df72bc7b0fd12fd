/*
 * Plugin Services, read as the operator's plugin controller reads them
 * (cloudnative-pg internal/controller/plugin_controller.go and plugin_predicates.go).
 */
import { dialsFullyQualified, supportsPluginServerName } from './cnpg-version';
import { DoctorContext, PluginServiceInfo } from './doctor-context';
import { Json, Manifest, PodTemplate, asObject, dig, objectsOf, stringMap } from './manifest-index';
import { commandLine, declaredPorts, flagValue, portOfAddress, runningContainers } from './pod-template';

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

function levenshtein(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
      rowMin = Math.min(rowMin, cur[j]);
    }
    if (rowMin > max) return max + 1;
    prev = cur;
  }
  return prev[b.length];
}

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
    const d = levenshtein(n, target, 2);
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

/**
 * Checks every Service that looks like a plugin Service (CNPGI010 to CNPGI019) and records the
 * plugin Services in the context.
 */
export function checkPluginServices(ctx: DoctorContext): void {
  for (const svc of ctx.index.ofKind('Service', '')) {
    const info = readPluginService(ctx, svc);
    if (info) ctx.pluginServices.push(info);
  }
  checkDuplicates(ctx);
  for (const info of ctx.pluginServices) {
    if (info.valid && info.inOperatorNamespace) {
      const ns = info.service.namespace!;
      const host = dialsFullyQualified(ctx.version) ? `${info.service.name}.${ns}.svc` : info.service.name;
      ctx.discover({
        name: info.pluginName!, source: 'service', object: info.service.ref, port: info.port,
        clientSecret: info.clientSecret, serverSecret: info.serverSecret, serverName: info.verifiedName,
        address: `${host}:${info.port}`,
      });
    }
  }
}

function readPluginService(ctx: DoctorContext, svc: Manifest): PluginServiceInfo | undefined {
  const labelsRaw = asObject(dig(svc.raw, 'metadata', 'labels')) ?? {};
  const annotationsRaw = asObject(dig(svc.raw, 'metadata', 'annotations')) ?? {};
  const has = (o: Json, k: string) => Object.prototype.hasOwnProperty.call(o, k);
  const nearMisses: Array<{ key: string; where: 'label' | 'annotation'; id: KeyId }> = [];
  for (const [where, map] of [['label', labelsRaw], ['annotation', annotationsRaw]] as const) {
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
    const rule = id === 'name' ? 'CNPGI010' : 'CNPGI011';
    const what = id === 'name' ? 'label' : 'annotation';
    if (!has(home(id), k)) {
      const miss = nearMisses.find((n) => n.id === id);
      if (id === 'serverName') {
        if (miss) {
          ctx.report(rule, 'warning', svc, `${miss.where} \`${miss.key}\` looks like a misspelling of the optional annotation \`${k}\`; the operator ignores it and verifies the short Service name '${svc.name}'`,
            `rename it to \`${k}\` (an annotation), or remove it`, `${miss.where === 'label' ? 'metadata.labels' : 'metadata.annotations'}.${miss.key}`);
        }
        continue;
      }
      if (has(away(id), k)) {
        ctx.report(rule, 'error', svc, `\`${k}\` is set as ${id === 'name' ? 'an annotation' : 'a label'}, but the operator reads it from ${id === 'name' ? 'the labels' : 'the annotations'}, so it ignores this Service`,
          `move it under ${homePath(id)}`, `${id === 'name' ? 'metadata.annotations' : 'metadata.labels'}.${k}`);
      } else if (miss) {
        ctx.report(rule, 'error', svc, `${miss.where} \`${miss.key}\` looks like a misspelling of the ${what} \`${k}\`; the operator only knows the exact key, so it ignores this Service`,
          `rename it to \`${k}\`${miss.where === (id === 'name' ? 'label' : 'annotation') ? '' : ` and move it under ${homePath(id)}`}`, `${miss.where === 'label' ? 'metadata.labels' : 'metadata.annotations'}.${miss.key}`);
      } else {
        ctx.report(rule, 'error', svc, `plugin Service has no ${what} \`${k}\`; the operator silently ignores a plugin Service missing ${id === 'name' ? 'it' : 'any of the three annotations (port, client and server Secret)'}`,
          KEY_FIX[id], homePath(id));
      }
      continue;
    }
    const v = home(id)[k];
    const path = `${homePath(id)}.${k}`;
    if (typeof v !== 'string') {
      if (id === 'port') {
        ctx.report('CNPGI013', 'error', svc, `\`${k}\` is ${v === null ? 'null' : `a ${typeof v}`}, not a string; the API server rejects non-string ${what} values`,
          typeof v === 'number' ? `quote it: \`${k}: "${v}"\`` : KEY_FIX[id], path);
      } else {
        ctx.report('CNPGI012', 'error', svc, `\`${k}\` is ${v === null ? 'null' : Array.isArray(v) ? 'a list' : `a ${typeof v}`}, not a string; the API server rejects non-string ${what} values`,
          KEY_FIX[id], path);
      }
      continue;
    }
    if (v.length === 0) {
      if (id === 'serverName') {
        ctx.report('CNPGI012', 'warning', svc, `\`${k}\` is empty; the operator verifies the short Service name '${svc.name}' instead`, 'remove the annotation or give it the name in the server certificate', path);
        continue;
      }
      ctx.report('CNPGI012', 'error', svc, `\`${k}\` is empty; the operator skips a plugin Service whose ${what} is empty`, KEY_FIX[id], path);
      continue;
    }
    values[id] = v;
  }

  let port: number | undefined;
  if (values.port !== undefined) {
    const parsed = parsePort(values.port);
    if (parsed === undefined) {
      ctx.report('CNPGI013', 'error', svc, `\`${PLUGIN_KEYS.port}\` '${values.port}' is not an integer; the operator's strconv.Atoi fails and it retries forever (InvalidPortAnnotation)`,
        `write the port number only, e.g. \`${PLUGIN_KEYS.port}: "9090"\``, `metadata.annotations.${PLUGIN_KEYS.port}`);
    } else if (parsed < 1 || parsed > 65535) {
      ctx.report('CNPGI013', 'error', svc, `\`${PLUGIN_KEYS.port}\` '${values.port}' is not a TCP port (1 to 65535)`,
        'use the port the plugin listens on, e.g. "9090"', `metadata.annotations.${PLUGIN_KEYS.port}`);
    } else {
      port = parsed;
    }
  }

  const inOperatorNamespace = svc.namespace === ctx.operatorNamespace;
  if (!inOperatorNamespace) {
    ctx.report('CNPGI017', 'error', svc, `plugin Service is in namespace '${svc.namespace}'${svc.namespaceAssumed ? ' (assumed: it has none)' : ''}, but the operator only watches Services in its own namespace '${ctx.operatorNamespace}'`,
      `deploy the plugin (Service, Deployment, Secrets, Certificates) in '${ctx.operatorNamespace}', or pass the right --operator-namespace`, 'metadata.namespace');
  }

  const verifiedName = values.serverName !== undefined && supportsPluginServerName(ctx.version) ? values.serverName : svc.name;
  const templates = checkPorts(ctx, svc, port);

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
  };
}

function checkDuplicates(ctx: DoctorContext): void {
  const byName = new Map<string, PluginServiceInfo[]>();
  for (const info of ctx.pluginServices) {
    if (!info.valid || !info.inOperatorNamespace) continue;
    const list = byName.get(info.pluginName!) ?? [];
    list.push(info);
    byName.set(info.pluginName!, list);
  }
  for (const [name, list] of byName) {
    if (list.length < 2) continue;
    for (const info of list) {
      const all = list.filter((o) => o !== info).map((o) => o.service.ref);
      // a name shared by thousands of Services must not make thousands of thousand-name messages
      const others = all.length > 3 ? `${all.slice(0, 3).join(', ')} and ${all.length - 3} more` : all.join(', ');
      ctx.report('CNPGI018', 'error', info.service, `plugin name '${name}' is also declared by ${others}; the operator keeps one connection per name and the last Service reconciled wins`,
        'give each plugin its own name, or delete the extra Service', `metadata.labels.${PLUGIN_KEYS.name}`);
    }
  }
}

/** CNPGI014, CNPGI015, CNPGI016; returns the pod templates behind the selector. */
function checkPorts(ctx: DoctorContext, svc: Manifest, port: number | undefined): PodTemplate[] {
  const spec = asObject(dig(svc.raw, 'spec')) ?? {};
  if (spec.type === 'ExternalName') return [];
  const selector = stringMap(spec.selector);
  // A selector that matches more than a few workloads is already wrong; checking the first ones
  // keeps a pathological input (one selector over thousands of Deployments) linear.
  const templates = Object.keys(selector).length > 0 ? ctx.index.podTemplatesSelected(svc.namespace, selector).slice(0, 25) : [];
  if (Object.keys(selector).length === 0) {
    ctx.report('CNPGI016', 'warning', svc, 'plugin Service has no selector: Kubernetes manages no endpoints for it, so something else must', 'select the plugin pods\' labels in spec.selector', 'spec.selector');
  } else if (templates.length === 0) {
    ctx.report('CNPGI016', 'warning', svc, `selector ${JSON.stringify(selector)} matches no pod template in the input; the plugin pods must come from elsewhere`,
      'check the selector against the plugin Deployment\'s pod labels, or include the Deployment in the checked manifests', 'spec.selector');
  }
  if (port === undefined) return templates;

  const ports = objectsOf(spec.ports);
  const match = ports.find(({ item }) => item.port === port);
  if (!match) {
    const list = ports.map(({ item }) => item.port).filter((p) => p !== undefined).join(', ') || 'none';
    ctx.report('CNPGI014', 'error', svc, `\`${PLUGIN_KEYS.port}\` is ${port} but the Service exposes port(s) ${list}; the operator dials the annotation's port and never reads spec.ports`,
      ports.length === 1 && typeof ports[0].item.port === 'number' ? `set \`${PLUGIN_KEYS.port}: "${ports[0].item.port}"\`, or expose port ${port}` : `expose port ${port} in spec.ports`,
      `metadata.annotations.${PLUGIN_KEYS.port}`);
    return templates;
  }
  const targetPort = match.item.targetPort ?? port;
  const portPath = `spec.ports[${match.i}].targetPort`;
  for (const t of templates) checkTargetPort(ctx, svc, t, targetPort, portPath);
  return templates;
}

function checkTargetPort(ctx: DoctorContext, svc: Manifest, t: PodTemplate, targetPort: unknown, portPath: string): void {
  const containers = runningContainers(t.spec);
  let resolved: number | undefined;
  if (typeof targetPort === 'string' && !/^\d+$/.test(targetPort)) {
    const owner = containers.find((c) => declaredPorts(c.container).some((p) => p.name === targetPort));
    if (!owner) {
      ctx.report('CNPGI015', 'error', svc, `targetPort '${targetPort}' names no container port of ${t.owner.ref}; Kubernetes creates no endpoint for such pods, so the operator cannot connect`,
        `name the plugin container's port '${targetPort}', or use the port number`, portPath);
      return;
    }
    resolved = declaredPorts(owner.container).find((p) => p.name === targetPort)!.containerPort;
  } else {
    resolved = typeof targetPort === 'number' ? targetPort : Number(targetPort);
  }
  const listening = containers
    .map((c) => ({ c, address: flagValue(commandLine(c.container), 'server-address') }))
    .filter((x) => x.address !== undefined)
    .map((x) => ({ ...x, port: portOfAddress(x.address!) }));
  if (listening.some((l) => l.port === resolved)) return;
  const other = listening.find((l) => l.port !== undefined);
  if (other) {
    ctx.report('CNPGI015', 'error', svc, `the Service sends traffic to port ${resolved} of ${t.owner.ref}, but container '${other.c.name}' listens on '${other.address}' (--server-address)`,
      `make targetPort ${other.port}, or --server-address=:${resolved}`, portPath);
    return;
  }
  if (!containers.some((c) => declaredPorts(c.container).some((p) => p.containerPort === resolved))) {
    ctx.report('CNPGI015', 'warning', svc, `no container of ${t.owner.ref} declares port ${resolved} and none shows its listen address (--server-address); make sure the plugin listens there`,
      `declare containerPort ${resolved} on the plugin container`, portPath);
  }
}
