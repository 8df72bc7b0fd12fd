import * as kplus from 'cdk8s-plus-28';

/**
 * The user and group id plugin containers run as unless told otherwise. It is the id the
 * upstream Barman Cloud image is built for, and any non-zero id satisfies the restricted
 * Pod Security Standard.
 */
export const DEFAULT_PLUGIN_USER_ID = 10001;

/**
 * The user and group a plugin container runs as. The rest of the container's security context
 * is fixed to the restricted Pod Security Standard and cannot be weakened.
 */
export interface PluginSecurityContextProps {
  /**
   * The uid the container runs as.
   * @default 10001
   */
  readonly user?: number;
  /**
   * The gid the container runs as.
   * @default 10001
   */
  readonly group?: number;
}

/**
 * The restricted Pod Security Standard for one container, as cdk8s-plus props: non-root with a
 * fixed uid/gid, read-only root filesystem, no privilege escalation, not privileged, every
 * capability dropped, the runtime's default seccomp profile.
 * @internal
 */
export function restrictedContainerSecurityContext(user: number, group: number): kplus.ContainerSecurityContextProps {
  return {
    ensureNonRoot: true,
    user,
    group,
    readOnlyRootFilesystem: true,
    allowPrivilegeEscalation: false,
    privileged: false,
    capabilities: { drop: [kplus.Capability.ALL] },
    seccompProfile: { type: kplus.SeccompProfileType.RUNTIME_DEFAULT },
  };
}

/**
 * The same security context as plain Kubernetes JSON, for containers added to objects that
 * cdk8s-plus does not manage (an operator Deployment read from a release manifest).
 * @internal
 */
export function restrictedContainerSecurityContextManifest(user: number, group: number): Record<string, unknown> {
  return {
    allowPrivilegeEscalation: false,
    capabilities: { drop: ['ALL'] },
    privileged: false,
    readOnlyRootFilesystem: true,
    runAsGroup: group,
    runAsNonRoot: true,
    runAsUser: user,
    seccompProfile: { type: 'RuntimeDefault' },
  };
}
