/*
 * What the operator contributes to the admission of a Cluster besides the object: its default
 * PostgreSQL image, its default monitoring queries and the plugins it adds to every Cluster. An
 * AdmissionContext leaves out what the input does not show; the release's values fill the rest.
 */
import type { AdmissionContext } from './admission-check';

/** CloudNativePG v1.30.0's default PostgreSQL image (pkg/versions DefaultImageName). @internal */
export const RELEASE_DEFAULT_IMAGE_NAME = 'ghcr.io/cloudnative-pg/postgresql:18.4-system-trixie';

/**
 * The ConfigMap of default monitoring queries that the release manifest's operator Deployment
 * names in `MONITORING_QUERIES_CONFIGMAP` (releases/cnpg-1.30.0.yaml; the code's own default is
 * empty, which is what an operator Deployment without the variable gets).
 * @internal
 */
export const RELEASE_MONITORING_QUERIES_CONFIGMAP = 'cnpg-default-monitoring';

/** An {@link AdmissionContext} with every setting resolved. @internal */
export interface OperatorSettings {
  readonly defaultImageName: string;
  readonly monitoringQueriesConfigMap: string;
  readonly monitoringQueriesSecret: string;
  readonly includePlugins: readonly string[];
}

/** The settings of `context`, with the release's values where it says nothing. @internal */
export function operatorSettings(context: AdmissionContext): OperatorSettings {
  return {
    defaultImageName: context.defaultImageName ?? RELEASE_DEFAULT_IMAGE_NAME,
    monitoringQueriesConfigMap: context.monitoringQueriesConfigMap ?? RELEASE_MONITORING_QUERIES_CONFIGMAP,
    monitoringQueriesSecret: context.monitoringQueriesSecret ?? '',
    includePlugins: context.includePlugins ?? [],
  };
}
