/*
 * What only the plugin constructs share: the rules about known plugin images, the renamed props
 * keys, container resources as Kubernetes JSON, and the schema guard on an object several
 * constructs touch. Their props are checked with the construct toolkit (src/common/props.ts).
 */
import { ApiObject } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import { Kind } from '../common/prop-kinds';
import { PropKind, Rule } from '../common/props';
import { ALL_RESOURCE_KEYS, resourcesOf } from '../common/resources';
import { knownPluginImage } from '../manifests/known-plugins';
import { addSchemaGuard } from '../schema/guard';

/** Props keys renamed by the cdk8s-plus alignment of issue #13. @internal */
export const RENAMED_PLUGIN_KEYS: Readonly<Record<string, string>> = {
  env: 'envVariables',
  serviceAccountToken: 'automountServiceAccountToken',
  user: 'securityContext.user',
  group: 'securityContext.group',
};

// --- Images ------------------------------------------------------------------------------------

/**
 * The rule that a known plugin image is run with the subcommand it needs (without it the
 * container prints its help and exits, in a restart loop), for a construct's rule list. Unknown
 * images, and a `command` that replaces the entrypoint, are the user's to know.
 * @internal
 */
export function subcommandRule(image: string, args: readonly string[], command: readonly string[] | undefined): Rule | false {
  const known = command === undefined ? knownPluginImage(image) : undefined;
  return (
    known !== undefined && [
      !args.includes(known.subcommand),
      'args',
      [...args],
      `does not name the '${known.subcommand}' subcommand that image ${image} needs (without it, the plugin prints its help and exits)`,
      `start args with '${known.subcommand}', e.g. args: ['${known.subcommand}']`,
    ]
  );
}

/**
 * The rule that a known plugin image is installed under the name it reports about itself: the
 * operator dials the Service by its `cnpg.io/pluginName` label, then keys the plugin by the name
 * GetPluginMetadata returns (cloudnative-pg v1.30.0 internal/cnpi/plugin/connection/connection.go
 * newPluginDataFromConnection; internal/cnpi/plugin/client/client.go getPlugin), so Clusters that
 * name the label get nothing. The doctor's CNPGI105 is the same rule on written manifests.
 * @internal
 */
export function reportedNameRule(image: string, pluginName: string): Rule | false {
  const known = knownPluginImage(image);
  return (
    known !== undefined && [
      known.pluginName !== pluginName,
      'pluginName',
      pluginName,
      `differs from the name image ${image} reports about itself ('${known.pluginName}'); the operator would find no plugin named '${pluginName}', so Clusters naming it get no sidecar and no archiving`,
      `use pluginName: '${known.pluginName}'${known.repository === 'plugin-barman-cloud' ? ', or the BarmanCloudPlugin preset' : ', or the HelloWorldPlugin preset'}`,
    ]
  );
}

// --- Containers --------------------------------------------------------------------------------

/**
 * Container resources as Kubernetes JSON, rendered once for every container the plugin side
 * writes, through the one resources reader of the library ({@link resourcesOf}, which the props
 * check already ran on). `quantity` wraps each value for a generated L1 whose typed `toJson`
 * reads quantities as `{ value }`.
 * @internal
 */
export function resourcesManifest(resources: kplus.ContainerResources, quantity: (q: string) => unknown = (q) => q): Record<string, unknown> | undefined {
  const r = resourcesOf('resources', 'resources', resources, ALL_RESOURCE_KEYS, ZERO_SIZES);
  const out: Record<string, Record<string, unknown>> = {};
  for (const side of ['limits', 'requests'] as const) {
    for (const [name, q] of Object.entries(r?.[side] ?? {})) (out[side] ??= {})[name] = quantity(q);
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

/** A plugin container may request or limit zero of a resource. */
const ZERO_SIZES = { allowZero: true };

/**
 * The resources of a plugin container (cdk8s-plus `ContainerResources`, zero allowed).
 * @internal
 */
export const containerResourcesKind: PropKind = Kind.resources(ALL_RESOURCE_KEYS, ZERO_SIZES);

const GUARDED = new WeakSet<ApiObject>();

/**
 * The schema guard on an object that several constructs may touch (an operator Deployment loaded
 * from a manifest, then given sidecars): added once, so each problem is reported once.
 * @internal
 */
export function guardOnce(construct: Construct, apiObject: ApiObject): void {
  if (GUARDED.has(apiObject)) return;
  GUARDED.add(apiObject);
  addSchemaGuard(construct, apiObject);
}
