import { propertyFile } from './property-file';
import * as S from './scenarios';

/*
 * Property-based tests of SidecarPlugin on OperatorDeployment.fromDeployment and CnpgOperator.fromManifest: generated valid props synthesize to output that Kubernetes,
 * the upstream CRDs, the restricted Pod Security Standard and the doctor all accept, with the
 * plugin name the same in every place; one prop of valid props replaced with junk gives either
 * this library's own error (naming the construct path and the prop) or such an output.
 */

const { properties } = propertyFile('sidecar-plugin-props');

properties('SidecarPlugin (both operator hosts, one or two sidecars)', S.sidecarPluginScenario);
