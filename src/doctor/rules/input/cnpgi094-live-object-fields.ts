/*
 * CNPGI094: a manifest that is a dump of a live object (`kubectl get -o yaml`), carrying the
 * fields the API server sets. What the API server does with each (kubernetes/apiserver and
 * kubernetes/apimachinery v0.36.3, the staging copies of kubernetes v1.36.3; kubectl v0.36.3;
 * cli-runtime v0.36.2):
 *
 * - metadata.uid: a server-side apply of an object that does not exist is refused
 *   (apiserver pkg/endpoints/handlers/patch.go (*patcher).applyPatch: "uid mismatch: the provided
 *   object specified uid ..., and no existing object was found"); an update of an object with
 *   another uid is refused (apimachinery pkg/api/validation/objectmeta.go
 *   ValidateObjectMetaUpdate: metadata.uid is immutable). A create replaces it
 *   (apiserver pkg/registry/generic/registry/store.go (*Store).create,
 *   pkg/registry/rest/meta.go FillObjectMetaSystemFields), so kubectl's client-side apply of a
 *   missing object works.
 * - metadata.resourceVersion: a create request that carries it is refused (apiserver
 *   pkg/storage/etcd3/store.go (*store).Create, ErrResourceVersionSetOnCreate "resourceVersion
 *   should not be set on objects to be created"); kubectl clears it before a create
 *   (cli-runtime pkg/resource/helper.go CreateWithOptions). An update or server-side apply that
 *   carries it is refused as a conflict unless it is the live object's current version
 *   (pkg/registry/generic/registry/store.go (*Store).Update, OptimisticLockErrorMsg), and a
 *   Cluster's version changes whenever CloudNativePG writes its status.
 * - metadata.managedFields: a server-side apply that carries it, even empty, is refused
 *   (apimachinery pkg/util/managedfields/internal/structuredmerge.go Apply: "metadata.managedFields
 *   must be nil"; unstructured.go GetManagedFields is nil only when the field is absent or null).
 * - metadata.creationTimestamp: set at create (FillObjectMetaSystemFields), kept from the live
 *   object at update (pkg/registry/rest/update.go BeforeUpdate); `null`, what many tools write, is
 *   no value.
 * - metadata.generation: 1 at create, the live object's at update (apiextensions-apiserver
 *   v0.36.3 pkg/registry/customresource/strategy.go PrepareForCreate; rest/update.go BeforeUpdate).
 * - metadata.selfLink: cleared before storage (apiserver pkg/storage/api_object_versioner.go
 *   PrepareObjectForStorage).
 * - status (not judged on a running cluster read by `cnpg-i-doctor cluster`, where it is the live
 *   state), on a kind whose pinned CRD has a status subresource: dropped at create and kept from
 *   the live object at update (customresource/strategy.go PrepareForCreate, PrepareForUpdate).
 *   An empty `status: {}` sets nothing. Kinds without a pinned CRD are not judged: without a
 *   status subresource the status is stored as given.
 */
import { Json, asObject, dig } from '../../../manifests/json';
import type { RuleDefinition } from '../../../rules/rule';
import { crdSchema } from '../../../schema/crd-schemas';
import type { DoctorModel } from '../../model/doctor-model';

/** Whether `value` is set: neither absent nor `null` (nor an empty string). */
function present(value: unknown): boolean {
  return value !== undefined && value !== null && value !== '';
}

/** A manifest carrying a live object's uid, resourceVersion or managedFields; its other server-set fields. */
export const rule: RuleDefinition<DoctorModel> = {
  id: 'CNPGI094',
  name: 'live-object-fields',
  severities: [
    {
      severity: 'error',
      when: '`metadata.uid`, `metadata.resourceVersion` or `metadata.managedFields` is set: a server-side apply (Flux, Argo CD with `ServerSideApply=true`, `kubectl apply --server-side`) is refused',
    },
    {
      severity: 'warning',
      when: '`metadata.creationTimestamp` (not `null`), `metadata.generation`, `metadata.selfLink`, or a non-empty `status` on a kind with a status subresource is set: the API server ignores it',
    },
  ],
  what: 'A manifest carries the fields the API server sets on a live object (a dump of `kubectl get -o yaml`): `metadata.uid`, `resourceVersion`, `managedFields`, `creationTimestamp`, `generation`, `selfLink`, `status`.',
  why: 'kubernetes/apiserver v0.36.3 (kubernetes v1.36.3) pkg/endpoints/handlers/patch.go (*patcher).applyPatch refuses a server-side apply whose uid names no existing object ("uid mismatch: the provided object specified uid ..., and no existing object was found"), and apimachinery v0.36.3 pkg/api/validation/objectmeta.go ValidateObjectMetaUpdate keeps metadata.uid immutable; a create replaces the uid (pkg/registry/rest/meta.go FillObjectMetaSystemFields), so client-side apply of a missing object works. pkg/storage/etcd3/store.go (*store).Create refuses a create that carries a resourceVersion ("resourceVersion should not be set on objects to be created"; kubectl clears it first, cli-runtime v0.36.2 pkg/resource/helper.go CreateWithOptions), and pkg/registry/generic/registry/store.go (*Store).Update refuses an update or apply whose resourceVersion is not the live one as a conflict. apimachinery pkg/util/managedfields/internal/structuredmerge.go Apply refuses a server-side apply with managedFields ("metadata.managedFields must be nil"). creationTimestamp and generation are set at create and kept at update (FillObjectMetaSystemFields, pkg/registry/rest/update.go BeforeUpdate, apiextensions-apiserver v0.36.3 pkg/registry/customresource/strategy.go PrepareForCreate), selfLink is cleared (pkg/storage/api_object_versioner.go PrepareObjectForStorage), and the status of a kind with a status subresource is dropped at create and kept at update (strategy.go PrepareForCreate, PrepareForUpdate).',
  fix: 'Remove the fields the API server sets: metadata.uid, resourceVersion, managedFields, creationTimestamp, generation, selfLink, and status.',
  kinds: ['*'],
  check(model, report) {
    for (const m of model.index.all) {
      const meta = asObject(dig(m.raw, 'metadata')) ?? {};
      const refused: Array<{ path: string; what: string }> = [];
      if (present(meta.uid)) {
        refused.push({
          path: 'metadata.uid',
          what: `metadata.uid: a server-side apply (Flux, Argo CD with ServerSideApply=true, kubectl apply --server-side) is refused with "uid mismatch: the provided object specified uid ${String(meta.uid)}, and no existing object was found" while the object does not exist, and any update is refused once another object of that name does (metadata.uid is immutable); only a client-side create replaces it`,
        });
      }
      if (present(meta.resourceVersion)) {
        refused.push({
          path: 'metadata.resourceVersion',
          what: 'metadata.resourceVersion: a create that sends it is refused ("resourceVersion should not be set on objects to be created"; kubectl clears it first), and a server-side apply or update of the object is refused as a conflict as soon as the live object has changed since the dump',
        });
      }
      if (meta.managedFields !== undefined && meta.managedFields !== null) {
        refused.push({ path: 'metadata.managedFields', what: 'metadata.managedFields: a server-side apply is refused ("metadata.managedFields must be nil")' });
      }
      if (refused.length) {
        report(
          'error',
          m,
          `carries what the API server set on a live object (a dump of kubectl get -o yaml): ${refused.map((r) => r.what).join('; ')}`,
          `remove ${listOf(refused.map((r) => r.path))}`,
          refused[0].path,
        );
      }
      const ignored: Array<{ path: string; what: string }> = [];
      if (present(meta.creationTimestamp))
        ignored.push({ path: 'metadata.creationTimestamp', what: 'metadata.creationTimestamp (set at create, kept at update)' });
      if (present(meta.generation)) ignored.push({ path: 'metadata.generation', what: 'metadata.generation (1 at create, the live one at update)' });
      if (present(meta.selfLink)) ignored.push({ path: 'metadata.selfLink', what: 'metadata.selfLink (cleared)' });
      if (model.live === undefined && hasStatus(m.raw) && crdSchema(m.raw.apiVersion, m.raw.kind)?.statusSubresource === true) {
        ignored.push({ path: 'status', what: `status (${m.kind} has a status subresource: dropped at create, the live one kept at update)` });
      }
      if (ignored.length) {
        report(
          'warning',
          m,
          `carries what the API server set on a live object, which it ignores: ${ignored.map((i) => i.what).join(', ')}`,
          `remove ${listOf(ignored.map((i) => i.path))}`,
          ignored[0].path,
        );
      }
    }
  },
};

/** Whether an object has a non-empty status. */
function hasStatus(raw: Json): boolean {
  const status = raw.status;
  if (status === undefined || status === null) return false;
  const o = asObject(status);
  return o === undefined || Object.keys(o).length > 0;
}

function listOf(items: readonly string[]): string {
  return items.length <= 1 ? items.join('') : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}
