/*
 * Finding the CloudNativePG operator in the input: its Deployment, its namespace
 * (`OPERATOR_NAMESPACE`), its configuration.
 */
import { stringMap, dig, objectsOf, asString, asObject, Json } from './json';
import { envValue } from './pod-template';

/** The namespace the release manifest and the Helm chart's default install use. */
export const DEFAULT_OPERATOR_NAMESPACE = 'cnpg-system';

/** The pod label both the release manifest and the Helm chart put on operator pods. */
export const OPERATOR_POD_LABEL = { key: 'app.kubernetes.io/name', value: 'cloudnative-pg' };

/** An operator Deployment found in the raw input. */
export interface OperatorCandidate {
  readonly raw: Json;
  readonly index: number;
  readonly name: string;
  /** `metadata.namespace` as written. */
  readonly namespace?: string;
  /** `OPERATOR_NAMESPACE` of the manager container when it is a literal value. */
  readonly envNamespace?: string;
  /** Whether the manager container sets `OPERATOR_NAMESPACE` at all. */
  readonly hasNamespaceEnv: boolean;
}

/** The `manager` container of an operator pod spec. */
export function managerContainer(podSpec: unknown): Json | undefined {
  return objectsOf(dig(podSpec, 'containers'))
    .map((c) => c.item)
    .find((c) => c.name === 'manager');
}

/**
 * True for the CNPG operator Deployment: a container named `manager`, and the operator's pod
 * label, its `OPERATOR_NAMESPACE` env or a cloudnative-pg image.
 */
export function isOperatorDeployment(raw: Json): boolean {
  if (raw.kind !== 'Deployment') return false;
  const template = dig(raw, 'spec', 'template');
  const manager = managerContainer(dig(template, 'spec'));
  if (!manager) return false;
  const labels = stringMap(dig(template, 'metadata', 'labels'));
  const image = asString(manager.image) ?? '';
  return labels[OPERATOR_POD_LABEL.key] === OPERATOR_POD_LABEL.value || envValue(manager, 'OPERATOR_NAMESPACE') !== undefined || /cloudnative-pg/.test(image);
}

/**
 * Calls `fn` with each object of the input and its position, the items of a `kind: ...List` each
 * with the List's position (four Lists deep at most), without building the index.
 */
function eachObject(objects: readonly unknown[], fn: (raw: Json, index: number) => void): void {
  const visit = (value: unknown, index: number, depth: number): void => {
    const raw = asObject(value);
    if (!raw) return;
    if (typeof raw.kind === 'string' && /List$/.test(raw.kind) && Array.isArray(raw.items) && depth < 4) {
      for (const item of raw.items) visit(item, index, depth + 1);
      return;
    }
    fn(raw, index);
  };
  objects.forEach((o, i) => visit(o, i, 0));
}

/** Operator Deployments in the input (Lists expanded), without building the index. */
export function findOperatorCandidates(objects: readonly unknown[]): OperatorCandidate[] {
  const out: OperatorCandidate[] = [];
  eachObject(objects, (raw, index) => {
    if (!isOperatorDeployment(raw)) return;
    const manager = managerContainer(dig(raw, 'spec', 'template', 'spec'))!;
    const env = envValue(manager, 'OPERATOR_NAMESPACE');
    out.push({
      raw,
      index,
      name: asString(dig(raw, 'metadata', 'name')) ?? '',
      namespace: asString(dig(raw, 'metadata', 'namespace')) || undefined,
      envNamespace: env?.value || undefined,
      hasNamespaceEnv: env !== undefined,
    });
  });
  return out;
}

/** The Helm chart of the operator, in the cloudnative-pg Helm repository. */
export const OPERATOR_CHART = 'cloudnative-pg';

/** A GitOps object that installs the operator's Helm chart: a Flux HelmRelease or an Argo CD Application. */
export interface OperatorRelease {
  readonly raw: Json;
  readonly index: number;
  /** `Kind/namespace/name` of the release object, for messages. */
  readonly ref: string;
  /**
   * The namespace the chart is installed in, when the object says it: a HelmRelease's
   * `spec.targetNamespace`, else its own namespace; an Application's `spec.destination.namespace`.
   */
  readonly namespace?: string;
}

/**
 * The objects of the input that install the operator's Helm chart (Lists expanded). The chart
 * runs the operator in the release namespace with OPERATOR_NAMESPACE set to it (cloudnative-pg/charts
 * cloudnative-pg-v0.29.0 charts/cloudnative-pg/templates/deployment.yaml: fieldRef
 * metadata.namespace), so that namespace is the operator's, unless the chart value
 * `namespaceOverride` names another (templates/_helpers.tpl `cloudnative-pg.namespace`): read
 * from a HelmRelease's `spec.values` and an Application's `helm.parameters` or
 * `helm.valuesObject` (not from values files, `valuesFrom` or a `helm.values` string).
 * Flux helm-controller installs a HelmRelease into `spec.targetNamespace`, else its own namespace
 * (fluxcd/helm-controller v1.6.3 api/v2/helmrelease_types.go HelmRelease.GetReleaseNamespace); Argo CD into the Application's
 * `spec.destination.namespace`.
 */
export function findOperatorReleases(objects: readonly unknown[]): OperatorRelease[] {
  const out: OperatorRelease[] = [];
  eachObject(objects, (raw, index) => {
    const apiVersion = asString(raw.apiVersion) ?? '';
    const name = asString(dig(raw, 'metadata', 'name')) ?? '';
    const own = asString(dig(raw, 'metadata', 'namespace')) || undefined;
    if (raw.kind === 'HelmRelease' && apiVersion.startsWith('helm.toolkit.fluxcd.io/') && dig(raw, 'spec', 'chart', 'spec', 'chart') === OPERATOR_CHART) {
      const namespace = asString(dig(raw, 'spec', 'values', 'namespaceOverride')) || asString(dig(raw, 'spec', 'targetNamespace')) || own;
      out.push({ raw, index, ref: own ? `HelmRelease/${own}/${name}` : `HelmRelease/${name}`, ...(namespace ? { namespace } : {}) });
    } else if (raw.kind === 'Application' && apiVersion.startsWith('argoproj.io/')) {
      const sources = [asObject(dig(raw, 'spec', 'source')), ...objectsOf(dig(raw, 'spec', 'sources')).map((s) => s.item)];
      const chart = sources.find((s) => s?.chart === OPERATOR_CHART);
      if (!chart) return;
      const parameter = objectsOf(dig(chart, 'helm', 'parameters')).find((p) => p.item.name === 'namespaceOverride');
      const namespace =
        asString(parameter?.item.value) ||
        asString(dig(chart, 'helm', 'valuesObject', 'namespaceOverride')) ||
        asString(dig(raw, 'spec', 'destination', 'namespace')) ||
        undefined;
      out.push({ raw, index, ref: own ? `Application/${own}/${name}` : `Application/${name}`, ...(namespace ? { namespace } : {}) });
    }
  });
  return out;
}
