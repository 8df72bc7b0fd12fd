/*
 * CNPGI126: plugin and sidecar images pinned to a release (the library's one image policy).
 */
import { EnvSourceLookup, checkImages, containerImages, podImages } from '../../../checks/image-policy';
import type { Manifest } from '../../../manifests/manifest-index';
import type { RuleDefinition } from '../../../rules/rule';
import type { DoctorModel } from '../../model/doctor-model';
import { labelledPluginServices, podOf, reportIssues } from './fidelity-inputs';

/** A plugin's image, or the sidecar image it injects, that moves. */
export const rule: RuleDefinition<DoctorModel> = {
  id: 'CNPGI126',
  name: 'plugin-image-pinned',
  severities: [{ severity: 'warning', when: 'always' }],
  what: 'A plugin Deployment (behind a plugin Service) runs a container image without a release in it: no tag, `latest`, or a tag without a digit such as `main` or `edge`; or hands such an image to the instance pods as `SIDECAR_IMAGE` (read from `env`, a ConfigMap or a Secret of the input); or a sidecar plugin container of the operator Deployment does. A digest pins the image whatever the tag. The upstream development manifests name such images (`plugin-barman-cloud-testing:main`, `cnpg-i-scale-to-zero:main`, `cnpg-i-hello-world:latest`).',
  why: 'Kubernetes runs the image, so this is a warning, not an error; but the build changes under the pods with no change in Git: a container without a pull policy pulls on every start for `latest` or no tag and keeps whatever each node pulled first for any other tag (kubernetes v1.32.13 pkg/apis/core/v1/defaults.go SetDefaults_Container), and the plugins give every instance pod they reconcile the image of `SIDECAR_IMAGE` (plugin-barman-cloud v0.14.0 internal/cmd/operator/main.go NewCmd, internal/cnpgi/operator/lifecycle.go reconcilePodSpec; cnpg-i-scale-to-zero v0.1.9 cmd/plugin/plugin.go, internal/plugin/lifecycle/lifecycle.go reconcileMetadata). The library refuses the same images at synth (PluginManifest, StandalonePlugin, the presets).',
  fix: 'Pin a release tag or a digest (`ghcr.io/cloudnative-pg/plugin-barman-cloud:v0.14.0`, `...@sha256:<digest>`); with PluginManifest, pass `image` and `sidecarImage`.',
  kinds: ['Deployment', 'Service', 'ConfigMap', 'Secret'],
  check(model, report) {
    const lookupIn =
      (d: Manifest): EnvSourceLookup =>
      (kind, name) =>
        model.index.get(kind, d.namespace, name)[0]?.raw;
    const plugins = new Set<Manifest>();
    for (const svc of labelledPluginServices(model)) for (const d of model.pluginBackends(svc).deployments) plugins.add(d);
    for (const d of plugins) reportIssues(report, d, checkImages(podImages(podOf(d).podSpec, lookupIn(d)), 'spec.template.spec'));
    for (const sd of model.sidecarDeployments) {
      if (plugins.has(sd.deployment)) continue;
      const uses = sd.containers.flatMap((c) => containerImages(c.container, c.name, c.path, lookupIn(sd.deployment)));
      reportIssues(report, sd.deployment, checkImages(uses, 'spec.template.spec'));
    }
  },
};
