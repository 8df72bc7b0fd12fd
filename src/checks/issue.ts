import type { Json } from '../manifests/json';

/**
 * The neutral result of a check: the rules turn each into a finding with its rule id, and the
 * constructs into an error, so the checks know nothing about rule ids, objects' positions or
 * output formats.
 * @internal
 */
export interface CheckIssue {
  /** `error`: the operator, a plugin or an admission webhook fails; `warning`: it may work. */
  readonly severity: 'error' | 'warning';
  /** The field path inside the object, e.g. `spec.bootstrap.recovery.source`. */
  readonly path: string;
  /**
   * The path an admission webhook names in its answer, where it is not `path` (the Cluster
   * webhook says `spec.replicaCluster.token` for the JSON field `spec.replica.promotionToken`).
   */
  readonly webhookPath?: string;
  /** What happens, in the upstream code's terms. */
  readonly message: string;
  /** What to write instead. */
  readonly fix: string;
  /**
   * The other objects whose namespace the verdict compares with the checked object's (an
   * ObjectStore found in another namespace): when either namespace is only assumed, the doctor
   * reports an error as a warning.
   */
  readonly comparesNamespaceWith?: readonly Json[];
}

/**
 * What a finding on an object missing from the input adds to its message when the input is said
 * to be complete (the doctor's `complete`): the finding is then an error, not a warning.
 * @internal
 */
export const COMPLETE_INPUT_NOTE = '; the input is said to be complete, so nothing else provides it';
