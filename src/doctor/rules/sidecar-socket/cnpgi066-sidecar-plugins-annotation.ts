/*
 * CNPGI066: the operator Deployment's `cnpg-i.dev/sidecar-plugins` annotation disagrees with
 * the Deployment it describes.
 */
import { SIDECAR_PLUGINS_ANNOTATION, SIDECAR_PLUGINS_EXAMPLE } from '../../../manifests/sidecar-plugins';
import type { RuleDefinition } from '../../../rules/rule';
import type { DoctorModel } from '../../model/doctor-model';
import { normalizeDir } from '../../model/sidecars';

const PATH = `metadata.annotations.${SIDECAR_PLUGINS_ANNOTATION}`;

/** The annotation cannot be read, or names a sidecar, a plugin or a socket the Deployment does not have. */
export const rule: RuleDefinition<DoctorModel> = {
  id: 'CNPGI066',
  name: 'sidecar-plugins-annotation',
  severities: [
    {
      severity: 'warning',
      when: 'always: the operator never reads the annotation; the doctor follows the Deployment, and the rules about what the operator runs (CNPGI030, CNPGI031, CNPGI040) judge the consequences',
    },
  ],
  what: `The operator Deployment's \`${SIDECAR_PLUGINS_ANNOTATION}\` annotation (written by \`SidecarPlugin\`) cannot be read, or names a sidecar container the Deployment does not run, a plugin other than the one the container's \`--plugin-name\` or \`PLUGIN_NAME\` names, or a socket outside the directory the manager lists.`,
  why: "A socket's file name is the plugin name, and the operator lists the socket directory once, at startup (cloudnative-pg v1.30.0 internal/cnpi/plugin/repository/setup.go data.RegisterUnixSocketPluginsInPath); the manifests do not say which plugin a sidecar serves, so the library writes it into this annotation for the doctor. An annotation that no longer matches the Deployment (edited by hand or by a patch after synthesis) describes plugins the operator will not find.",
  fix: 'Synthesize the Deployment again with `SidecarPlugin`, or correct or remove the annotation.',
  kinds: ['Deployment'],
  check(model, report) {
    for (const d of model.sidecarDeployments) {
      const annotation = d.annotation;
      if (annotation === undefined) continue;
      if (!annotation.ok) {
        report(
          'warning',
          d.deployment,
          `annotation ${SIDECAR_PLUGINS_ANNOTATION} ${annotation.problem}, so the doctor cannot tell which plugin each sidecar serves`,
          `write it as ${SIDECAR_PLUGINS_EXAMPLE}, or remove it and name the sidecars with --sidecar-plugin`,
          PATH,
        );
        continue;
      }
      for (const entry of annotation.entries) {
        const sidecar = d.sidecars.find((s) => s.containerName === entry.container);
        if (sidecar === undefined) {
          report(
            'warning',
            d.deployment,
            `annotation ${SIDECAR_PLUGINS_ANNOTATION} names sidecar container '${entry.container}' for plugin '${entry.plugin}', but the Deployment runs no such sidecar; the operator will find no socket '${entry.socket}'`,
            `add sidecar container '${entry.container}' back, or remove its entry from the annotation`,
            PATH,
          );
          continue;
        }
        if (sidecar.nameSource === 'manifest' && sidecar.pluginName !== entry.plugin) {
          report(
            'warning',
            d.deployment,
            `annotation ${SIDECAR_PLUGINS_ANNOTATION} says container '${entry.container}' serves plugin '${entry.plugin}', but the container names its plugin '${sidecar.pluginName}' (--plugin-name or PLUGIN_NAME), which is its socket's name; the doctor follows the container`,
            `set the annotation's plugin for '${entry.container}' to '${sidecar.pluginName}'`,
            PATH,
          );
          continue;
        }
        if (d.dir === undefined) continue;
        const expected = `${d.dir === '/' ? '' : d.dir}/${entry.plugin}`;
        if (normalizeDir(entry.socket) !== expected) {
          report(
            'warning',
            d.deployment,
            `annotation ${SIDECAR_PLUGINS_ANNOTATION} puts the socket of '${entry.plugin}' at '${entry.socket}', but the manager lists '${d.dir}' (${d.dirSource}), where the operator looks for '${expected}'; the doctor follows the manager`,
            `set the annotation's socket for '${entry.container}' to '${expected}'`,
            PATH,
          );
        }
      }
    }
  },
};
