/*
 * The name rules of Kubernetes that several layers apply (object names, label and annotation
 * keys and values, port names), as predicates: the constructs' checks, the schema layer and the
 * doctor all call these.
 */

/** RFC 1123 DNS subdomain, as Kubernetes validates object names: at most 253 characters. */
const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
/** What one label of a DNS name holds (RFC 1035 section 2.3.4). */
const MAX_DNS_LABEL = 63;
/** RFC 1123 DNS label: at most 63 characters. */
const DNS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
/** RFC 1035 DNS label, what a Service name must be: starts with a letter. */
const DNS_1035_LABEL = /^[a-z]([-a-z0-9]*[a-z0-9])?$/;

/**
 * An RFC 1123 subdomain as Kubernetes checks object names, label key prefixes and API groups: at
 * most 253 characters of dot-separated labels, with no limit on one label (k8s.io/apimachinery
 * v0.32.13 pkg/util/validation/validation.go IsDNS1123Subdomain, the same from v0.30.0): a Backup
 * named with an 82-character label is accepted. A name that must resolve, or that a certificate
 * holds, is {@link isDnsHostName}.
 * @internal
 */
export function isDnsSubdomain(value: string): boolean {
  // JavaScript callers pass anything, and RegExp.test would read ['a'] as 'a'.
  return typeof value === 'string' && value.length <= 253 && DNS_SUBDOMAIN.test(value);
}

/**
 * A DNS host name: an RFC 1123 subdomain whose every label has at most 63 characters, the most
 * DNS carries in one label (RFC 1035 section 2.3.4). A certificate's DNS name (`dnsNames`, a
 * dNSName SAN, which RFC 5280 section 4.2.1.6 holds to that syntax) and the server name the
 * operator verifies are such names: a longer label could never be looked up or presented.
 * @internal
 */
export function isDnsHostName(value: string): boolean {
  return isDnsSubdomain(value) && longDnsLabel(value) === undefined;
}

/** The first label of `value` longer than a DNS label may be, if any. @internal */
export function longDnsLabel(value: string): string | undefined {
  return value.split('.').find((l) => l.length > MAX_DNS_LABEL);
}

/** @internal */
export function isDnsLabel(value: string): boolean {
  return typeof value === 'string' && value.length <= MAX_DNS_LABEL && DNS_LABEL.test(value);
}

/** @internal */
export function isDns1035Label(value: string): boolean {
  return typeof value === 'string' && value.length <= MAX_DNS_LABEL && DNS_1035_LABEL.test(value);
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

/** apimachinery's RegexError: the rule, examples, and the regular expression it is checked with. */
function regexProblem(rule: string, pattern: string, ...examples: string[]): string {
  return `${rule} (e.g. ${examples.map((e) => `'${e}', `).join(' or ')}regex used for validation is '${pattern}')`;
}

const LABEL_KEY_RULE = "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const LABEL_KEY_PATTERN = '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]';
const DNS_SUBDOMAIN_RULE =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character";
const DNS_SUBDOMAIN_PATTERN = '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*';
const byteLength = (s: string) => Buffer.byteLength(s, 'utf8');

/**
 * What the API server says about a label key (`[prefix/]name`), one sentence per problem, worded
 * as Kubernetes words them (k8s.io/apimachinery v0.36.2 pkg/api/validate/content/kube.go
 * IsLabelKey, dns.go IsDNS1123Subdomain, errors.go): empty when the key is valid. Webhooks that
 * check label keys themselves (CloudNativePG's toleration check) answer with these sentences.
 * @internal
 */
export function labelKeyProblems(key: string): string[] {
  const parts = key.split('/');
  if (parts.length > 2) {
    return [
      `a valid label key ${regexProblem(LABEL_KEY_RULE, LABEL_KEY_PATTERN, 'MyName', 'my.name', '123-abc')} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`,
    ];
  }
  const out: string[] = [];
  const name = parts[parts.length - 1];
  if (parts.length === 2) {
    const prefix = parts[0];
    if (prefix === '') out.push('prefix part must be non-empty');
    else {
      if (byteLength(prefix) > 253) out.push('prefix part must be no more than 253 bytes');
      if (!DNS_SUBDOMAIN.test(prefix)) out.push(`prefix part ${regexProblem(DNS_SUBDOMAIN_RULE, DNS_SUBDOMAIN_PATTERN, 'example.com')}`);
    }
  }
  if (name === '') out.push('name part must be non-empty');
  else if (byteLength(name) > 63) out.push('name part must be no more than 63 bytes');
  if (!QUALIFIED_NAME.test(name)) out.push(`name part ${regexProblem(LABEL_KEY_RULE, LABEL_KEY_PATTERN, 'MyName', 'my.name', '123-abc')}`);
  return out;
}

/**
 * What the API server says about a label value, as {@link labelKeyProblems} does for a key
 * (apimachinery v0.36.2 content/kube.go IsLabelValue): empty when the value is valid.
 * @internal
 */
export function labelValueProblems(value: string): string[] {
  const out: string[] = [];
  if (byteLength(value) > 63) out.push('must be no more than 63 bytes');
  if (value !== '' && !QUALIFIED_NAME.test(value)) {
    out.push(
      regexProblem(
        "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character",
        `(${LABEL_KEY_PATTERN})?`,
        'MyValue',
        'my_value',
        '12345',
      ),
    );
  }
  return out;
}

/** IsEnvVarName's pattern: letters, digits, '_', '-' and '.', not a digit first. */
const ENV_VAR_NAME = /^[-._a-zA-Z][-._a-zA-Z0-9]*$/;

/**
 * An environment variable name as every Kubernetes version the output targets accepts it by
 * default (1.30 to 1.36, the versions CloudNativePG v1.30.0 is tested on): letters, digits,
 * '_', '-' and '.', not a digit first, and neither '.' nor '..' nor starting with '..'
 * (k8s.io/apimachinery v0.30.0 pkg/util/validation/validation.go IsEnvVarName, hasChDirPrefix).
 * Kubernetes 1.32 and later accept any printable ASCII but '=' (IsRelaxedEnvVarName), because
 * their RelaxedEnvironmentVariableValidation feature gate is on by default; in 1.30 and 1.31 it
 * is alpha and off (kubernetes pkg/features/kube_features.go; pkg/api/pod/util.go
 * GetValidationOptionsFromPodSpecAndMeta picks the rule), so such a name fails there.
 * @internal
 */
export function isEnvVarName(name: string): boolean {
  return typeof name === 'string' && ENV_VAR_NAME.test(name) && name !== '.' && !name.startsWith('..');
}
