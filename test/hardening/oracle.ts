import * as fs from 'fs';
import * as path from 'path';
import * as YAML from 'yaml';
import type { AdmissionKind } from '../../src/checks/admission/admission-check';
import { admissionErrors, admit } from '../../src/checks/admission/index';
import { checkManifests } from '../../src/doctor';
import type { Finding } from '../../src/rules/finding';
import { apiServerIssues, formatIssue } from '../../src/schema/guard';
import { haveShared, sharedPath, SHARED_REQUIRED } from '../shared';

/*
 * What "correct YAML" means for the hardening properties, checked on every synthesized output:
 * plain JSON, Kubernetes' own rules for names, labels and the pod fields this library writes,
 * the upstream CRD schemas for the custom resources, the restricted Pod Security Standard for
 * every pod template, what the library's schema guard checks (the API server oracle below), and
 * no `error` from the doctor.
 */

type Obj = Record<string, any>;

const haveCrds = haveShared('crds');
if (!haveCrds && SHARED_REQUIRED) throw new Error('../shared/crds is required in CI (CNPG_I_REQUIRE_SHARED=1) but is missing beside the repository');
if (!haveCrds) console.warn('hardening: ../shared/crds not found beside the repository; the CRD schema checks are skipped');

// ---------------------------------------------------------------------------------------------
// Kubernetes names and metadata (apimachinery's validation rules).

const DNS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const DNS_1035 = /^[a-z]([-a-z0-9]*[a-z0-9])?$/;
const QUALIFIED_NAME = /^[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$/;
const LABEL_VALUE = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;
const QUANTITY = /^[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)([KMGTPE]i|[numkMGTPE]|[eE][+-]?[0-9]+)?$/;
/** Kubernetes 1.30 (IsEnvVarName; the relaxed names are on by default from 1.32 only): no '.', '..' or '..' prefix. */
const ENV_NAME = /^(?!\.\.)(?!\.$)[-._a-zA-Z][-._a-zA-Z0-9]*$/;

export function isDnsLabel(s: unknown): boolean {
  return typeof s === 'string' && s.length <= 63 && DNS_LABEL.test(s);
}
/** IsDNS1123Subdomain: at most 253 characters in all, no limit on one part. */
export function isDnsSubdomain(s: unknown): boolean {
  return typeof s === 'string' && s.length <= 253 && s.split('.').every((l) => DNS_LABEL.test(l));
}
export function isQualifiedKey(k: string): boolean {
  const slash = k.lastIndexOf('/');
  const prefix = slash >= 0 ? k.slice(0, slash) : undefined;
  const name = slash >= 0 ? k.slice(slash + 1) : k;
  return (prefix === undefined || isDnsSubdomain(prefix)) && name.length <= 63 && QUALIFIED_NAME.test(name);
}
export function isLabelValue(v: unknown): boolean {
  return typeof v === 'string' && v.length <= 63 && LABEL_VALUE.test(v);
}

const CLUSTER_SCOPED = new Set([
  'ClusterRole',
  'ClusterRoleBinding',
  'CustomResourceDefinition',
  'ClusterIssuer',
  'Namespace',
  'MutatingWebhookConfiguration',
  'ValidatingWebhookConfiguration',
  'ClusterImageCatalog',
  'PriorityClass',
  'StorageClass',
]);

class Problems {
  readonly list: string[] = [];
  constructor(private readonly ref: string) {}
  add(at: string, problem: string): void {
    this.list.push(`${this.ref} ${at}: ${problem}`);
  }
}

function labels(p: Problems, at: string, map: unknown): void {
  if (map === undefined) return;
  if (map === null || typeof map !== 'object' || Array.isArray(map)) return p.add(at, `not a map: ${JSON.stringify(map)}`);
  for (const [k, v] of Object.entries(map)) {
    if (!isQualifiedKey(k)) p.add(`${at}['${k}']`, 'invalid label key');
    if (!isLabelValue(v)) p.add(`${at}['${k}']`, `invalid label value ${JSON.stringify(v)}`);
  }
}

function annotations(p: Problems, at: string, map: unknown): void {
  if (map === undefined) return;
  if (map === null || typeof map !== 'object' || Array.isArray(map)) return p.add(at, 'not a map');
  for (const [k, v] of Object.entries(map)) {
    if (!isQualifiedKey(k)) p.add(`${at}['${k}']`, 'invalid annotation key');
    if (typeof v !== 'string') p.add(`${at}['${k}']`, 'annotation value is not a string');
  }
}

function stringArray(p: Problems, at: string, v: unknown): void {
  if (v === undefined) return;
  if (!Array.isArray(v) || v.some((s) => typeof s !== 'string')) p.add(at, `not an array of strings: ${JSON.stringify(v)}`);
}

function int(p: Problems, at: string, v: unknown, min: number, max = 2 ** 31 - 1, optional = true): void {
  if (v === undefined && optional) return;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max) p.add(at, `not an integer from ${min} to ${max}: ${JSON.stringify(v)}`);
}

function bool(p: Problems, at: string, v: unknown): void {
  if (v !== undefined && typeof v !== 'boolean') p.add(at, `not a boolean: ${JSON.stringify(v)}`);
}

function quantities(p: Problems, at: string, r: unknown): void {
  if (r === undefined) return;
  for (const side of ['limits', 'requests']) {
    for (const [k, v] of Object.entries((r as Obj)?.[side] ?? {})) {
      if (typeof v !== 'string' || !QUANTITY.test(v)) p.add(`${at}.${side}.${k}`, `not a quantity: ${JSON.stringify(v)}`);
    }
  }
}

function container(p: Problems, at: string, c: Obj, volumeNames: Set<string>): void {
  if (!isDnsLabel(c.name)) p.add(`${at}.name`, `not a DNS label: ${JSON.stringify(c.name)}`);
  if (typeof c.image !== 'string' || c.image === '' || /\s/.test(c.image)) p.add(`${at}.image`, `not an image reference: ${JSON.stringify(c.image)}`);
  stringArray(p, `${at}.command`, c.command);
  stringArray(p, `${at}.args`, c.args);
  if (c.imagePullPolicy !== undefined && !['Always', 'IfNotPresent', 'Never'].includes(c.imagePullPolicy)) {
    p.add(`${at}.imagePullPolicy`, `not a pull policy: ${JSON.stringify(c.imagePullPolicy)}`);
  }
  (c.ports ?? []).forEach((port: Obj, i: number) => {
    int(p, `${at}.ports[${i}].containerPort`, port.containerPort, 1, 65535, false);
    if (port.name !== undefined && !(typeof port.name === 'string' && port.name.length <= 15 && /^[a-z0-9-]*[a-z][a-z0-9-]*$/.test(port.name))) {
      p.add(`${at}.ports[${i}].name`, 'not an IANA service name');
    }
  });
  const envNames = new Set<string>();
  (c.env ?? []).forEach((e: Obj, i: number) => {
    if (typeof e.name !== 'string' || !ENV_NAME.test(e.name)) p.add(`${at}.env[${i}].name`, `not an env name: ${JSON.stringify(e.name)}`);
    if (envNames.has(e.name)) p.add(`${at}.env[${i}].name`, `duplicate env ${e.name}`);
    envNames.add(e.name);
    if (e.value !== undefined && typeof e.value !== 'string') p.add(`${at}.env[${i}].value`, 'not a string');
    if (e.value === undefined && (e.valueFrom === null || typeof e.valueFrom !== 'object')) p.add(`${at}.env[${i}]`, 'has neither value nor valueFrom');
  });
  quantities(p, `${at}.resources`, c.resources);
  const sc = c.securityContext ?? {};
  int(p, `${at}.securityContext.runAsUser`, sc.runAsUser, 0);
  int(p, `${at}.securityContext.runAsGroup`, sc.runAsGroup, 0);
  for (const f of ['runAsNonRoot', 'readOnlyRootFilesystem', 'allowPrivilegeEscalation', 'privileged']) bool(p, `${at}.securityContext.${f}`, sc[f]);
  (c.volumeMounts ?? []).forEach((m: Obj, i: number) => {
    if (!volumeNames.has(m.name)) p.add(`${at}.volumeMounts[${i}]`, `mounts unknown volume ${JSON.stringify(m.name)}`);
    if (typeof m.mountPath !== 'string' || !m.mountPath.startsWith('/')) p.add(`${at}.volumeMounts[${i}].mountPath`, 'not an absolute path');
  });
}

function podSpec(p: Problems, at: string, spec: Obj): void {
  const volumes = (spec.volumes ?? []) as Obj[];
  const volumeNames = new Set(volumes.map((v) => v.name));
  volumes.forEach((v, i) => {
    if (!isDnsLabel(v.name)) p.add(`${at}.volumes[${i}].name`, 'not a DNS label');
    if (v.secret && !isDnsSubdomain(v.secret.secretName)) p.add(`${at}.volumes[${i}].secret.secretName`, 'not a Secret name');
  });
  const names = new Set<string>();
  for (const kind of ['initContainers', 'containers']) {
    ((spec[kind] ?? []) as Obj[]).forEach((c, i) => {
      container(p, `${at}.${kind}[${i}]`, c, volumeNames);
      if (names.has(c.name)) p.add(`${at}.${kind}[${i}].name`, `duplicate container name ${c.name}`);
      names.add(c.name);
    });
  }
  bool(p, `${at}.automountServiceAccountToken`, spec.automountServiceAccountToken);
  if (spec.serviceAccountName !== undefined && !isDnsSubdomain(spec.serviceAccountName)) p.add(`${at}.serviceAccountName`, 'not a name');
  labels(p, `${at}.nodeSelector`, spec.nodeSelector);
  if (spec.priorityClassName !== undefined && !isDnsSubdomain(spec.priorityClassName)) p.add(`${at}.priorityClassName`, 'not a name');
  (spec.imagePullSecrets ?? []).forEach((s: Obj, i: number) => {
    if (!isDnsSubdomain(s?.name)) p.add(`${at}.imagePullSecrets[${i}].name`, 'not a Secret name');
  });
  (spec.tolerations ?? []).forEach((t: Obj, i: number) => {
    const tat = `${at}.tolerations[${i}]`;
    if (t === null || typeof t !== 'object') return p.add(tat, 'not an object');
    if (t.operator !== undefined && !['Exists', 'Equal'].includes(t.operator)) p.add(`${tat}.operator`, `invalid: ${JSON.stringify(t.operator)}`);
    if (t.effect !== undefined && !['', 'NoSchedule', 'PreferNoSchedule', 'NoExecute'].includes(t.effect))
      p.add(`${tat}.effect`, `invalid: ${JSON.stringify(t.effect)}`);
    if (t.key !== undefined && (typeof t.key !== 'string' || (t.key !== '' && !isQualifiedKey(t.key)))) p.add(`${tat}.key`, 'not a label key');
    if (t.operator === 'Exists' && t.value !== undefined && t.value !== '') p.add(`${tat}.value`, 'must be empty with Exists');
    if (t.value !== undefined && !isLabelValue(t.value)) p.add(`${tat}.value`, 'not a label value');
    int(p, `${tat}.tolerationSeconds`, t.tolerationSeconds, Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER);
  });
  const sc = spec.securityContext ?? {};
  int(p, `${at}.securityContext.runAsUser`, sc.runAsUser, 0);
  int(p, `${at}.securityContext.runAsGroup`, sc.runAsGroup, 0);
  int(p, `${at}.securityContext.fsGroup`, sc.fsGroup, 0);
}

/** Kubernetes' own rules for the core objects this library writes. */
export function kubernetesProblems(objects: Obj[]): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  for (const o of objects) {
    const ref = `${o?.kind}/${o?.metadata?.namespace ?? ''}/${o?.metadata?.name}`;
    const p = new Problems(ref);
    if (typeof o.apiVersion !== 'string' || typeof o.kind !== 'string') p.add('', 'no apiVersion/kind');
    const md = o.metadata ?? {};
    const nameOk = o.kind === 'Service' ? isDnsLabel(md.name) && DNS_1035.test(md.name) : isDnsSubdomain(md.name);
    if (!nameOk) p.add('metadata.name', `invalid name ${JSON.stringify(md.name)}`);
    if (CLUSTER_SCOPED.has(o.kind)) {
      if (md.namespace !== undefined) p.add('metadata.namespace', 'set on a cluster-scoped object');
    } else if (!isDnsLabel(md.namespace)) {
      p.add('metadata.namespace', `invalid namespace ${JSON.stringify(md.namespace)}`);
    }
    const key = `${o.apiVersion}/${o.kind}/${md.namespace ?? ''}/${md.name}`;
    if (seen.has(key)) p.add('', 'two objects with the same kind, namespace and name');
    seen.add(key);
    labels(p, 'metadata.labels', md.labels);
    annotations(p, 'metadata.annotations', md.annotations);
    const spec = o.spec ?? {};
    switch (o.kind) {
      case 'Deployment': {
        int(p, 'spec.replicas', spec.replicas, 0);
        const tmpl = spec.template ?? {};
        labels(p, 'spec.template.metadata.labels', tmpl.metadata?.labels);
        annotations(p, 'spec.template.metadata.annotations', tmpl.metadata?.annotations);
        labels(p, 'spec.selector.matchLabels', spec.selector?.matchLabels);
        for (const [k, v] of Object.entries(spec.selector?.matchLabels ?? {})) {
          if (tmpl.metadata?.labels?.[k] !== v) p.add('spec.selector', `selects ${k}=${String(v)}, which the pod template does not carry`);
        }
        if (spec.strategy?.type !== undefined && !['Recreate', 'RollingUpdate'].includes(spec.strategy.type)) p.add('spec.strategy.type', 'invalid');
        if (spec.strategy?.type === 'Recreate' && spec.strategy.rollingUpdate !== undefined) p.add('spec.strategy', 'rollingUpdate with Recreate');
        podSpec(p, 'spec.template.spec', tmpl.spec ?? {});
        break;
      }
      case 'Service':
        labels(p, 'spec.selector', spec.selector);
        (spec.ports ?? []).forEach((port: Obj, i: number) => {
          int(p, `spec.ports[${i}].port`, port.port, 1, 65535, false);
          if (typeof port.targetPort === 'number') int(p, `spec.ports[${i}].targetPort`, port.targetPort, 1, 65535);
        });
        break;
      case 'NetworkPolicy':
        labels(p, 'spec.podSelector.matchLabels', spec.podSelector?.matchLabels);
        (spec.ingress ?? []).forEach((rule: Obj, i: number) => {
          (rule.from ?? []).forEach((f: Obj, j: number) => labels(p, `spec.ingress[${i}].from[${j}].podSelector.matchLabels`, f.podSelector?.matchLabels));
          (rule.ports ?? []).forEach((port: Obj, j: number) => int(p, `spec.ingress[${i}].ports[${j}].port`, port.port, 1, 65535));
        });
        break;
      case 'PodDisruptionBudget':
        labels(p, 'spec.selector.matchLabels', spec.selector?.matchLabels);
        break;
      case 'ConfigMap':
        for (const [k, v] of Object.entries(o.data ?? {})) {
          if (!/^[-._a-zA-Z0-9]+$/.test(k) || typeof v !== 'string') p.add(`data.${k}`, 'invalid key or value');
        }
        break;
      case 'ServiceAccount':
        bool(p, 'automountServiceAccountToken', o.automountServiceAccountToken);
        break;
      case 'ClusterRole':
      case 'Role':
        (o.rules ?? []).forEach((r: Obj, i: number) => {
          for (const f of ['apiGroups', 'resources', 'verbs']) stringArray(p, `rules[${i}].${f}`, r[f]);
        });
        break;
      default:
    }
    out.push(...p.list);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Upstream CRD schemas (structural OpenAPI v3: types, required, enums, patterns, bounds, and
// no field the API server would prune).

type Schema = Obj;
const crdSchemas = new Map<string, Schema>();

function loadCrds(): void {
  if (!haveCrds || crdSchemas.size > 0) return;
  const dir = sharedPath('crds');
  for (const file of fs.readdirSync(dir).filter((f) => f.endsWith('.yaml'))) {
    for (const doc of YAML.parseAllDocuments(fs.readFileSync(path.join(dir, file), 'utf8')).map((d) => d.toJS())) {
      if (doc?.kind !== 'CustomResourceDefinition') continue;
      for (const v of doc.spec.versions ?? []) {
        crdSchemas.set(`${doc.spec.group}/${v.name}/${doc.spec.names.kind}`, v.schema?.openAPIV3Schema);
      }
    }
  }
}

const regexCache = new Map<string, RegExp | null>();
function regex(pattern: string): RegExp | null {
  if (!regexCache.has(pattern)) {
    try {
      regexCache.set(pattern, new RegExp(pattern, 'u'));
    } catch {
      regexCache.set(pattern, null);
    }
  }
  return regexCache.get(pattern)!;
}

function validate(schema: Schema, value: unknown, at: string, out: string[]): void {
  if (!schema) return;
  for (const sub of schema.allOf ?? []) validate(sub, value, at, out);
  for (const key of ['anyOf', 'oneOf']) {
    if (
      schema[key] &&
      !(schema[key] as Schema[]).some((s) => {
        const o: string[] = [];
        validate(s, value, at, o);
        return o.length === 0;
      })
    ) {
      out.push(`${at}: matches none of ${key}`);
    }
  }
  if (schema['x-kubernetes-int-or-string']) {
    if (!(typeof value === 'string' || (typeof value === 'number' && Number.isInteger(value)))) out.push(`${at}: not an int or string`);
    return;
  }
  switch (schema.type) {
    case 'object': {
      if (value === null || typeof value !== 'object' || Array.isArray(value)) {
        out.push(`${at}: not an object`);
        return;
      }
      const o = value as Obj;
      for (const r of schema.required ?? []) if (o[r] === undefined) out.push(`${at}.${r}: required`);
      const props = schema.properties as Record<string, Schema> | undefined;
      for (const [k, v] of Object.entries(o)) {
        if (props?.[k]) validate(props[k], v, `${at}.${k}`, out);
        else if (schema.additionalProperties && typeof schema.additionalProperties === 'object') validate(schema.additionalProperties, v, `${at}.${k}`, out);
        else if (props && !schema['x-kubernetes-preserve-unknown-fields']) out.push(`${at}.${k}: unknown field (the API server drops it)`);
      }
      if (schema.minProperties !== undefined && Object.keys(o).length < schema.minProperties) out.push(`${at}: fewer than ${schema.minProperties} properties`);
      if (schema.maxProperties !== undefined && Object.keys(o).length > schema.maxProperties) out.push(`${at}: more than ${schema.maxProperties} properties`);
      return;
    }
    case 'array':
      if (!Array.isArray(value)) return void out.push(`${at}: not an array`);
      if (schema.minItems !== undefined && value.length < schema.minItems) out.push(`${at}: fewer than ${schema.minItems} items`);
      if (schema.maxItems !== undefined && value.length > schema.maxItems) out.push(`${at}: more than ${schema.maxItems} items`);
      value.forEach((v, i) => validate(schema.items, v, `${at}[${i}]`, out));
      return;
    case 'string': {
      if (typeof value !== 'string') return void out.push(`${at}: not a string: ${JSON.stringify(value)}`);
      if (schema.enum && !schema.enum.includes(value)) out.push(`${at}: '${value}' not in ${JSON.stringify(schema.enum)}`);
      const re = schema.pattern ? regex(schema.pattern) : null;
      if (re && !re.test(value)) out.push(`${at}: '${value}' does not match ${schema.pattern}`);
      if (schema.minLength !== undefined && value.length < schema.minLength) out.push(`${at}: shorter than ${schema.minLength}`);
      if (schema.maxLength !== undefined && value.length > schema.maxLength) out.push(`${at}: longer than ${schema.maxLength}`);
      return;
    }
    case 'integer':
    case 'number':
      if (typeof value !== 'number' || !Number.isFinite(value) || (schema.type === 'integer' && !Number.isInteger(value))) {
        return void out.push(`${at}: not an ${schema.type}: ${JSON.stringify(value)}`);
      }
      if (schema.minimum !== undefined && value < schema.minimum) out.push(`${at}: below ${schema.minimum}`);
      if (schema.maximum !== undefined && value > schema.maximum) out.push(`${at}: above ${schema.maximum}`);
      if (schema.enum && !schema.enum.includes(value)) out.push(`${at}: not in ${JSON.stringify(schema.enum)}`);
      return;
    case 'boolean':
      if (typeof value !== 'boolean') out.push(`${at}: not a boolean: ${JSON.stringify(value)}`);
      return;
    default:
  }
}

/** Problems of the custom resources against their upstream CRD (none when ../shared is absent). */
export function crdProblems(objects: Obj[]): string[] {
  loadCrds();
  const out: string[] = [];
  for (const o of objects) {
    const [group, version] = String(o.apiVersion).split('/');
    const schema = crdSchemas.get(`${group}/${version}/${o.kind}`);
    if (!schema) continue;
    const ref = `${o.kind}/${o.metadata?.name}`;
    const { metadata: _m, ...rest } = o;
    const problems: string[] = [];
    validate(
      { ...schema, properties: { ...schema.properties, metadata: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } },
      { ...rest, metadata: {} },
      ref,
      problems,
    );
    out.push(...problems);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// The Pod Security Standards "restricted" profile (v1.28), written out here rather than taken
// from the doctor, so the two are independent.

const RESTRICTED_VOLUMES = new Set(['configMap', 'csi', 'downwardAPI', 'emptyDir', 'ephemeral', 'persistentVolumeClaim', 'projected', 'secret']);

/** Every violation of the restricted profile in one pod spec. */
export function restrictedViolations(spec: Obj): string[] {
  const out: string[] = [];
  const pod = spec.securityContext ?? {};
  for (const f of ['hostNetwork', 'hostPID', 'hostIPC']) if (spec[f] === true) out.push(`${f}`);
  for (const v of spec.volumes ?? []) {
    const type = Object.keys(v).find((k) => k !== 'name');
    if (!type || !RESTRICTED_VOLUMES.has(type)) out.push(`volume ${v.name} of type ${type}`);
  }
  if (pod.seLinuxOptions?.type !== undefined && !['container_t', 'container_init_t', 'container_kvm_t', ''].includes(pod.seLinuxOptions.type))
    out.push('pod seLinuxOptions.type');
  if (pod.seLinuxOptions?.user !== undefined || pod.seLinuxOptions?.role !== undefined) out.push('pod seLinuxOptions user/role');
  for (const s of pod.sysctls ?? []) out.push(`sysctl ${s.name}`);
  if (pod.runAsUser === 0) out.push('pod runAsUser 0');
  if (pod.seccompProfile?.type !== undefined && !['RuntimeDefault', 'Localhost'].includes(pod.seccompProfile.type)) out.push('pod seccomp');
  if (pod.appArmorProfile?.type !== undefined && !['RuntimeDefault', 'Localhost'].includes(pod.appArmorProfile.type)) out.push('pod appArmor');
  const containers: Obj[] = [...(spec.initContainers ?? []), ...(spec.containers ?? []), ...(spec.ephemeralContainers ?? [])];
  for (const c of containers) {
    const sc = c.securityContext ?? {};
    const n = `container ${c.name}`;
    if (sc.privileged === true) out.push(`${n} privileged`);
    if (sc.allowPrivilegeEscalation !== false) out.push(`${n} allowPrivilegeEscalation not false`);
    if (sc.procMount !== undefined && sc.procMount !== 'Default') out.push(`${n} procMount`);
    if (!(sc.capabilities?.drop ?? []).includes('ALL')) out.push(`${n} does not drop ALL`);
    for (const cap of sc.capabilities?.add ?? []) if (cap !== 'NET_BIND_SERVICE') out.push(`${n} adds ${cap}`);
    if ((sc.runAsNonRoot ?? pod.runAsNonRoot) !== true) out.push(`${n} runAsNonRoot not true`);
    if ((sc.runAsUser ?? pod.runAsUser) === 0) out.push(`${n} runs as uid 0`);
    const seccomp = sc.seccompProfile?.type ?? pod.seccompProfile?.type;
    if (!['RuntimeDefault', 'Localhost'].includes(seccomp)) out.push(`${n} seccomp ${seccomp}`);
    if (sc.seLinuxOptions?.user !== undefined || sc.seLinuxOptions?.role !== undefined) out.push(`${n} seLinuxOptions user/role`);
    if (sc.appArmorProfile?.type !== undefined && !['RuntimeDefault', 'Localhost'].includes(sc.appArmorProfile.type)) out.push(`${n} appArmor`);
    for (const port of c.ports ?? []) if (port.hostPort) out.push(`${n} hostPort ${port.hostPort}`);
    if (sc.windowsOptions?.hostProcess === true) out.push(`${n} hostProcess`);
  }
  return out;
}

/** Pod specs of the Deployments in the output, with their owners. */
export function podTemplates(objects: Obj[]): Array<{ ref: string; spec: Obj }> {
  return objects
    .filter((o) => ['Deployment', 'StatefulSet', 'DaemonSet', 'Job', 'ReplicaSet'].includes(o.kind))
    .map((o) => ({ ref: `${o.kind}/${o.metadata.namespace}/${o.metadata.name}`, spec: o.spec?.template?.spec ?? {} }))
    .concat(objects.filter((o) => o.kind === 'Pod').map((o) => ({ ref: `Pod/${o.metadata.namespace}/${o.metadata.name}`, spec: o.spec ?? {} })));
}

// ---------------------------------------------------------------------------------------------
// No secret material: the library writes references to Secrets, never their content.

const SECRET_LIKE_KEY = /(password|passwd|passphrase|token|apikey|api_key|accesskey|access_key|secretkey|secret_key|privatekey|private_key|credentials?)$/i;

/** Secrets with data, PEM blocks, and literal values under password-like keys. */
export function secretProblems(objects: Obj[]): string[] {
  const out: string[] = [];
  for (const o of objects) {
    const ref = `${o.kind}/${o.metadata?.name}`;
    if (o.kind === 'Secret' && (o.data !== undefined || o.stringData !== undefined)) out.push(`${ref}: a Secret with data`);
    const walk = (v: unknown, key: string, at: string): void => {
      if (typeof v === 'string') {
        if (/-----BEGIN [A-Z ]+-----/.test(v)) out.push(`${ref} ${at}: PEM block`);
        if (SECRET_LIKE_KEY.test(key) && !/^(true|false)$/.test(v)) out.push(`${ref} ${at}: literal value under '${key}'`);
        return;
      }
      if (Array.isArray(v)) return v.forEach((x, i) => walk(x, key, `${at}[${i}]`));
      if (v !== null && typeof v === 'object') {
        for (const [k, x] of Object.entries(v as Obj)) walk(x, k, `${at}.${k}`);
      }
    };
    walk(o, '', '');
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// The API server oracle: every object passes the validation the library's schema guard runs
// (src/schema/guard.ts apiServerIssues: the pinned CRD schema after pruning and
// defaulting, its CEL rules, object metadata and names per kind, workload names as DNS labels,
// and no resource request above its limit) and, for a CloudNativePG object, the errors of its
// admission (src/checks/admission admit: the defaulter, then the webhook's checks, Cluster
// names among them). So the properties prove that no object the library emits would be refused
// for any of these reasons.

const CNPG_KINDS: readonly string[] = ['Cluster', 'Backup', 'ScheduledBackup', 'Pooler', 'Database'];

/** One line per problem the API server (or the CloudNativePG webhook) would have with an object. */
export function apiServerProblems(objects: Obj[]): string[] {
  return objects.flatMap((o) => {
    const ref = `${o?.kind}/${o?.metadata?.namespace ?? ''}/${o?.metadata?.name}`;
    const admission =
      String(o?.apiVersion).startsWith('postgresql.cnpg.io/') && CNPG_KINDS.includes(o?.kind) ? admissionErrors(admit(o.kind as AdmissionKind, o)) : [];
    return [...apiServerIssues(o).map((i) => `${ref} ${formatIssue(i)}`), ...admission.map((i) => `${ref} ${i.path}: ${i.message}`)];
  });
}

/** Fails, listing the problems, unless every object passes {@link apiServerProblems}. */
export function expectApiServerAccepts(objects: Obj[]): void {
  const problems = apiServerProblems(objects);
  if (problems.length > 0) {
    throw new Error(
      `the API server would refuse:\n  ${problems.slice(0, 20).join('\n  ')}${problems.length > 20 ? `\n  ... and ${problems.length - 20} more` : ''}`,
    );
  }
}

// ---------------------------------------------------------------------------------------------

/** Warnings the doctor reported on accepted outputs, by rule id: reported at the end of a file. */
export const WARNINGS_SEEN = new Map<string, { count: number; example: string }>();

/** A JSON-clean deep copy: fails on NaN, Infinity, functions, symbols, bigints, undefined in arrays. */
function jsonProblems(objects: unknown): string[] {
  const out: string[] = [];
  const walk = (v: unknown, at: string): void => {
    if (v === null || typeof v === 'string' || typeof v === 'boolean') return;
    if (typeof v === 'number') {
      if (!Number.isFinite(v)) out.push(`${at}: ${v}`);
      return;
    }
    if (Array.isArray(v)) return v.forEach((x, i) => walk(x, `${at}[${i}]`));
    if (typeof v === 'object' && Object.getPrototypeOf(v) === Object.prototype) {
      for (const [k, x] of Object.entries(v as Obj)) {
        if (x === undefined) out.push(`${at}.${k}: undefined`);
        else walk(x, `${at}.${k}`);
      }
      return;
    }
    out.push(`${at}: not JSON (${typeof v} ${Object.prototype.toString.call(v)})`);
  };
  walk(objects, '$');
  return out;
}

export interface OutputCheckOptions {
  readonly operatorNamespace?: string;
  readonly knownPlugins?: string[];
  /** Groups the doctor warnings of this scenario in the report. */
  readonly label?: string;
  /**
   * Which containers the restricted profile is checked on: all by default; for sidecars, only
   * the ones the library added (the operator's own containers are the user's).
   */
  readonly pssContainers?: (name: string) => boolean;
}

/**
 * Fails unless the output is correct YAML by every rule above and the doctor reports no error.
 * Returns the doctor's findings (warnings only).
 */
export function expectGoodOutput(objects: Obj[], options: OutputCheckOptions = {}): Finding[] {
  const problems = [
    ...jsonProblems(objects),
    ...kubernetesProblems(objects),
    ...crdProblems(objects),
    ...secretProblems(objects),
    ...apiServerProblems(objects),
    ...podTemplates(objects).flatMap((t) => {
      const only = options.pssContainers;
      const spec = only ? { ...t.spec, containers: (t.spec.containers ?? []).filter((c: Obj) => only(c.name)), initContainers: [], volumes: [] } : t.spec;
      return restrictedViolations(spec).map((v) => `${t.ref}: restricted PSS: ${v}`);
    }),
  ];
  const findings = checkManifests(objects, {
    operatorNamespace: options.operatorNamespace ?? 'cnpg-system',
    ...(options.knownPlugins ? { knownPlugins: options.knownPlugins } : {}),
  });
  for (const f of findings) {
    if (f.severity === 'error') problems.push(`doctor ${f.ruleId} error on ${f.object}: ${f.message}`);
    else {
      const key = `${f.ruleId}${options.label ? ` (${options.label})` : ''}`;
      const seen = WARNINGS_SEEN.get(key);
      if (seen) seen.count++;
      else WARNINGS_SEEN.set(key, { count: 1, example: `${f.object}: ${f.message}` });
    }
  }
  if (problems.length > 0) {
    throw new Error(`wrong output:\n  ${problems.slice(0, 20).join('\n  ')}${problems.length > 20 ? `\n  ... and ${problems.length - 20} more` : ''}`);
  }
  return findings;
}

/** Prints the doctor warnings seen in this file (the report lists and explains them). */
export function reportWarnings(file: string): void {
  if (WARNINGS_SEEN.size === 0) return;
  const lines = [...WARNINGS_SEEN.entries()].map(([k, v]) => `  ${k} x${v.count}, e.g. ${v.example}`);

  console.log(`${file}: doctor warnings on accepted outputs:\n${lines.join('\n')}`);
}

// ---------------------------------------------------------------------------------------------

/**
 * The four places a plugin name must agree: every name a Cluster, Backup, ScheduledBackup or
 * external cluster uses is the `cnpg.io/pluginName` label of a Service in the output, a
 * sidecar socket of the output, or a plugin the test declares as installed elsewhere.
 */
export function expectPluginNamesAgree(objects: Obj[], extra: { sockets?: string[]; known?: string[] } = {}): void {
  const provided = new Set<string>([
    ...objects.filter((o) => o.kind === 'Service' && o.metadata?.labels?.['cnpg.io/pluginName']).map((o) => o.metadata.labels['cnpg.io/pluginName'] as string),
    ...(extra.sockets ?? []),
    ...(extra.known ?? []),
  ]);
  const problems: string[] = [];
  const clusters = new Map<string, Obj>();
  for (const o of objects.filter((x) => x.kind === 'Cluster')) {
    clusters.set(`${o.metadata.namespace}/${o.metadata.name}`, o);
    for (const p of o.spec.plugins ?? []) if (!provided.has(p.name)) problems.push(`Cluster ${o.metadata.name} spec.plugins ${p.name}`);
    for (const e of o.spec.externalClusters ?? []) {
      if (e.plugin && !provided.has(e.plugin.name)) problems.push(`Cluster ${o.metadata.name} externalClusters ${e.name} plugin ${e.plugin.name}`);
    }
  }
  for (const o of objects.filter((x) => x.kind === 'Backup' || x.kind === 'ScheduledBackup')) {
    const name = o.spec.pluginConfiguration?.name;
    if (!provided.has(name)) problems.push(`${o.kind} ${o.metadata.name} pluginConfiguration ${name}`);
    const cluster = clusters.get(`${o.metadata.namespace}/${o.spec.cluster.name}`);
    if (cluster && !(cluster.spec.plugins ?? []).some((p: Obj) => p.name === name && p.enabled !== false)) {
      problems.push(`${o.kind} ${o.metadata.name} uses ${name}, which Cluster ${cluster.metadata.name} does not enable`);
    }
  }
  if (problems.length > 0) throw new Error(`plugin names disagree (provided: ${[...provided].join(', ')}):\n  ${problems.join('\n  ')}`);
}
