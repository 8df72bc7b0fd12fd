/*
 * CNPGI124: an object the API server refuses when it is applied client-side.
 */
import {
  ANNOTATIONS_SIZE_LIMIT,
  ARGOCD_SERVER_SIDE_APPLY,
  ARGOCD_SYNC_OPTIONS_ANNOTATION,
  LAST_APPLIED_ANNOTATION,
  asksArgoCdForServerSideApply,
  clientSideApplyAnnotationsSize,
  tooLargeForClientSideApply,
} from '../../../checks/client-side-apply';
import type { RuleDefinition } from '../../../rules/rule';
import type { DoctorModel } from '../../model/doctor-model';

/** An object too large for `kubectl apply` without `--server-side`. */
export const rule: RuleDefinition<DoctorModel> = {
  id: 'CNPGI124',
  name: 'too-large-for-client-side-apply',
  severities: [{ severity: 'warning', when: 'always: the apply is refused, whoever applies client-side' }],
  what: `An object whose annotations would exceed ${ANNOTATIONS_SIZE_LIMIT} bytes once client-side apply records the whole object in \`${LAST_APPLIED_ANNOTATION}\`: the CloudNativePG 1.30.0 Cluster and Pooler CRDs of the operator install are such objects. An object with \`${ARGOCD_SYNC_OPTIONS_ANNOTATION}: ${ARGOCD_SERVER_SIDE_APPLY}\` declares that it is applied server-side and is not reported; live objects are not checked.`,
  why: `Client-side apply (\`kubectl apply\` without \`--server-side\`, and Argo CD's default sync) writes the object, encoded as JSON, into the \`${LAST_APPLIED_ANNOTATION}\` annotation (kubectl v0.36.3 pkg/cmd/apply/apply.go, pkg/util/apply.go GetModifiedConfiguration), and the API server refuses an object whose annotation keys and values add up to more than 256 KiB with \`metadata.annotations: Too long: may not be more than 262144 bytes\` (apimachinery v0.36.1 pkg/api/validation/objectmeta.go ValidateAnnotationsSize, TotalAnnotationSizeLimitB). Server-side apply records no such annotation. Argo CD applies an object server-side when its \`${ARGOCD_SYNC_OPTIONS_ANNOTATION}\` lists \`${ARGOCD_SERVER_SIDE_APPLY}\` (argo-cd v3.5.1 gitops-engine/pkg/sync/sync_context.go shouldUseServerSideApply); Flux's kustomize-controller always applies server-side.`,
  fix: `Apply server-side: \`kubectl apply --server-side -f dist/\`, \`syncOptions: [ServerSideApply=true]\` in the Argo CD Application, or the annotation \`${ARGOCD_SYNC_OPTIONS_ANNOTATION}: ${ARGOCD_SERVER_SIDE_APPLY}\` on the object (\`CnpgOperator.fromManifest\` writes it on such objects).`,
  kinds: ['*'],
  check(model, report) {
    if (model.live) return;
    for (const m of model.index.all) {
      if (asksArgoCdForServerSideApply(m.raw)) continue;
      if (!tooLargeForClientSideApply(m.raw)) continue;
      const size = clientSideApplyAnnotationsSize(m.raw);
      report(
        'warning',
        m,
        `is too large for client-side apply: recorded in ${LAST_APPLIED_ANNOTATION}, its annotations come to ${size} bytes, over the API server's limit of ${ANNOTATIONS_SIZE_LIMIT}, so \`kubectl apply\` without --server-side and Argo CD's default sync are refused (metadata.annotations: Too long)`,
        `apply it server-side: kubectl apply --server-side, or annotate it ${ARGOCD_SYNC_OPTIONS_ANNOTATION}: ${ARGOCD_SERVER_SIDE_APPLY} for Argo CD`,
        'metadata.annotations',
      );
    }
  },
};
