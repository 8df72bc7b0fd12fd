import { propertyFile } from './property-file';
import * as S from './scenarios';

/*
 * Property-based tests of BarmanCloudPlugin, HelloWorldPlugin (with HelloWorldPlugin.parameters) and ObjectStore: generated valid props synthesize to output that Kubernetes,
 * the upstream CRDs, the restricted Pod Security Standard and the doctor all accept, with the
 * plugin name the same in every place; one prop of valid props replaced with junk gives either
 * this library's own error (naming the construct path and the prop) or such an output.
 */

const { properties } = propertyFile('presets-props');

properties('BarmanCloudPlugin', S.barmanCloudPluginScenario);
properties('HelloWorldPlugin and HelloWorldPlugin.parameters', S.helloWorldPluginScenario);
properties('ObjectStore', S.objectStoreScenario);
