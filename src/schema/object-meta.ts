/**
 * What the API server's built-in validation refuses in any object's `metadata`, and in the few
 * core fields this project writes that decide discovery (a Service's `targetPort`). Follows
 * k8s.io/apimachinery v0.32.13:
 * - pkg/api/validation/objectmeta.go `ValidateObjectMetaAccessor` (name through the kind's name
 *   function, namespace a DNS-1123 label, labels, annotations, ownerReferences, finalizers),
 *   `ValidateAnnotations` (keys are qualified names once lower-cased; 256 KiB in total),
 *   `validateOwnerReference`, `ValidateFinalizerName`;
 * - pkg/api/validation/generic.go `NameIsDNSSubdomain`, `NameIsDNSLabel`, `NameIsDNS1035Label`,
 *   `ValidateNamespaceName`;
 * - pkg/apis/meta/v1/validation/validation.go `ValidateLabels`;
 * - pkg/util/validation/validation.go `IsQualifiedName`, `IsValidLabelValue`,
 *   `IsDNS1123Subdomain`, `IsDNS1123Label`, `IsDNS1035Label`, `IsValidPortName`,
 *   `IsValidPortNum`;
 * - pkg/apis/meta/v1/types.go `ObjectMeta` (`finalizers` is a set, `ownerReferences` a map keyed
 *   by `uid`);
 * and, for which name rule each kind uses, kubernetes v1.32 pkg/apis/core/validation/validation.go
 * (`ValidateServiceName` = DNS-1035 label, `ValidateNamespaceName` = DNS-1123 label, most other
 * kinds a DNS-1123 subdomain) and pkg/apis/rbac/validation/validation.go (`ValidateRBACName`, a
 * path segment name).
 */
import { isPortName, isLabelValue, isLabelKey, isDns1035Label, isDnsLabel, isDnsSubdomain } from '../manifests/k8s-names';
import { issue, SchemaIssue } from './issue';

/** Which rule the API server applies to `metadata.name` of a kind. */
export type NameRule = 'dns-1123-subdomain' | 'dns-1123-label' | 'dns-1035-label' | 'path-segment';

const NAME_RULES: Record<string, NameRule> = {
  Service: 'dns-1035-label',
  Namespace: 'dns-1123-label',
  Role: 'path-segment',
  ClusterRole: 'path-segment',
  RoleBinding: 'path-segment',
  ClusterRoleBinding: 'path-segment',
};

/** The name rule of a kind (core group and apps/rbac kinds by name; everything else a subdomain). */
export function nameRuleOf(apiVersion: unknown, kind: unknown): NameRule {
  const group = typeof apiVersion === 'string' && apiVersion.includes('/') ? apiVersion.split('/')[0] : '';
  if (typeof kind !== 'string') return 'dns-1123-subdomain';
  if ((kind === 'Service' || kind === 'Namespace') && group === '') return NAME_RULES[kind];
  if (group === 'rbac.authorization.k8s.io' && NAME_RULES[kind] === 'path-segment') return 'path-segment';
  return 'dns-1123-subdomain';
}

const RULE_WORDS: Record<NameRule, { what: string; fix: string }> = {
  'dns-1123-subdomain': {
    what: 'a lowercase RFC 1123 subdomain (at most 253 characters of a-z, 0-9, - and ., each part starting and ending with a letter or digit)',
    fix: "use lower-case letters, digits, '-' and '.', e.g. 'my-name'",
  },
  'dns-1123-label': {
    what: 'a lowercase RFC 1123 label (at most 63 characters of a-z, 0-9 and -, starting and ending with a letter or digit)',
    fix: "use lower-case letters, digits and '-', e.g. 'my-name'",
  },
  'dns-1035-label': {
    what: 'a lowercase RFC 1035 label (at most 63 characters of a-z, 0-9 and -, starting with a letter and ending with a letter or digit)',
    fix: "use lower-case letters, digits and '-', starting with a letter, e.g. 'my-name'",
  },
  'path-segment': {
    what: "a path segment name (not '.' or '..', without '/' or '%')",
    fix: "leave out '/' and '%'",
  },
};

/** Whether `name` passes the rule (without the trailing-dash allowance of generateName). */
export function isValidName(rule: NameRule, name: string): boolean {
  switch (rule) {
    case 'dns-1123-subdomain':
      return isDnsSubdomain(name);
    case 'dns-1123-label':
      return isDnsLabel(name);
    case 'dns-1035-label':
      return isDns1035Label(name);
    case 'path-segment':
      return name !== '.' && name !== '..' && !name.includes('/') && !name.includes('%');
  }
}

const TOTAL_ANNOTATION_BYTES = 256 * 1024;

function isRecord(x: unknown): x is Record<string, unknown> {
  return x !== null && typeof x === 'object' && !Array.isArray(x);
}

/** The API server's checks of `metadata`, on any object. */
export function objectMetaIssues(obj: Record<string, unknown>): SchemaIssue[] {
  const out: SchemaIssue[] = [];
  const meta = obj.metadata;
  if (!isRecord(meta)) {
    out.push(issue(['metadata'], 'required', meta, 'is not set', 'an object with a name', 'add metadata with a name'));
    return out;
  }
  const rule = nameRuleOf(obj.apiVersion, obj.kind);
  const words = RULE_WORDS[rule];
  const name = meta.name;
  if (name === undefined || name === '') {
    if (meta.generateName === undefined) out.push(issue(['metadata', 'name'], 'required', undefined, 'is not set', 'a name', 'set metadata.name'));
  } else if (typeof name !== 'string') {
    out.push(issue(['metadata', 'name'], 'type', name, 'must be a string', 'a string', 'write the name as a string'));
  } else if (!isValidName(rule, name)) {
    out.push(issue(['metadata', 'name'], 'invalid-name', name, `is not ${words.what}, which a ${String(obj.kind)} name must be`, words.what, words.fix));
  }
  if (typeof meta.generateName === 'string' && meta.generateName !== '') {
    // A prefix may end in '-': the API server appends random characters.
    const prefix = meta.generateName.endsWith('-') ? `${meta.generateName}a` : meta.generateName;
    if (!isValidName(rule, prefix)) {
      out.push(issue(['metadata', 'generateName'], 'invalid-name', meta.generateName, `is not the start of ${words.what}`, words.what, words.fix));
    }
  }
  const ns = meta.namespace;
  if (ns !== undefined && ns !== '' && (typeof ns !== 'string' || !isDnsLabel(ns))) {
    out.push(
      issue(
        ['metadata', 'namespace'],
        'invalid-namespace',
        ns,
        `is not ${RULE_WORDS['dns-1123-label'].what}, which a namespace must be`,
        RULE_WORDS['dns-1123-label'].what,
        RULE_WORDS['dns-1123-label'].fix,
      ),
    );
  }
  labelIssues(meta.labels, ['metadata', 'labels'], out);
  annotationIssues(meta.annotations, out);
  finalizerIssues(meta.finalizers, out);
  ownerReferenceIssues(meta.ownerReferences, out);
  return out;
}

const LABEL_KEY_WORDS =
  "an optional DNS subdomain prefix and '/', then a name of at most 63 letters, digits, '-', '_' and '.', starting and ending with a letter or digit";
const LABEL_VALUE_WORDS = "at most 63 letters, digits, '-', '_' and '.', starting and ending with a letter or digit, or empty";

/**
 * A label value that is not a string (`enabled: true`): the API server refuses the object, and
 * Flux's kustomize-controller (v1.9.4) applies it with none of its own labels: apimachinery
 * v0.36.2 `Unstructured.GetLabels` (`NestedNullCoercingStringMap`) reads no labels when one value
 * is not a string, and fluxcd/pkg ssa v0.76.1 `ResourceManager.SetOwnerLabels` writes Flux's two
 * owner labels into that empty map.
 */
const NOT_A_STRING_LABEL = "must be a string: the API server refuses the object, and Flux's kustomize-controller applies it without any of its own labels";

/** Label keys and values, as `ValidateLabels` checks them (also usable for selectors). */
export function labelIssues(labels: unknown, path: (string | number)[], out: SchemaIssue[]): void {
  if (labels === undefined || labels === null) return;
  if (!isRecord(labels)) {
    out.push(issue(path, 'type', labels, 'must be an object of strings', 'an object of strings', "write { key: 'value' }"));
    return;
  }
  const ownLabels = path.length === 2 && path[0] === 'metadata' && path[1] === 'labels';
  for (const [k, v] of Object.entries(labels)) {
    if (!isLabelKey(k)) out.push(issue([...path, k], 'invalid-label-key', k, 'is not a valid label key', LABEL_KEY_WORDS, "use e.g. 'example.com/team'"));
    if (typeof v !== 'string')
      out.push(issue([...path, k], 'type', v, ownLabels && v !== null ? NOT_A_STRING_LABEL : 'must be a string', 'a string', 'quote the value'));
    else if (!isLabelValue(v)) {
      out.push(
        issue(
          [...path, k],
          'invalid-label-value',
          v,
          v.length > 63 ? `is ${v.length} characters long; a label value holds at most 63` : 'is not a valid label value',
          LABEL_VALUE_WORDS,
          "use at most 63 letters, digits, '-', '_' and '.'",
        ),
      );
    }
  }
}

function annotationIssues(annotations: unknown, out: SchemaIssue[]): void {
  if (annotations === undefined || annotations === null) return;
  const path = ['metadata', 'annotations'];
  if (!isRecord(annotations)) {
    out.push(issue(path, 'type', annotations, 'must be an object of strings', 'an object of strings', "write { key: 'value' }"));
    return;
  }
  let size = 0;
  for (const [k, v] of Object.entries(annotations)) {
    size += Buffer.byteLength(k) + (typeof v === 'string' ? Buffer.byteLength(v) : 0);
    if (!isLabelKey(k.toLowerCase())) {
      out.push(issue([...path, k], 'invalid-annotation-key', k, 'is not a valid annotation key', LABEL_KEY_WORDS, "use e.g. 'example.com/note'"));
    }
    if (typeof v !== 'string') out.push(issue([...path, k], 'type', v, 'must be a string', 'a string', 'quote the value'));
  }
  if (size > TOTAL_ANNOTATION_BYTES) {
    out.push(
      issue(
        path,
        'max',
        undefined,
        `hold ${size} bytes; the API server allows 262144 in total`,
        'at most 256 KiB of annotations',
        'move the data into a ConfigMap',
      ),
    );
  }
}

function finalizerIssues(finalizers: unknown, out: SchemaIssue[]): void {
  if (finalizers === undefined || finalizers === null) return;
  const path = ['metadata', 'finalizers'];
  if (!Array.isArray(finalizers)) {
    out.push(issue(path, 'type', finalizers, 'must be a list of strings', 'a list of strings', "write ['example.com/cleanup']"));
    return;
  }
  const seen = new Map<unknown, number>();
  finalizers.forEach((f, i) => {
    if (typeof f !== 'string' || !isLabelKey(f)) {
      out.push(issue([...path, i], 'invalid-name', f, 'is not a valid finalizer name', LABEL_KEY_WORDS, "use e.g. 'example.com/cleanup'"));
    }
    const first = seen.get(f);
    if (first !== undefined)
      out.push(issue([...path, i], 'duplicate', f, `repeats item ${first}; finalizers are a set`, 'distinct finalizers', 'remove the duplicate'));
    else seen.set(f, i);
  });
}

function ownerReferenceIssues(refs: unknown, out: SchemaIssue[]): void {
  if (refs === undefined || refs === null) return;
  const path = ['metadata', 'ownerReferences'];
  if (!Array.isArray(refs)) {
    out.push(issue(path, 'type', refs, 'must be a list', 'a list of owner references', 'write a list'));
    return;
  }
  let controller: number | undefined;
  refs.forEach((ref, i) => {
    if (!isRecord(ref)) {
      out.push(issue([...path, i], 'type', ref, 'must be an object', 'an owner reference', 'write { apiVersion, kind, name, uid }'));
      return;
    }
    for (const field of ['apiVersion', 'kind', 'name', 'uid']) {
      if (typeof ref[field] !== 'string' || ref[field] === '') {
        out.push(
          issue(
            [...path, i, field],
            'required',
            ref[field],
            'must not be empty',
            'a non-empty string',
            field === 'uid' ? "an owner reference needs the owner's uid, known only once it exists; leave ownership to the operator" : `set ${field}`,
          ),
        );
      }
    }
    if (ref.controller === true) {
      if (controller !== undefined) {
        out.push(
          issue(
            [...path, i, 'controller'],
            'duplicate',
            true,
            `is also set on item ${controller}; only one owner may be the controller`,
            'one controller',
            'set controller on one reference',
          ),
        );
      } else controller = i;
    }
  });
}

/**
 * A Service's ports: a string `targetPort` must be a port name (IANA_SVC_NAME), a number a TCP
 * port (kubernetes v1.32 pkg/apis/core/validation/validation.go `validateServicePort`).
 */
export function servicePortIssues(obj: Record<string, unknown>): SchemaIssue[] {
  const out: SchemaIssue[] = [];
  const spec = obj.spec;
  if (!isRecord(spec) || !Array.isArray(spec.ports)) return out;
  spec.ports.forEach((port, i) => {
    if (!isRecord(port)) return;
    const path = ['spec', 'ports', i];
    for (const field of ['port', 'targetPort'] as const) {
      const v = port[field];
      if (v === undefined) continue;
      if (typeof v === 'number') {
        if (!Number.isInteger(v) || v < 1 || v > 65535) {
          out.push(issue([...path, field], 'invalid-port', v, 'is not a TCP port', 'a whole number from 1 to 65535', 'use a whole number from 1 to 65535'));
        }
      } else if (typeof v === 'string' && field === 'targetPort') {
        if (!isPortName(v)) {
          out.push(
            issue(
              [...path, field],
              'invalid-port',
              v,
              /^\d+$/.test(v) ? 'is a number written as a string, which the API server reads as a port name' : 'is not a valid port name',
              'a port name (at most 15 of a-z, 0-9 and -, with a letter, no leading, trailing or double -) or a number',
              /^\d+$/.test(v) ? `write it as the number ${v}` : "use the container port's name, e.g. 'grpc'",
            ),
          );
        }
      } else {
        out.push(
          issue(
            [...path, field],
            'type',
            v,
            field === 'port' ? 'must be a whole number' : 'must be a number or a port name',
            field === 'port' ? 'a whole number' : 'a number or a string',
            'write a port number',
          ),
        );
      }
    }
  });
  return out;
}
