/*
 * The Pod Security Standards "restricted" profile (which includes "baseline"), as read from pod
 * specs; the doctor's CNPGI050 (src/doctor/rules/pod-security/) applies it to plugin pods and
 * sidecar plugin containers. Kept apart so it can grow with the standard:
 * https://kubernetes.io/docs/concepts/security/pod-security-standards/
 */
import { dig, objectsOf, asArray, asString, asObject, Json } from '../manifests/json';
import { ContainerRef } from '../manifests/pod-template';

/** Volume types the restricted profile allows. */
const RESTRICTED_VOLUME_TYPES = new Set(['configMap', 'csi', 'downwardAPI', 'emptyDir', 'ephemeral', 'persistentVolumeClaim', 'projected', 'secret']);

const ALLOWED_SECCOMP = new Set(['RuntimeDefault', 'Localhost']);

/** Violations of the pod-level fields. */
export function podLevelViolations(spec: Json): string[] {
  const out: string[] = [];
  for (const f of ['hostNetwork', 'hostPID', 'hostIPC']) {
    if (spec[f] === true) out.push(`${f}: true`);
  }
  if (asObject(spec.securityContext)?.runAsUser === 0) out.push('pod runAsUser: 0');
  for (const { item } of objectsOf(spec.volumes)) {
    const type = Object.keys(item).find((k) => k !== 'name');
    if (type && !RESTRICTED_VOLUME_TYPES.has(type)) out.push(`volume '${asString(item.name) ?? '?'}' is ${type}`);
  }
  return out;
}

/** Violations of one container, with the pod-level defaults it inherits. */
export function containerViolations(spec: Json, c: ContainerRef): string[] {
  const out: string[] = [];
  const pod = asObject(spec.securityContext) ?? {};
  const sc = asObject(c.container.securityContext) ?? {};
  const name = `container '${c.name}'`;
  if (sc.privileged === true) out.push(`${name} is privileged`);
  if (sc.allowPrivilegeEscalation !== false) out.push(`${name} does not set allowPrivilegeEscalation: false`);
  const caps = asObject(sc.capabilities) ?? {};
  const drop = asArray(caps.drop).filter((d): d is string => typeof d === 'string');
  if (!drop.includes('ALL')) out.push(`${name} does not drop ALL capabilities`);
  const added = asArray(caps.add).filter((a) => a !== 'NET_BIND_SERVICE');
  if (added.length) out.push(`${name} adds capabilities ${added.map(String).join(', ')}`);
  const nonRoot = sc.runAsNonRoot ?? pod.runAsNonRoot;
  if (nonRoot !== true) out.push(`${name} does not run as non-root (runAsNonRoot: true on the pod or container)`);
  if ((sc.runAsUser ?? pod.runAsUser) === 0) out.push(`${name} runs as uid 0`);
  const seccomp = asString(dig(sc, 'seccompProfile', 'type')) ?? asString(dig(pod, 'seccompProfile', 'type'));
  if (!seccomp || !ALLOWED_SECCOMP.has(seccomp))
    out.push(`${name} has ${seccomp ? `seccomp profile ${seccomp}` : 'no seccomp profile'} (RuntimeDefault or Localhost required)`);
  for (const { item } of objectsOf(c.container.ports)) {
    if (item.hostPort !== undefined && item.hostPort !== 0) out.push(`${name} uses hostPort ${String(item.hostPort)}`);
  }
  return out;
}
