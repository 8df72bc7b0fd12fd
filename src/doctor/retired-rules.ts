/*
 * The doctor's retired rule ids. An id is never reused: a retired rule keeps its id unused, and
 * its entry here says which rule now reports the problem, so `--disable`, the ignore annotation
 * and the generated docs can point there.
 */
import type { RetiredRule } from '../rules/registry';

/** Every retired rule of the doctor, by id. @internal */
export const RETIRED_RULES: readonly RetiredRule[] = [
  {
    id: 'CNPGI021',
    name: 'plugin-secret-keys',
    replacedBy: 'CNPGI110',
    reason:
      'a plugin Secret without `tls.crt` (or the client `tls.key`) was reported twice, by this rule and by CNPGI110 `secret-contents`, which also checks that the PEM parses; one rule now reports it',
  },
  {
    id: 'CNPGI043',
    name: 'external-cluster-source',
    replacedBy: 'CNPGI100',
    reason:
      "an external cluster without `connectionParameters`, `plugin` or `barmanObjectStore` was reported twice, by this rule and by CNPGI100 `cluster-references`, which checks every rule of the webhook's `validateExternalCluster`; one rule now reports it",
  },
  {
    id: 'CNPGI048',
    name: 'plugin-parameters-strings',
    replacedBy: 'CNPGI060',
    reason: 'it restated the Cluster CRD schema (parameters are a map of strings), which CNPGI060 `crd-schema` checks',
  },
  {
    id: 'CNPGI049',
    name: 'plugin-unknown-field',
    replacedBy: 'CNPGI061',
    reason: 'it restated the Cluster CRD schema (unknown fields are pruned), which CNPGI061 `crd-pruned-field` checks',
  },
];
