/*
 * The conformance table against the constructs: each Cluster case whose input a `PostgresCluster`
 * can express is built through the construct (typed props where the construct types a field, the
 * `spec` passthrough for the rest), completed with what the construct requires (a storage size
 * that passes), and synthesized. The construct must refuse exactly when the library's model of
 * the API server refuses the completed object: its schema (the schema guard's apiServerIssues)
 * or CloudNativePG's admission (`admit`, every check registered). So the construct and the
 * doctor agree case by case, whichever checks are registered; the expected verdict is computed,
 * never listed.
 *
 * The cases a construct cannot express are not built; `cannotExpress` says why for each, and the
 * last test lists them by reason.
 */
import { Size, Testing } from 'cdk8s';
import { Cpu } from 'cdk8s-plus-28';
import { admissionErrors, admit } from '../../src/checks/admission/index';
import { renderQuantity } from '../../src/common/render';
import { pluginNameProblem } from '../../src/common/validate';
import { CnpgIValidationError, ClusterBootstrap, ClusterImage, ExternalClusterSource, Plugin, PostgresCluster, PostgresClusterProps } from '../../src/index';
import { isDnsSubdomain } from '../../src/manifests/k8s-names';
import { parseQuantity } from '../../src/manifests/quantity';
import { apiServerIssues } from '../../src/schema/guard';
import { toBindingNames } from './bindings';
import { AdmissionCase } from './case';
import { ADMISSION_CASES } from './table';

type Obj = Record<string, any>;
const copy = <T>(x: T): T => JSON.parse(JSON.stringify(x)) as T;
const isObject = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Why an input cannot be written through the construct. */
class CannotExpress extends Error {}
const cannot = (why: string): never => {
  throw new CannotExpress(why);
};

/** The size a construct writes for a quantity, as a cdk8s Size, when it writes the same text. */
function sizeOf(text: unknown, what: string): Size {
  const q = typeof text === 'string' ? parseQuantity(text) : undefined;
  const bytes = q !== undefined && q.num % q.den === 0n ? q.num / q.den : undefined;
  const size = bytes !== undefined && bytes > 0n && bytes % 1024n === 0n ? Size.kibibytes(Number(bytes / 1024n)) : undefined;
  if (size === undefined || renderQuantity(size) !== text) {
    cannot(`${what} is a cdk8s Size, written as a whole binary quantity; the case writes ${JSON.stringify(text)}`);
  }
  return size!;
}

/** The Cpu a construct writes for a quantity, when it writes the same text. */
function cpuOf(text: unknown): Cpu {
  const m = typeof text === 'string' ? /^(\d+)m$/.exec(text) : null;
  const cpu = m ? Cpu.millis(Number(m[1])) : typeof text === 'string' && /^\d+(\.\d+)?$/.test(text) ? Cpu.units(Number(text)) : undefined;
  if (cpu === undefined || cpu.amount !== text) cannot(`the CPU of resources is a cdk8s-plus Cpu; the case writes ${JSON.stringify(text)}`);
  return cpu!;
}

/** Takes the keys of `o` that `take` names, leaving the rest; refuses keys outside `allowed`. */
function only(o: Obj, allowed: readonly string[], what: string): void {
  const extra = Object.keys(o).filter((k) => !allowed.includes(k));
  if (extra.length > 0) cannot(`${what} has no typed prop for ${extra.join(', ')}`);
}

/** The storage prop (`storage` or `walStorage`) for a storage section, completed with a size. */
function storageProp(section: unknown, what: string): { readonly prop: Obj; readonly written: Obj } {
  if (!isObject(section)) return cannot(`${what} is not an object`);
  only(section, ['size', 'storageClass', 'resizeInUseVolumes', 'pvcTemplate'], what);
  const written: Obj = { ...section, size: section.size ?? '1Gi' };
  const { size, pvcTemplate, ...rest } = written;
  return {
    prop: {
      ...rest,
      size: sizeOf(size, `${what}.size`),
      ...(pvcTemplate === undefined ? {} : { pvcTemplate: toBindingNames(pvcTemplate, 'ClusterSpecStoragePvcTemplate') }),
    },
    written,
  };
}

interface Expressed {
  /** Builds the construct in a new chart and synthesizes it (the Cluster it writes); throws where the construct refuses. */
  readonly build: () => Obj;
  /** The Cluster as the case writes it, completed as the construct requires. */
  readonly completed: Obj;
  /**
   * Why the construct refuses this input although the API server may accept it: a rule of the
   * library that is stricter than CloudNativePG's (the object could not work, or the input is not
   * what the construct's API takes).
   */
  readonly stricter?: string;
}

/**
 * The library's rules that are stricter than the webhook's, and the input each one refuses:
 * the construct must refuse such an input whatever admission says.
 */
const STRICTER: ReadonlyArray<readonly [string, (spec: Obj) => boolean]> = [
  [
    'Plugin.fromPluginName takes a lower-case DNS subdomain (what a plugin Service label holds); the webhook takes any plugin name',
    (spec) =>
      [
        ...(Array.isArray(spec.plugins) ? spec.plugins : []),
        ...(Array.isArray(spec.externalClusters) ? spec.externalClusters.map((e: Obj) => e?.plugin) : []),
      ].some((p) => isObject(p) && pluginNameProblem('name', p.name) !== undefined),
  ],
  [
    'a Secret reference of an external cluster names a Secret name and key that no Secret can have; the webhook does not check `password`, the construct refuses any such reference',
    (spec) =>
      (Array.isArray(spec.externalClusters) ? spec.externalClusters : []).some(
        (e: unknown) =>
          isObject(e) &&
          ['password', 'sslCert', 'sslKey', 'sslRootCert'].some(
            (k) =>
              isObject(e[k]) &&
              !(
                typeof e[k].name === 'string' &&
                isDnsSubdomain(e[k].name) &&
                typeof e[k].key === 'string' &&
                /^[-._a-zA-Z0-9]{1,253}$/.test(e[k].key) &&
                e[k].key !== '.' &&
                !e[k].key.startsWith('..')
              ),
          ),
      ),
  ],
];

/** How a PostgresCluster writes the case's input, or the reason it cannot. */
function express(c: AdmissionCase): Expressed {
  if (c.old !== undefined) cannot('an update: a construct writes an object, not a change to a stored one');
  if (c.input.metadata.resourceVersion !== undefined) cannot('an existing object (metadata.resourceVersion): a construct writes new objects');
  const completed = copy(c.input) as Obj;
  const spec = completed.spec as Obj;
  const props: Obj = {
    metadata: { name: c.input.metadata.name, ...(c.input.metadata.annotations ? { annotations: { ...c.input.metadata.annotations } } : {}) },
  };
  /** What is made through the construct's API, in build(): first the props' values (unshifted), then the additions. */
  const later: Array<(pg?: PostgresCluster) => void> = [];
  const {
    instances,
    storage,
    walStorage,
    imageName,
    imageCatalogRef,
    bootstrap,
    replica,
    resources,
    affinity,
    plugins,
    externalClusters,
    postgresql,
    monitoring,
    ...rest
  } = spec;

  const data = storageProp(storage ?? {}, 'storage');
  props.storage = data.prop;
  spec.storage = data.written;
  if (walStorage !== undefined) {
    const wal = storageProp(walStorage, 'walStorage');
    props.walStorage = wal.prop;
    spec.walStorage = wal.written;
  }
  if (instances !== undefined) props.instances = instances;
  if (imageName !== undefined && imageCatalogRef !== undefined) cannot('both imageName and imageCatalogRef: ClusterImage is one or the other');
  if (imageName !== undefined) later.unshift(() => (props.image = ClusterImage.fromName(imageName)));
  if (imageCatalogRef !== undefined) {
    if (!isObject(imageCatalogRef)) cannot('imageCatalogRef is not an object');
    only(imageCatalogRef, ['apiGroup', 'kind', 'name', 'major'], 'imageCatalogRef');
    if (imageCatalogRef.apiGroup !== 'postgresql.cnpg.io') cannot('ClusterImage.fromCatalog always writes the apiGroup postgresql.cnpg.io');
    later.unshift(() => (props.image = ClusterImage.fromCatalog({ name: imageCatalogRef.name, major: imageCatalogRef.major, kind: imageCatalogRef.kind })));
  }
  if (bootstrap !== undefined) {
    if (!isObject(bootstrap)) cannot('bootstrap is not an object');
    // An empty bootstrap is the one the defaulter completes, as when the prop is left out.
    if (Object.keys(bootstrap).length > 0)
      later.unshift(() => (props.bootstrap = ClusterBootstrap.fromSpec(toBindingNames(bootstrap, 'ClusterSpecBootstrap') as never)));
  }
  if (replica !== undefined) {
    if (!isObject(replica)) cannot('replica is not an object');
    only(replica, ['source', 'enabled', 'primary', 'self', 'promotionToken'], 'replica (minApplyDelay is a cdk8s Duration)');
    props.replica = { ...replica };
  }
  if (resources !== undefined) {
    if (!isObject(resources)) cannot('resources is not an object');
    only(resources, ['requests', 'limits'], 'resources');
    const typed: Obj = {};
    for (const [side, key] of [
      ['requests', 'request'],
      ['limits', 'limit'],
    ] as const) {
      const amounts = resources[side] ?? {};
      if (!isObject(amounts)) cannot(`resources.${side} is not an object`);
      only(amounts, ['cpu', 'memory'], `resources.${side} (the typed prop has cpu and memory)`);
      if (amounts.cpu !== undefined) (typed.cpu ??= {})[key] = cpuOf(amounts.cpu);
      if (amounts.memory !== undefined) (typed.memory ??= {})[key] = sizeOf(amounts.memory, `resources.${side}.memory`);
    }
    props.resources = typed;
  }
  if (affinity !== undefined) props.affinity = toBindingNames(affinity, 'ClusterSpecAffinity');
  if (plugins !== undefined) {
    if (!Array.isArray(plugins)) cannot('plugins is not a list');
    const names = plugins.map((p: unknown) => (isObject(p) ? p.name : undefined));
    if (new Set(names).size !== names.length) cannot('a plugin listed twice: addPlugin refuses it, the webhook does not');
    for (const p of plugins) {
      if (!isObject(p)) cannot('a plugin entry is not an object');
      only(p, ['name', 'enabled', 'isWALArchiver', 'parameters'], 'a plugin entry');
      later.push((pg) =>
        pg?.addPlugin(Plugin.fromPluginName(p.name), {
          ...(p.enabled === undefined ? {} : { enabled: p.enabled }),
          ...(p.isWALArchiver === undefined ? {} : { isWalArchiver: p.isWALArchiver }),
          ...(p.parameters === undefined ? {} : { parameters: p.parameters }),
        }),
      );
    }
    // addPlugin writes enabled and isWALArchiver explicitly, with the CRD's defaults.
    spec.plugins = plugins.map((p: Obj) => ({ ...p, enabled: p.enabled ?? true, isWALArchiver: p.isWALArchiver ?? false }));
  }
  if (externalClusters !== undefined) {
    if (!Array.isArray(externalClusters)) cannot('externalClusters is not a list');
    for (const e of externalClusters) later.push(externalCluster(e));
  }
  const passthrough: Obj = toBindingNames(rest, 'ClusterSpec') as Obj;
  if (postgresql !== undefined) {
    if (!isObject(postgresql)) cannot('postgresql is not an object');
    const { parameters, ...other } = postgresql;
    if (parameters !== undefined) props.postgresql = { parameters };
    if (Object.keys(other).length > 0) passthrough.postgresql = toBindingNames(other, 'ClusterSpecPostgresql');
  }
  if (monitoring !== undefined) {
    if (!isObject(monitoring)) cannot('monitoring is not an object');
    const { enablePodMonitor, ...other } = monitoring;
    if (enablePodMonitor !== undefined) props.monitoring = { enablePodMonitor };
    if (Object.keys(other).length > 0) passthrough.monitoring = toBindingNames(other, 'ClusterSpecMonitoring');
  }
  if (Object.keys(passthrough).length > 0) props.spec = passthrough;
  return {
    completed,
    stricter: STRICTER.find(([, applies]) => applies(spec))?.[0],
    build: () => {
      const makeProps = later.filter((f) => f.length === 0);
      for (const make of makeProps) make();
      const chart = Testing.chart();
      const pg = new PostgresCluster(chart, 'pg', props as PostgresClusterProps);
      for (const add of later.filter((f) => f.length > 0)) add(pg);
      return Testing.synth(chart).find((o) => o.kind === 'Cluster') as Obj;
    },
  };
}

/** `addExternalCluster` for an external cluster entry of the case. */
function externalCluster(e: unknown): (pg?: PostgresCluster) => void {
  if (!isObject(e)) return cannot('an external cluster entry is not an object');
  const { name, plugin, barmanObjectStore, connectionParameters, password, sslCert, sslKey, sslRootCert, ...other } = e;
  only(other, [], 'an external cluster entry');
  const connection =
    connectionParameters === undefined
      ? password === undefined && sslCert === undefined && sslKey === undefined && sslRootCert === undefined
        ? undefined
        : cannot('Secret references without connectionParameters: ExternalClusterConnection requires them')
      : { connectionParameters, password, sslCert, sslKey, sslRootCert };
  if (plugin !== undefined && barmanObjectStore !== undefined)
    cannot('an external cluster with both a plugin and barmanObjectStore: ExternalClusterSource is one of them');
  if (plugin !== undefined) {
    if (!isObject(plugin)) cannot('an external cluster plugin is not an object');
    only(plugin, ['name', 'parameters'], 'an external cluster plugin (fromPlugin writes its name and parameters)');
    return (pg) =>
      pg?.addExternalCluster(name, ExternalClusterSource.fromPlugin(Plugin.fromPluginName(plugin.name), { parameters: plugin.parameters, connection }));
  }
  if (barmanObjectStore !== undefined) {
    const store = toBindingNames(barmanObjectStore, 'ClusterSpecExternalClustersBarmanObjectStore') as never;
    return (pg) => pg?.addExternalCluster(name, ExternalClusterSource.fromBarmanObjectStore(store, connection));
  }
  // No source at all: there is no ExternalClusterSource for it, and addExternalCluster refuses that.
  return (pg) => pg?.addExternalCluster(name, (connection === undefined ? {} : ExternalClusterSource.fromConnection(connection)) as ExternalClusterSource);
}

/** Whether building and synthesizing refuses (the library's errors), or what it writes; other errors fail the test. */
function refuses(build: () => Obj): { readonly refused: boolean; readonly message?: string; readonly written?: Obj } {
  try {
    return { refused: false, written: build() };
  } catch (e) {
    if (e instanceof CnpgIValidationError || (e instanceof Error && e.message.startsWith('Validation failed with the following errors:')))
      return { refused: true, message: e.message };
    throw e;
  }
}

/** A Cluster's spec as admission judges it, without empty objects and lists (which the construct leaves out). */
function judgedSpec(cluster: Obj): unknown {
  const prune = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(prune);
    if (!isObject(v)) return v;
    const out: Obj = {};
    for (const k of Object.keys(v).sort()) {
      const p = prune(v[k]);
      if (!((Array.isArray(p) && p.length === 0) || (isObject(p) && Object.keys(p).length === 0))) out[k] = p;
    }
    return out;
  };
  return prune(admit('Cluster', copy(cluster)).defaulted.spec);
}

/** What the library's model of the API server says about the completed object. */
function verdictOf(completed: Obj): { readonly refused: boolean; readonly why: string } {
  const schema = apiServerIssues(completed);
  const admission = admissionErrors(admit('Cluster', copy(completed)));
  const why = [...schema.map((i) => `schema ${i.path}: ${i.message}`), ...admission.map((i) => `admission ${i.path}: ${i.message}`)].join(' | ');
  return { refused: schema.length > 0 || admission.length > 0, why };
}

const CLUSTER_CASES = ADMISSION_CASES.filter((c) => c.kind === 'Cluster');
const attempts = CLUSTER_CASES.map((c) => {
  try {
    return { c, expressed: express(c) };
  } catch (e) {
    if (e instanceof CannotExpress) return { c, cannot: e.message };
    throw e;
  }
});
const expressed = attempts.filter((a) => a.expressed !== undefined);

describe('the conformance table through PostgresCluster', () => {
  test.each(expressed.filter((a) => a.expressed!.stricter === undefined).map((a) => [a.c.id, a] as const))('%s', (_id, a) => {
    const expected = verdictOf(a.expressed!.completed);
    const got = refuses(a.expressed!.build);
    expect({ refused: got.refused, expected: expected.why, construct: got.message }).toEqual({
      refused: expected.refused,
      expected: expected.why,
      construct: got.message,
    });
    // What the construct writes is the case's object, as admission judges it.
    if (got.written !== undefined) expect(judgedSpec(got.written)).toEqual(judgedSpec(a.expressed!.completed));
  });

  test.each(expressed.filter((a) => a.expressed!.stricter !== undefined).map((a) => [a.c.id, a] as const))(
    '%s: refused by a stricter rule of the library',
    (_id, a) => {
      expect(refuses(a.expressed!.build).refused).toBe(true);
    },
  );

  test('the cases a construct cannot express, or refuses by a stricter rule, by reason', () => {
    const byReason = new Map<string, string[]>();
    for (const a of attempts) {
      const why = a.cannot ?? (a.expressed?.stricter === undefined ? undefined : `stricter: ${a.expressed.stricter}`);
      if (why !== undefined) byReason.set(why, [...(byReason.get(why) ?? []), a.c.id]);
    }
    const listing = [...byReason].map(([why, ids]) => `${ids.length} ${why}: ${ids.join(', ')}`).sort();
    expect(listing).toMatchSnapshot();
    // README.md gives these counts.
    const stricter = expressed.filter((a) => a.expressed!.stricter !== undefined).length;
    expect([CLUSTER_CASES.length, expressed.length - stricter, stricter, attempts.length - expressed.length]).toEqual([392, 338, 7, 47]);
  });
});
