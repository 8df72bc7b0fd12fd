/*
 * What the plugin-service-keys rules (CNPGI010 to CNPGI013) share: the upstream code they cite,
 * the usual fix of each key, and the finding for a key that is not where the operator reads it.
 */
import type { Severity } from '../../../rules/rule';
import type { PluginServiceInfo } from '../../model/plugin-services';
import { PLUGIN_KEYS, PluginKeyId } from '../../model/plugin-services';

/** The function that decides whether a Service is a plugin Service. */
export const PLUGIN_SERVICE = 'cloudnative-pg v1.30.0 internal/controller/plugin_predicates.go isPluginService';
/** The plugin controller. */
export const RECONCILE = 'cloudnative-pg v1.30.0 internal/controller/plugin_controller.go';

/** The usual fix of each key. */
export const KEY_FIX: Record<PluginKeyId, string> = {
  name: `label it \`${PLUGIN_KEYS.name}: <plugin name>\` under metadata.labels`,
  port: `annotate it \`${PLUGIN_KEYS.port}: "<port>"\` under metadata.annotations`,
  clientSecret: `annotate it \`${PLUGIN_KEYS.clientSecret}: <client certificate Secret>\` under metadata.annotations`,
  serverSecret: `annotate it \`${PLUGIN_KEYS.serverSecret}: <server certificate Secret>\` under metadata.annotations`,
  serverName: `annotate it \`${PLUGIN_KEYS.serverName}: <name in the server certificate>\` under metadata.annotations`,
};

/** Where the operator reads a key: the name under the labels, the rest under the annotations. */
export function homePath(id: PluginKeyId): string {
  return id === 'name' ? 'metadata.labels' : 'metadata.annotations';
}

/** `label` for the name, `annotation` for the rest. */
export function keyKind(id: PluginKeyId): 'label' | 'annotation' {
  return id === 'name' ? 'label' : 'annotation';
}

/** A finding's severity, message, fix and path. */
export interface KeyFinding {
  readonly severity: Severity;
  readonly message: string;
  readonly fix: string;
  readonly path: string;
}

/**
 * The finding for a key that is not where the operator reads it: set in the other map,
 * misspelled, or missing (a misspelled optional `pluginServerName` is a warning; a missing one
 * is nothing).
 */
export function absentKey(info: PluginServiceInfo, id: PluginKeyId): KeyFinding | undefined {
  const reading = info.keys[id];
  if (reading.present) return undefined;
  const k = PLUGIN_KEYS[id];
  const what = keyKind(id);
  const miss = reading.nearMiss;
  const missPath = miss ? `${miss.where === 'label' ? 'metadata.labels' : 'metadata.annotations'}.${miss.key}` : '';
  if (id === 'serverName') {
    if (!miss) return undefined;
    return {
      severity: 'warning',
      message: `${miss.where} \`${miss.key}\` looks like a misspelling of the optional annotation \`${k}\`; the operator ignores it and verifies the short Service name '${info.service.name}'`,
      fix: `rename it to \`${k}\` (an annotation), or remove it`,
      path: missPath,
    };
  }
  if (reading.elsewhere) {
    return {
      severity: 'error',
      message: `\`${k}\` is set as ${id === 'name' ? 'an annotation' : 'a label'}, but the operator reads it from ${id === 'name' ? 'the labels' : 'the annotations'}, so it ignores this Service`,
      fix: `move it under ${homePath(id)}`,
      path: `${id === 'name' ? 'metadata.annotations' : 'metadata.labels'}.${k}`,
    };
  }
  if (miss) {
    return {
      severity: 'error',
      message: `${miss.where} \`${miss.key}\` looks like a misspelling of the ${what} \`${k}\`; the operator only knows the exact key, so it ignores this Service`,
      fix: `rename it to \`${k}\`${miss.where === what ? '' : ` and move it under ${homePath(id)}`}`,
      path: missPath,
    };
  }
  return {
    severity: 'error',
    message: `plugin Service has no ${what} \`${k}\`; the operator silently ignores a plugin Service missing ${id === 'name' ? 'it' : 'any of the three annotations (port, client and server Secret)'}`,
    fix: KEY_FIX[id],
    path: homePath(id),
  };
}
