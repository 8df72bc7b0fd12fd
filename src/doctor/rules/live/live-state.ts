/*
 * What the live rules (CNPGI4xx, `cnpg-i-doctor cluster`) read of a running cluster: the
 * instance pods of a Cluster, the sidecars its plugins inject, the image a plugin injects now,
 * the conditions in a status. Not a rule file.
 */
import { Json, asArray, asObject, asString, dig, stringMap } from '../../../manifests/json';
import { KNOWN_INSTANCE_SIDECARS, KnownInstanceSidecar } from '../../../manifests/known-plugins';
import type { Manifest } from '../../../manifests/manifest-index';
import { DoctorModel, modelPart } from '../../model/doctor-model';

/** CloudNativePG v1.30.0 pkg/utils/labels_annotations.go: ClusterLabelName, PodRoleLabelName, PodRoleInstance. */
const CLUSTER_LABEL = 'cnpg.io/cluster';
const POD_ROLE_LABEL = 'cnpg.io/podRole';
/** CloudNativePG v1.30.0 pkg/utils/labels_annotations.go PodSpecAnnotationName, ReconcilePodSpecAnnotationName. */
export const POD_SPEC_ANNOTATION = 'cnpg.io/podSpec';
export const RECONCILE_POD_SPEC_ANNOTATION = 'cnpg.io/reconcilePodSpec';

/** The Clusters of the input (postgresql.cnpg.io). */
export function clusters(model: DoctorModel): Manifest[] {
  return model.index.ofKind('Cluster', 'postgresql.cnpg.io');
}

/** The sidecars the Cluster's enabled plugins inject into its instance pods, as far as this library knows them. */
export function expectedSidecars(cluster: Manifest): KnownInstanceSidecar[] {
  const out: KnownInstanceSidecar[] = [];
  for (const entry of asArray(dig(cluster.raw, 'spec', 'plugins'))) {
    const e = asObject(entry) ?? {};
    if (e.enabled === false) continue;
    const params = stringMap(e.parameters);
    for (const s of KNOWN_INSTANCE_SIDECARS) {
      if (s.pluginName === e.name && (s.parameter === undefined || (params[s.parameter] ?? '') !== '') && !out.includes(s)) out.push(s);
    }
  }
  return out;
}

/** The instance pods of the input by `namespace/cluster`, built once per run for every Cluster. */
const INSTANCE_PODS = modelPart((model) => {
  const byCluster = new Map<string, Manifest[]>();
  for (const p of model.index.ofKind('Pod')) {
    const labels = stringMap(dig(p.raw, 'metadata', 'labels'));
    if (labels[POD_ROLE_LABEL] !== 'instance' || labels[CLUSTER_LABEL] === undefined) continue;
    const key = `${p.namespace}/${labels[CLUSTER_LABEL]}`;
    byCluster.set(key, [...(byCluster.get(key) ?? []), p]);
  }
  for (const pods of byCluster.values()) pods.sort((a, b) => a.name.localeCompare(b.name));
  return byCluster;
});

/** The instance pods of a Cluster: its namespace, labelled `cnpg.io/cluster: <name>` and `cnpg.io/podRole: instance`. */
export function instancePods(model: DoctorModel, cluster: Manifest): Manifest[] {
  return model.part(INSTANCE_PODS).get(`${cluster.namespace}/${cluster.name}`) ?? [];
}

/** A running container of a pod by name: a container, or a native sidecar (an init container with `restartPolicy: Always`). */
export function podContainer(pod: Manifest, name: string): Json | undefined {
  const spec = dig(pod.raw, 'spec');
  const c = asArray(dig(spec, 'containers')).map((x) => asObject(x) ?? {});
  const found = c.find((x) => x.name === name);
  if (found) return found;
  return asArray(dig(spec, 'initContainers'))
    .map((x) => asObject(x) ?? {})
    .find((x) => x.name === name && x.restartPolicy === 'Always');
}

/**
 * The images the plugin injects now: its image variable on the containers of the Deployments
 * behind the plugin's Services, given as a value, by `valueFrom.configMapKeyRef` (what the
 * upstream manifest does) or by `envFrom` a ConfigMap, read from the ConfigMaps of the input.
 * Empty when the input does not show them.
 */
export function injectedImages(model: DoctorModel, sidecar: KnownInstanceSidecar): Array<{ image: string; deployment: Manifest }> {
  const out: Array<{ image: string; deployment: Manifest }> = [];
  const configMapValue = (namespace: string | undefined, name: unknown, key: string): string | undefined => {
    if (typeof name !== 'string') return undefined;
    const cm = model.index.get('ConfigMap', namespace, name)[0];
    return cm ? asString(dig(cm.raw, 'data', key)) : undefined;
  };
  for (const info of model.pluginServices) {
    if (info.pluginName !== sidecar.pluginName || !info.inOperatorNamespace) continue;
    for (const d of model.pluginBackends(info.service).deployments) {
      for (const c of asArray(dig(d.raw, 'spec', 'template', 'spec', 'containers'))) {
        const container = asObject(c) ?? {};
        let image: string | undefined;
        for (const from of asArray(container.envFrom)) {
          const ref = asObject(asObject(from)?.configMapRef);
          if (ref && asObject(from)?.prefix === undefined) image = configMapValue(d.namespace, ref.name, sidecar.imageVariable) ?? image;
        }
        for (const env of asArray(container.env)) {
          const e = asObject(env) ?? {};
          if (e.name !== sidecar.imageVariable) continue;
          const ref = asObject(dig(e, 'valueFrom', 'configMapKeyRef'));
          image = asString(e.value) ?? (ref ? configMapValue(d.namespace, ref.name, String(ref.key)) : undefined);
        }
        if (image) out.push({ image, deployment: d });
      }
    }
  }
  return out;
}

/** A condition of `status.conditions` by type. */
export function condition(raw: Json, type: string): Json | undefined {
  return asArray(dig(raw, 'status', 'conditions'))
    .map((c) => asObject(c) ?? {})
    .find((c) => c.type === type);
}

/**
 * The command that rolls every instance of a Cluster: `kubectl cnpg restart` sets the Cluster's
 * `kubectl.kubernetes.io/restartedAt` annotation (cloudnative-pg v1.30.0
 * internal/cmd/plugin/restart/restart.go restart), and the operator recreates each pod whose
 * annotation differs (internal/controller/cluster_upgrade.go
 * checkClusterHasDifferentRestartAnnotation), running the plugins' lifecycle hooks anew.
 */
export function restartCommand(cluster: Manifest): string {
  return `kubectl cnpg restart ${cluster.name} -n ${cluster.namespace} (without the kubectl plugin: kubectl annotate cluster ${cluster.name} -n ${cluster.namespace} --overwrite kubectl.kubernetes.io/restartedAt=$(date -u +%Y-%m-%dT%H:%M:%SZ))`;
}

/** Whether the live read has the objects of `kind` (a kind it could not list is not judged missing). */
export function wasRead(model: DoctorModel, kind: string): boolean {
  return model.live !== undefined && !model.live.unread.has(kind);
}

/** Pod names, quoted and listed. */
export function names(pods: readonly Manifest[]): string {
  return pods.map((p) => `'${p.name}'`).join(', ');
}
