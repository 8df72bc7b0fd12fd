import { ApiObjectMetadata } from 'cdk8s';
import { ContainerResources } from 'cdk8s-plus-28';
import { InstanceSidecarConfiguration, ObjectStoreDataOptions, ObjectStoreProps, ObjectStoreWalOptions, SecretKeyReference } from '../../src';
import { declaredKeys } from '../util';
import { keyProperty } from './harness';
import { propertyFile } from './property-file';
import * as S from './scenarios';

/*
 * Property-based tests of BarmanCloudPlugin, HelloWorldPlugin (with HelloWorldPlugin.parameters) and ObjectStore: generated valid props synthesize to output that Kubernetes,
 * the upstream CRDs, the restricted Pod Security Standard and the doctor all accept, with the
 * plugin name the same in every place; one prop of valid props replaced with junk gives either
 * this library's own error (naming the construct path and the prop) or such an output; an unknown
 * key in any ObjectStore props or options object is refused by name.
 */

const { properties } = propertyFile('presets-props');

properties('BarmanCloudPlugin', S.barmanCloudPluginScenario);
properties('HelloWorldPlugin and HelloWorldPlugin.parameters', S.helloWorldPluginScenario);
properties('ObjectStore', S.objectStoreScenario);

// --- ObjectStore: the key property --------------------------------------------------------------

describe('ObjectStore: an unknown key in any props or options object is refused by name', () => {
  const METADATA = declaredKeys<ApiObjectMetadata>({ name: true, namespace: true, labels: true, annotations: true, finalizers: true, ownerReferences: true });
  test.each<[string, Array<string | number>, readonly string[]]>([
    [
      'props',
      ['store'],
      declaredKeys<ObjectStoreProps>({
        destinationPath: true,
        credentials: true,
        endpointUrl: true,
        endpointCa: true,
        wal: true,
        data: true,
        retentionPolicy: true,
        tags: true,
        historyTags: true,
        instanceSidecarConfiguration: true,
        metadata: true,
      }),
    ],
    ['endpointCa', ['store', 'endpointCa'], declaredKeys<SecretKeyReference>({ name: true, key: true })],
    [
      'wal',
      ['store', 'wal'],
      declaredKeys<ObjectStoreWalOptions>({
        compression: true,
        encryption: true,
        maxParallel: true,
        archiveAdditionalCommandArgs: true,
        restoreAdditionalCommandArgs: true,
      }),
    ],
    [
      'data',
      ['store', 'data'],
      declaredKeys<ObjectStoreDataOptions>({
        compression: true,
        encryption: true,
        jobs: true,
        immediateCheckpoint: true,
        additionalCommandArgs: true,
        restoreAdditionalCommandArgs: true,
      }),
    ],
    [
      'instanceSidecarConfiguration',
      ['store', 'instanceSidecarConfiguration'],
      declaredKeys<InstanceSidecarConfiguration>({
        env: true,
        resources: true,
        logLevel: true,
        retentionPolicyInterval: true,
        additionalContainerArgs: true,
      }),
    ],
    [
      'instanceSidecarConfiguration.resources',
      ['store', 'instanceSidecarConfiguration', 'resources'],
      declaredKeys<ContainerResources>({ cpu: true, memory: true, ephemeralStorage: true }),
    ],
    ['metadata', ['store', 'metadata'], METADATA],
  ])('%s', (_name, at, keys) => keyProperty(S.objectStoreScenario, at, keys));
});
