/*
 * CNPGI119: the Secrets and ConfigMaps a Cluster, an ObjectStore or a Pooler makes the operator
 * and the Barman Cloud plugin read, and the keys they read (src/checks/secret-references.ts).
 */
import { checkSecretData } from '../../../checks/secret-contents';
import {
  KeyedReference,
  checkReferencedKeys,
  clusterReferences,
  generatedSecretNames,
  heldKeys,
  objectStoreReferences,
  poolerReferences,
  secretText,
} from '../../../checks/secret-references';
import { unrenderedVariables } from '../../../manifests/flux-variables';
import { asObject, asString, dig } from '../../../manifests/json';
import type { Manifest } from '../../../manifests/manifest-index';
import { nearestName } from '../../../manifests/nearest-name';
import type { RuleDefinition } from '../../../rules/rule';
import { DoctorModel, modelPart } from '../../model/doctor-model';
import { reportIssues } from './fidelity-inputs';

const CNPG_GROUP = 'postgresql.cnpg.io';
const BARMAN_GROUP = 'barmancloud.cnpg.io';

/** The keys cert-manager writes into a Certificate's Secret (never `ca.key`). */
const CERTIFICATE_KEYS: ReadonlySet<string> = new Set(['tls.crt', 'tls.key', 'ca.crt']);

/** What provides a Secret or ConfigMap of a namespace and name, and the keys known to be in it. */
type Source =
  | { readonly kind: 'object'; readonly object: Manifest; readonly held: ReadonlySet<string>; readonly username?: string }
  | { readonly kind: 'known-keys'; readonly by: string; readonly held: ReadonlySet<string> }
  | { readonly kind: 'unknown-keys'; readonly by: string };

/** The Secret names each namespace's Clusters make the operator write. */
const GENERATED = modelPart((model) => {
  const out = new Map<string, Map<string, string>>();
  for (const c of model.index.ofKind('Cluster', CNPG_GROUP)) {
    let names = out.get(c.namespace ?? '');
    if (!names) out.set(c.namespace ?? '', (names = new Map()));
    for (const n of generatedSecretNames(c.raw)) if (!names.has(n)) names.set(n, c.ref);
  }
  return out;
});

function sourceOf(model: DoctorModel, ref: KeyedReference, ns: string | undefined): Source | undefined {
  const { kind, name } = ref;
  const object = model.lastNamed(kind, ns, name);
  if (object && object.group === '') {
    // a Secret with neither data nor stringData is a placeholder that a controller fills
    if (kind === 'Secret' && asObject(object.raw.data) === undefined && asObject(object.raw.stringData) === undefined)
      return { kind: 'unknown-keys', by: object.ref };
    // a Secret the API server refuses never exists: CNPGI115 says so, once
    if (kind === 'Secret' && checkSecretData(object.raw).length > 0) return { kind: 'unknown-keys', by: object.ref };
    return {
      kind: 'object',
      object,
      held: heldKeys(kind, object.raw, ref.readsBinaryData),
      username: kind === 'Secret' ? readableUsername(object.raw) : undefined,
    };
  }
  if (kind === 'ConfigMap') return undefined;
  const generatedBy = model
    .part(GENERATED)
    .get(ns ?? '')
    ?.get(name);
  if (generatedBy) return { kind: 'unknown-keys', by: generatedBy };
  const certificate = model.index.certificatesWriting(ns, name)[0];
  if (certificate) return { kind: 'known-keys', by: certificate.ref, held: CERTIFICATE_KEYS };
  // Bitnami's controller writes a Secret of the SealedSecret's name and namespace, whose keys are
  // those of encryptedData and of the template's data.
  const sealed = model.index.get('SealedSecret', ns, name, 'bitnami.com')[0];
  if (sealed) {
    const keys = [
      ...Object.keys(asObject(dig(sealed.raw, 'spec', 'encryptedData')) ?? {}),
      ...Object.keys(asObject(dig(sealed.raw, 'spec', 'template', 'data')) ?? {}),
    ];
    return { kind: 'known-keys', by: sealed.ref, held: new Set(keys) };
  }
  // External Secrets writes spec.target.name (by default the ExternalSecret's name); its keys
  // depend on the provider and templates, which the input does not show.
  const external = model.index
    .ofKind('ExternalSecret', 'external-secrets.io')
    .find((e) => e.namespace === ns && (asString(dig(e.raw, 'spec', 'target', 'name')) || e.name) === name);
  if (external) return { kind: 'unknown-keys', by: external.ref };
  return undefined;
}

/**
 * The `username` of a Secret as the reader will see it, when the input shows it: not in a Secret
 * that SOPS encrypts (its values are ciphertext until Flux or the user decrypts them), nor an
 * unrendered variable.
 */
function readableUsername(secret: Manifest['raw']): string | undefined {
  if (secret.sops !== undefined) return undefined;
  const username = secretText(secret, 'username');
  return username === undefined || unrenderedVariables(username).length > 0 || username.startsWith('ENC[') ? undefined : username;
}

/** The message part that names the nearest object of the namespace and the same name elsewhere. */
function hints(
  model: DoctorModel,
  kind: 'Secret' | 'ConfigMap',
  ns: string | undefined,
  name: string,
): { text: string; nearest?: string; others: readonly Manifest[] } {
  const here = [
    ...new Set(
      model.index
        .ofKind(kind, '')
        .filter((m) => m.namespace === ns)
        .map((m) => m.name),
    ),
  ].sort();
  const nearest = nearestName(name, here);
  const others = model.index.named(kind, name).filter((m) => m.group === '' && m.namespace !== ns);
  const elsewhere = [...new Set(others.map((m) => m.namespace ?? ''))].sort();
  const parts = [
    nearest === undefined ? undefined : `did you mean '${nearest}'?`,
    elsewhere.length ? `one is in namespace ${elsewhere.map((n) => `'${n}'`).join(', ')}, which is not read` : undefined,
  ].filter((p): p is string => p !== undefined);
  return { text: parts.length ? ` (${parts.join('; ')})` : '', nearest, others };
}

/** A Secret or ConfigMap an object needs is missing with `--complete`, or lacks a key the reader needs. */
export const rule: RuleDefinition<DoctorModel> = {
  id: 'CNPGI119',
  name: 'referenced-secrets',
  severities: [
    {
      severity: 'error',
      when: 'a Secret or ConfigMap in the input lacks a key its reader needs, or a basic-auth Secret holds another username than the reader expects; with `--complete`, a referenced Secret or ConfigMap that nothing in the input provides',
    },
    {
      severity: 'warning',
      when: 'with `--complete`, the referenced Secret or ConfigMap is in the input only in another namespace, and the referring object or that one has no namespace, so that one of them is only assumed (`--namespace` makes it an error)',
    },
  ],
  what: "A Secret or ConfigMap that a Cluster (application, superuser, certificates, external clusters it connects to, managed roles, monitoring queries, initdb SQL files, LDAP bind password, barmanObjectStore credentials and endpoint CA), an ObjectStore (credentials, endpoint CA) or a Pooler (authQuerySecret) makes the operator or the Barman Cloud plugin read: with `--complete`, it must be provided in the object's namespace (a Secret or ConfigMap of the input; a Secret the operator writes for a Cluster of the namespace, a cert-manager Certificate, a SealedSecret or an ExternalSecret); when the input holds it, it must hold the keys read. Without `--complete` a Secret not in the input is not reported: Secrets are usually kept out of Git. Fields the operator does not read in that configuration are skipped (superuserSecret without enableSuperuserAccess, an external cluster nothing connects to, a role with disablePassword); pods' env and envFrom are the kubelet's business, not checked here. A Secret the API server refuses is CNPGI115's, and its keys are not judged again.",
  why: 'cloudnative-pg v1.30.0: pkg/specs/jobs.go CreatePrimaryJob (the initdb Job takes APP_USERNAME from the application Secret, not optional); internal/management/controller/instance_controller.go reconcileUser, reconcileSuperuserPassword, reconcileMonitoringQueries, refreshPGHBA; pkg/specs/volumes.go createVolumesAndVolumeMountsForSQLRefs; internal/management/utils/secrets.go GetUserPasswordFromSecret; internal/controller/cluster_pki.go setupPostgresPKI, ensureServerCASecret, ensureClientCASecret, verifyCAValidity, ensureServerLeafCertificate, ensureReplicationClientLeafCertificate; pkg/certs/certs.go ParseCASecret, ParseServerSecret; pkg/management/external/external.go ConfigureConnectionToServer and utils.go readSecretKeyRef; internal/management/controller/roles/runnable.go getPassword; pkg/specs/pods.go AddBarmanEndpointCAToPodSpec; internal/pgbouncer/management/controller/secrets.go getSecrets; pkg/management/pgbouncer/config/config.go BuildConfigurationFiles, secrets.go detectSecretType; what the operator writes itself: internal/controller/cluster_create.go reconcileSuperuserSecret, reconcileAppUserSecret, cluster_pki.go ensureCASecret, api/v1/cluster_funcs.go GetApplicationSecretName and the other Get*SecretName. barman-cloud v0.5.1 pkg/credentials/env.go envSetCloudCredentials, envSetAWSCredentials, envSetAzureCredentials, envSetGoogleCredentials, extractValueFromSecret (the same at the commit plugin-barman-cloud v0.14.0 pins); plugin-barman-cloud v0.14.0 internal/cnpgi/common/wal.go, internal/cnpgi/operator/lifecycle_certificates.go collectObjectStoreCertificates.',
  fix: "Create the Secret or ConfigMap in the object's namespace with the keys read, or point the reference at one that exists.",
  kinds: [
    'postgresql.cnpg.io/Cluster',
    'barmancloud.cnpg.io/ObjectStore',
    'postgresql.cnpg.io/Pooler',
    'Secret',
    'ConfigMap',
    'cert-manager.io/Certificate',
    'bitnami.com/SealedSecret',
    'external-secrets.io/ExternalSecret',
  ],
  check(model, report) {
    const judge = (target: Manifest, refs: readonly KeyedReference[]): void => {
      for (const ref of refs) {
        const source = sourceOf(model, ref, target.namespace);
        if (source === undefined) {
          // a name that holds a variable is withheld by the engine (CNPGI092); a Secret or
          // ConfigMap whose name holds one may be the one referenced
          if (!model.complete || model.hasUnrenderedNames(ref.kind)) continue;
          const hint = hints(model, ref.kind, target.namespace, ref.name);
          // one of that name in another namespace: an error resting on an assumed namespace is a warning
          const { severity, note } = hint.others.length ? model.acrossNamespaces('error', [target, ...hint.others]) : { severity: 'error' as const, note: '' };
          report(
            severity,
            target,
            `${ref.kind} '${ref.name}' is not in the input in namespace '${target.namespace}'${hint.text}; ${ref.effect}${model.missingNote}${note}`,
            hint.nearest !== undefined
              ? `write '${hint.nearest}', or create ${ref.kind} '${ref.name}' in '${target.namespace}'`
              : `create ${ref.kind} '${ref.name}' in '${target.namespace}' with ${keysText(ref)}`,
            ref.path,
          );
        } else if (source.kind === 'object') {
          reportIssues(report, target, checkReferencedKeys(ref, source.held, { username: source.username }));
        } else if (source.kind === 'known-keys') {
          reportIssues(report, target, checkReferencedKeys(ref, source.held, { writtenBy: source.by }));
        }
      }
    };
    for (const c of model.index.ofKind('Cluster', CNPG_GROUP)) judge(c, clusterReferences(c.raw));
    for (const s of model.index.ofKind('ObjectStore', BARMAN_GROUP)) judge(s, objectStoreReferences(s.raw));
    for (const p of model.index.ofKind('Pooler', CNPG_GROUP)) judge(p, poolerReferences(p.raw));
  },
};

function keysText(ref: KeyedReference): string {
  const sets = ref.keys.filter((s) => s.length > 0);
  return sets.length ? sets.map((s) => s.map((k) => `'${k}'`).join(' and ')).join(', or ') : 'the data read';
}
