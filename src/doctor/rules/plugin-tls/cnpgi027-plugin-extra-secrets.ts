/*
 * CNPGI027: Secrets the plugin's TLS containers mount besides the two annotated ones.
 */
import { asArray, asObject, asString } from '../../../manifests/json';
import { secretsOfVolume, volumesByName } from '../../../manifests/pod-template';
import type { RuleDefinition } from '../../../rules/rule';
import type { DoctorModel } from '../../model/doctor-model';
import { MACHINERY_TLS, tlsContainers } from './tls-wiring';

/** The plugin pod mounts Secrets other than the two annotated ones. */
export const rule: RuleDefinition<DoctorModel> = {
  id: 'CNPGI027',
  name: 'plugin-extra-secrets',
  severities: [{ severity: 'warning', when: 'always: the mount may be intended' }],
  what: 'The plugin pod mounts Secrets other than the two annotated ones.',
  why: `Often a leftover from a renamed Certificate: the plugin then serves or trusts a stale certificate, read from the files its flags name (${MACHINERY_TLS}).`,
  fix: 'Mount only the annotated Secrets, or check the extra mount is intended (e.g. cloud credentials).',
  kinds: ['Deployment', 'StatefulSet', 'DaemonSet', 'Pod'],
  check(model, report) {
    for (const info of model.pluginServices) {
      const annotated = new Set([info.clientSecret, info.serverSecret].filter((s): s is string => s !== undefined));
      for (const t of info.templates) {
        const containers = tlsContainers(model, t);
        if (containers.length === 0) continue;
        // extra Secret volumes mounted by the TLS containers
        const mounted = new Set<string>();
        for (const { c } of containers) {
          for (const mount of asArray(c.container.volumeMounts)) {
            const n = asString(asObject(mount)?.name);
            if (n) mounted.add(n);
          }
        }
        const volumes = volumesByName(t.spec);
        for (const name of mounted) {
          const vol = volumes.get(name);
          if (!vol) continue;
          for (const secretName of secretsOfVolume(vol)) {
            if (annotated.has(secretName)) continue;
            report(
              'warning',
              t.owner,
              `the plugin mounts Secret '${secretName}' (volume '${name}'), which is neither the client nor the server Secret of ${info.service.ref}`,
              'mount only the annotated Secrets, unless this one is intended (e.g. credentials)',
              `${t.specPath}.volumes`,
            );
          }
        }
      }
    }
  },
};
