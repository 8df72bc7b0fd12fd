/*
 * CNPGI050: plugin pods and sidecar plugin containers against the "restricted" Pod Security
 * Standard (https://kubernetes.io/docs/concepts/security/pod-security-standards/).
 */
import { containerViolations, podLevelViolations } from '../../../checks/pod-security';
import { dig, asObject } from '../../../manifests/json';
import { allContainers } from '../../../manifests/pod-template';
import type { RuleDefinition } from '../../../rules/rule';
import type { DoctorModel } from '../../model/doctor-model';

const FIX =
  'set runAsNonRoot: true and seccompProfile.type: RuntimeDefault on the pod, and allowPrivilegeEscalation: false, capabilities.drop: [ALL] on every container; no privileged, host namespaces, hostPath or hostPort';

/** A plugin pod template, or a sidecar plugin container, breaks the "restricted" profile. */
export const rule: RuleDefinition<DoctorModel> = {
  id: 'CNPGI050',
  name: 'plugin-pod-security',
  severities: [{ severity: 'warning', when: 'always: only namespaces that enforce the profile reject the pods' }],
  what: 'A plugin pod template (or sidecar plugin container) breaks the Pod Security Standards "restricted" profile.',
  why: 'Namespaces enforcing `restricted` reject the pods (Kubernetes Pod Security Standards, "restricted" profile); plugins hold TLS keys and cloud credentials, and the upstream plugin manifests run restricted (plugin-barman-cloud v0.14.0 manifest.yaml).',
  fix: 'runAsNonRoot, allowPrivilegeEscalation false, capabilities drop ALL, seccomp RuntimeDefault, no privileged/host namespaces/hostPath.',
  kinds: ['Deployment', 'StatefulSet', 'DaemonSet', 'Pod'],
  check(model, report) {
    for (const info of model.pluginServices) {
      for (const t of info.templates) {
        const violations = [...podLevelViolations(t.spec), ...allContainers(t.spec).flatMap((c) => containerViolations(t.spec, c))];
        if (violations.length === 0) continue;
        report(
          'warning',
          t.owner,
          `the plugin pod behind ${info.service.ref} breaks the "restricted" Pod Security Standard: ${violations.join('; ')}`,
          FIX,
          t.specPath,
        );
      }
    }
    for (const s of model.sidecars) {
      const spec = asObject(dig(s.deployment.raw, 'spec', 'template', 'spec'));
      if (!spec) continue;
      const c = allContainers(spec).find((x) => `spec.template.spec.${x.path}` === s.containerPath);
      if (!c) continue;
      const violations = containerViolations(spec, c);
      if (violations.length === 0) continue;
      report(
        'warning',
        s.deployment,
        `sidecar plugin container '${s.containerName}' breaks the "restricted" Pod Security Standard: ${violations.join('; ')}`,
        FIX,
        s.containerPath,
      );
    }
  },
};
