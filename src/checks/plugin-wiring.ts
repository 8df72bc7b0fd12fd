import { Json, asArray, dig, stringMap } from '../manifests/json';
import { CheckIssue } from './issue';

const IANA_SVC_NAME = /^(?=.*[a-z])[a-z0-9]([a-z0-9]|-(?!-))*[a-z0-9]$|^[a-z]$/;

/**
 * Class 11, for a plugin Service: what the API server refuses (label values at most 63
 * characters of the label syntax; a string `targetPort` must be a port name, IANA_SVC_NAME).
 * The schema layer of issue 11 covers the general case; this keeps the plugin's own fields.
 * @internal
 */
export function checkPluginServiceNames(service: Json): CheckIssue[] {
  const issues: CheckIssue[] = [];
  const label = stringMap(dig(service, 'metadata', 'labels'))['cnpg.io/pluginName'];
  if (label !== undefined && (label.length > 63 || !/^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/.test(label))) {
    issues.push({
      severity: 'error',
      path: 'metadata.labels.cnpg.io/pluginName',
      message: `'${label}' is not a label value (at most 63 characters of letters, digits, '-', '_', '.', starting and ending alphanumeric); the API server refuses the Service`,
      fix: 'use a shorter plugin name (it must also be the name the plugin reports)',
    });
  }
  asArray(dig(service, 'spec', 'ports')).forEach((p, i) => {
    const target = dig(p, 'targetPort');
    if (typeof target !== 'string') return;
    if (/^[0-9]+$/.test(target)) {
      issues.push({
        severity: 'error',
        path: `spec.ports[${i}].targetPort`,
        message: `"${target}" is a quoted number; a string targetPort is a port name, and the API server refuses a name that has no letter`,
        fix: `write targetPort: ${target} without quotes`,
      });
    } else if (target.length > 15 || !IANA_SVC_NAME.test(target)) {
      issues.push({
        severity: 'error',
        path: `spec.ports[${i}].targetPort`,
        message: `'${target}' is not a port name (at most 15 lower-case letters, digits and single '-', with a letter); the API server refuses the Service`,
        fix: "use the container port's name or its number",
      });
    }
  });
  return issues;
}
