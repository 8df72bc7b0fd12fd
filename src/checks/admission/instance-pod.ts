/*
 * What is certain of the first instance Pod the operator builds for a Cluster, as the JSON the
 * `cnpg.io/podPatch` annotation is applied to (cloudnative-pg v1.30.0 pkg/specs/pods.go
 * buildInstance, createClusterPodSpec, createPostgresContainers; the Pod serialized by Go's
 * encoding/json, so empty fields are left out and `spec` and `status` are always there).
 *
 * Known: the top level (`metadata`, `spec`, `status`; no `apiVersion` or `kind`), the metadata
 * the operator writes (name, labels, annotations), which fields of the Pod spec are set (a key
 * that is not a PodSpec field, or a field the operator never sets, is absent), the one init
 * container and the one container and what that container always has. Unknown, so never
 * judged: the namespace when the manifest has none (the API server fills it in), `affinity`,
 * `securityContext` and `subdomain` (they depend on the operator's configuration and
 * environment), the length of `volumes` and of the container's lists, and everything inside
 * the values the Cluster copies in (tolerations, node selector, topology spread constraints,
 * probes, resources).
 */
import { Json, asArray, asObject, asString, dig } from '../../manifests/json';
import { DocNode, objectNode } from './json-patch';

const unknown = (): DocNode => ({ t: 'unknown' });
const text = (value: string): DocNode => ({ t: 'scalar', raw: JSON.stringify(value) });
/** A string whose value the model does not know. */
const someString = (): DocNode => ({ t: 'scalar' });
const someArray = (): DocNode => ({ t: 'array' });

/** The prefix of the AppArmor annotations the operator copies from the Cluster to its Pods. */
const APPARMOR_PREFIX = 'container.apparmor.security.beta.kubernetes.io/';

/**
 * The instance Pod with serial 1 that the operator builds for `cluster` (defaulted), as far as
 * the Cluster decides it.
 * @internal
 */
export function instancePod(cluster: Json): DocNode {
  const name = asString(dig(cluster, 'metadata', 'name')) ?? '';
  const podName = `${name}-1`;
  const namespace = asString(dig(cluster, 'metadata', 'namespace'));
  const annotations = asObject(dig(cluster, 'metadata', 'annotations')) ?? {};
  const spec = asObject(cluster.spec) ?? {};
  const affinity = asObject(spec.affinity) ?? {};

  const metadata = objectNode(
    {
      name: text(podName),
      ...(namespace ? { namespace: text(namespace) } : {}),
      labels: objectNode({
        'cnpg.io/cluster': text(name),
        'cnpg.io/instanceName': text(podName),
        'cnpg.io/podRole': text('instance'),
        'app.kubernetes.io/name': text('postgresql'),
        'app.kubernetes.io/instance': text(name),
        'app.kubernetes.io/version': someString(),
        'app.kubernetes.io/component': text('database'),
        'app.kubernetes.io/managed-by': text('cloudnative-pg'),
      }),
      annotations: objectNode(
        { 'cnpg.io/nodeSerial': text('1'), 'cnpg.io/podEnvHash': someString() },
        { open: Object.keys(annotations).some((k) => k.startsWith(APPARMOR_PREFIX)) },
      ),
    },
    { maybe: namespace ? [] : ['namespace'] },
  );

  const postgres = objectNode(
    {
      name: text('postgres'),
      env: someArray(),
      volumeMounts: someArray(),
      command: someArray(),
      ports: someArray(),
      startupProbe: unknown(),
      readinessProbe: unknown(),
      livenessProbe: unknown(),
      resources: unknown(),
    },
    { open: true },
  );

  const maxStopDelay = typeof spec.stopDelay === 'number' && Number.isInteger(spec.stopDelay) && spec.stopDelay > 0 ? spec.stopDelay : 1800;
  const present = (v: unknown) => (Array.isArray(v) ? v.length > 0 : asObject(v) !== undefined && Object.keys(asObject(v)!).length > 0);
  const podSpec = objectNode(
    {
      hostname: text(podName),
      initContainers: { t: 'array', items: [unknown()] },
      containers: { t: 'array', items: [postgres] },
      volumes: someArray(),
      terminationGracePeriodSeconds: { t: 'scalar', raw: String(maxStopDelay) },
      serviceAccountName: text(asString(spec.serviceAccountName) || name),
      ...(asString(spec.schedulerName) ? { schedulerName: text(spec.schedulerName as string) } : {}),
      ...(asString(spec.priorityClassName) ? { priorityClassName: text(spec.priorityClassName as string) } : {}),
      ...(present(affinity.tolerations) ? { tolerations: { t: 'array', items: asArray(affinity.tolerations).map(unknown) } as DocNode } : {}),
      ...(present(affinity.nodeSelector) ? { nodeSelector: unknown() } : {}),
      ...(present(spec.topologySpreadConstraints)
        ? { topologySpreadConstraints: { t: 'array', items: asArray(spec.topologySpreadConstraints).map(unknown) } as DocNode }
        : {}),
    },
    { maybe: ['affinity', 'securityContext', 'subdomain'] },
  );

  return objectNode({ metadata, spec: podSpec, status: objectNode({}) });
}

/** What a JSON value is, in the words of a message: `a number`, `an object`. */
function kindOf(n: DocNode): string | undefined {
  if (n.t === 'object') return 'an object';
  if (n.t === 'array') return 'a list';
  if (n.t !== 'scalar' || n.raw === undefined || n.raw === 'null' || n.raw.startsWith('"')) return undefined;
  return n.raw === 'true' || n.raw === 'false' ? 'a boolean' : 'a number';
}

/**
 * Where a patched instance Pod no longer decodes as a Pod, as far as the model knows the types
 * (the operator decodes the patched JSON back into a Pod): `metadata`, `spec` and `status`
 * objects, label and annotation values strings. Undefined when nothing known is wrong.
 * @internal
 */
export function podDecodeProblem(pod: DocNode): string | undefined {
  if (pod.t !== 'object') return undefined;
  for (const key of ['metadata', 'spec', 'status']) {
    const v = pod.keys.get(key);
    if (v?.t === 'scalar' && kindOf(v) !== undefined) return `/${key} becomes ${kindOf(v)}, and a Pod's ${key} is an object`;
    if (v?.t === 'scalar' && v.raw?.startsWith('"')) return `/${key} becomes a string, and a Pod's ${key} is an object`;
    if (v?.t === 'array') return `/${key} becomes a list, and a Pod's ${key} is an object`;
  }
  const metadata = pod.keys.get('metadata');
  if (metadata?.t !== 'object') return undefined;
  for (const map of ['labels', 'annotations']) {
    const m = metadata.keys.get(map);
    if (m === undefined || m.t === 'unknown' || (m.t === 'scalar' && m.raw === 'null')) continue;
    if (m.t !== 'object') return `/metadata/${map} becomes ${kindOf(m) ?? 'a string'}, and a Pod's ${map} are a map of strings`;
    for (const [k, v] of m.keys) {
      const kind = kindOf(v);
      if (kind !== undefined)
        return `/metadata/${map}/${k.replace(/~/g, '~0').replace(/\//g, '~1')} becomes ${kind}, and ${map === 'labels' ? 'a label' : 'an annotation'} value is a string`;
    }
  }
  return undefined;
}
