/*
 * The name rules of Kubernetes that several layers apply (object names, label and annotation
 * keys and values, port names), as predicates: the constructs' checks, the schema layer and the
 * doctor all call these.
 */

/** RFC 1123 DNS subdomain, as Kubernetes validates object names: at most 253 characters. */
const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
/** RFC 1123 DNS label: at most 63 characters. */
const DNS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
/** RFC 1035 DNS label, what a Service name must be: starts with a letter. */
const DNS_1035_LABEL = /^[a-z]([-a-z0-9]*[a-z0-9])?$/;

/** @internal */
export function isDnsSubdomain(value: string): boolean {
  // JavaScript callers pass anything, and RegExp.test would read ['a'] as 'a'.
  return typeof value === 'string' && value.length <= 253 && DNS_SUBDOMAIN.test(value) && value.split('.').every((l) => l.length <= 63);
}

/** @internal */
export function isDnsLabel(value: string): boolean {
  return typeof value === 'string' && value.length <= 63 && DNS_LABEL.test(value);
}

/** @internal */
export function isDns1035Label(value: string): boolean {
  return typeof value === 'string' && value.length <= 63 && DNS_1035_LABEL.test(value);
}

/** A qualified name: the part of a label or annotation key after the optional prefix. */
const QUALIFIED_NAME = /^[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$/;

/** @internal */
export function isLabelKey(key: string): boolean {
  const slash = key.lastIndexOf('/');
  const prefix = slash >= 0 ? key.slice(0, slash) : undefined;
  const name = slash >= 0 ? key.slice(slash + 1) : key;
  return (prefix === undefined || isDnsSubdomain(prefix)) && name.length <= 63 && QUALIFIED_NAME.test(name);
}

/** @internal */
export function isLabelValue(value: string): boolean {
  return value === '' || (value.length <= 63 && QUALIFIED_NAME.test(value));
}

/**
 * Whether `key` is a valid annotation key: the API server checks annotation keys as label keys
 * once lower-cased (k8s.io/apimachinery v0.32.13 pkg/api/validation/objectmeta.go
 * ValidateAnnotations), so `Example.com/Owner` is accepted.
 * @internal
 */
export function isAnnotationKey(key: string): boolean {
  return typeof key === 'string' && isLabelKey(key.toLowerCase());
}

/**
 * An IANA_SVC_NAME, what a named port must be: at most 15 characters of a-z, 0-9 and -, at
 * least one letter, no leading, trailing or doubled - (k8s.io/apimachinery v0.32.13
 * pkg/util/validation/validation.go `IsValidPortName`).
 * @internal
 */
export function isPortName(value: string): boolean {
  return (
    typeof value === 'string' &&
    value.length <= 15 &&
    /^[-a-z0-9]+$/.test(value) &&
    /[a-z]/.test(value) &&
    !value.includes('--') &&
    !value.startsWith('-') &&
    !value.endsWith('-')
  );
}
