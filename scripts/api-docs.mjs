#!/usr/bin/env node
/*
 * Generates the API reference from the public exports of the package with TypeDoc and
 * typedoc-plugin-markdown (options in typedoc.json):
 *
 *   docs/API.md               the index: one line per module page and the CRD types page, then
 *                             every documented name with a link to its heading
 *   docs/api/<module>.md      one page per module of src/ (MODULES below), TypeDoc's output with
 *                             the module's introduction on top
 *   docs/api/crd-types.md     the generated CRD types (`cnpg.*`, `certmanager.*`) the API names,
 *                             each with the CRD field it is and the pages that use it
 *
 *   node scripts/api-docs.mjs             write them into docs/ (`npm run docs:api`), removing a
 *                                         page of docs/api/ that is no longer written
 *   node scripts/api-docs.mjs --out DIR   write DIR/API.md and DIR/api/ instead
 *                                         (test/scripts/api-docs.test.ts compares them)
 *
 * Each module is one TypeDoc entry point (its src/<module>/index.ts); src/index.ts is the last,
 * and gives the `common` page what no module exports: CnpgIValidationError. A type a module
 * re-exports from the rule engine (src/rules: RuleSpec, Finding, ...) is documented once, on
 * the common page, and the module page links to it ("Re-exports").
 *
 * The generated CRD types are left out of TypeDoc (`@hidden` in src/index.ts: their members are
 * the CRDs' own fields). A type of imports/ that a signature or property names resolves, through
 * an unknown-symbol resolver, to its entry on the CRD types page, which lists exactly those types
 * (test/scripts/api-docs.test.ts checks that no module page shows one without its link). TypeDoc
 * gives no warning today; any warning it gives (a broken {@link}, a type the API uses but does not
 * export) fails the run.
 *
 * The output holds no dates, versions of this package, source links or machine paths, so it
 * changes only when the public API or its documentation does. Exits 1 when TypeDoc reports an
 * error or a warning.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Application, Converter, ReferenceReflection, ReflectionKind } from 'typedoc';

// TypeDoc lowercases anchors with toLocaleLowerCase() and sorts names with localeCompare(), which
// follow the locale the process started in (under LC_ALL=tr_TR.UTF-8, `#ioperatordeployment`
// becomes `#ıoperatordeployment`). Node reads it from the environment once, so in any other locale
// the script runs itself again under C.UTF-8 (ICU's en-US), where the committed pages are written.
const PINNED_LOCALE = 'en-US';
if (Intl.DateTimeFormat().resolvedOptions().locale !== PINNED_LOCALE && process.env.CNPG_I_API_DOCS_RELAUNCHED === undefined) {
  const env = { ...process.env, LC_ALL: 'C.UTF-8', LANG: 'C.UTF-8', CNPG_I_API_DOCS_RELAUNCHED: '1' };
  const again = spawnSync(process.execPath, [fileURLToPath(import.meta.url), ...process.argv.slice(2)], { stdio: 'inherit', env });
  process.exit(again.status ?? 1);
}

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const INDEX = 'API.md';
const PAGES = 'api';
const CRD_PAGE = 'crd-types.md';
const NOTICE = '<!-- generated from the exports of src/index.ts by `npm run docs:api` (TypeDoc); do not edit -->';

/**
 * The module pages, in the order TypeDoc converts their entry points (a name exported by two
 * modules is declared where it is met first) and the index lists them. `intro` opens the page;
 * `guides` are docs/guides/ pages.
 */
const MODULES = [
  {
    name: 'plugins',
    entry: 'src/plugins/index.ts',
    summary: 'CNPG-I plugins as Services or operator sidecars, the operator, and any plugin from its release manifest',
    intro:
      "A CNPG-I plugin is a gRPC server the CloudNativePG operator discovers and calls. `StandalonePlugin` runs one as its own Deployment behind a Service the operator finds by its labels and annotations, with mutual TLS; `SidecarPlugin` adds one to the operator's pod, over a Unix socket, in an operator installed from its release manifest (`CnpgOperator`) or built in cdk8s (`OperatorDeployment`); `PluginManifest` adopts any plugin from its release manifest. A Cluster names each of them through `IPlugin`.",
    guides: [
      ['standalone plugins', 'standalone-plugins.md'],
      ['sidecar plugins', 'sidecar-plugins.md'],
      ['release manifests', 'release-manifests.md'],
    ],
  },
  {
    name: 'tls',
    entry: 'src/tls/index.ts',
    summary: 'how the operator and a standalone plugin get their mutual TLS certificates',
    intro:
      "The operator and a standalone plugin authenticate each other with certificates. `PluginTls` chooses where they come from (a private CA per plugin, self-signed certificates, an issuer of yours, or Secrets you manage), `IssuerRef` names an existing cert-manager issuer, and `PluginCertificates` writes the cert-manager Issuers and Certificates a plugin's TLS mode needs.",
    guides: [['standalone plugins: TLS modes', 'standalone-plugins.md#tls-modes']],
  },
  {
    name: 'postgres',
    entry: 'src/postgres/index.ts',
    summary: 'Clusters that use plugins, their bootstrap, backups, schedules and recovery sources',
    intro:
      "`PostgresCluster` is a CloudNativePG Cluster with typed props for what most Clusters set and a typed passthrough (`ClusterSpecPassthrough`) for the rest of the CRD; plugins, external clusters and backups are added with methods. The exclusive choices are classes with static factories: the image, the bootstrap, an external cluster's source, a backup schedule and a recovery target. `PluginBackup` and `PluginScheduledBackup` take backups through a plugin.",
    guides: [['Clusters', 'clusters.md']],
  },
  {
    name: 'presets',
    entry: 'src/presets/index.ts',
    summary: 'ready-made plugins: Barman Cloud and its ObjectStore, Scale-to-Zero, hello-world, monitoring',
    intro:
      'Presets are the plugins whose images, parameters and permissions the library knows: `BarmanCloudPlugin` with its `ObjectStore` (credentials as references to Secret keys), `ScaleToZeroPlugin` and `HelloWorldPlugin`; `PluginMonitoring` adds the PodMonitors and alerts of the plugin path. What only one plugin knows (its parameter names, images, versions) lives here, not in the generic modules.',
    guides: [
      ['presets', 'presets.md'],
      ['Scale-to-Zero', 'scale-to-zero.md'],
      ['monitoring', 'monitoring.md'],
    ],
  },
  {
    name: 'doctor',
    entry: 'src/doctor/index.ts',
    summary: 'the manifest checker: check any CNPG-I manifests the way the operator will read them',
    intro:
      "The doctor reads anyone's manifests (YAML from any tool, or a cdk8s app at synth) and reports what the operator, its webhooks, the API server or cert-manager would refuse or silently get wrong, as findings of its rules. `checkManifests` and `analyzeManifests` run it from code, `Doctor.addValidation` runs it at synth, and `DoctorValidationPlugin` is the cdk8s-cli validation plugin; the command line is `cnpg-i-doctor`.",
    guides: [
      ['the doctor', 'doctor.md'],
      ['the doctor in `cdk8s synth`', 'getting-started.md#the-doctor-in-cdk8s-synth'],
    ],
  },
  {
    name: 'plan',
    entry: 'src/plan/index.ts',
    summary: 'the GitOps plan: what a change of the output does to the running objects',
    intro:
      'The plan compares two manifest sets, the output as deployed and the output of a change, and says what applying the change would do: objects a pruning GitOps tool deletes with their data, updates the operator or the API server refuses, names that move. `planChanges` runs it from code, `Plan.addPlanValidation` (or `addPlanValidation`) fails a synth on its errors; the command line is `cnpg-i-doctor plan`.',
    guides: [['GitOps plan', 'gitops-plan.md']],
  },
  {
    name: 'common',
    entry: 'src/index.ts',
    summary: 'what the modules share: the error every construct throws, and the rule engine of the doctor and the plan',
    intro:
      "`CnpgIValidationError` is the error every construct throws for input that cannot become correct YAML; its message names the construct path, the prop, the value and what to write instead. The doctor and the plan run on one rule engine: a rule's description (`RuleSpec`, its `Severity` cases), and what it reports (`Finding`, `SuppressedFinding`, one line of text by `formatFinding`), are the same for both.",
    guides: [
      ['standalone plugins: errors', 'standalone-plugins.md#errors'],
      ['the doctor: rules', 'doctor.md#rules'],
    ],
  },
];

/** Folders of src/ whose exported types belong on the common page, whichever module re-exports them. */
const COMMON_SOURCES = ['src/rules/', 'src/manifests/'];

/**
 * The generated bindings of imports/, by file: what each is generated from, and for those
 * src/index.ts does not export, where the library uses it. The release of each CRD is the one
 * imports/SOURCES.txt records (`npm run import` writes it from scripts/import-crds.mjs).
 */
const BINDINGS = {
  'imports/postgresql.cnpg.io.ts': { project: 'CloudNativePG', group: 'postgresql.cnpg.io' },
  'imports/cert-manager.io.ts': { project: 'cert-manager', group: 'cert-manager.io' },
  'imports/barmancloud.cnpg.io.ts': {
    project: 'plugin-barman-cloud',
    group: 'barmancloud.cnpg.io',
    inside: 'the `ObjectStore` preset writes its object with it',
  },
  'imports/monitoring.coreos.com.ts': {
    project: 'the Prometheus Operator',
    group: 'monitoring.coreos.com',
    inside:
      'the library does not load it: `PluginMonitoring` spells the two kinds as plain `ApiObject`s, and the doctor checks them against the CRD schemas of `imports/schemas/`',
  },
};

/**
 * The namespace src/index.ts exports each generated binding as (`export * as cnpg from
 * '../imports/postgresql.cnpg.io'`), by file of imports/: the API names types of these only.
 */
const EXPORTED_AS = new Map(
  [...fs.readFileSync(path.join(ROOT, 'src', 'index.ts'), 'utf8').matchAll(/^export \* as (\w+) from '\.\.\/(imports\/[\w.-]+)';$/gm)].map((m) => [
    `${m[2]}.ts`,
    m[1],
  ]),
);
for (const file of EXPORTED_AS.keys()) {
  if (!(file in BINDINGS)) throw new Error(`src/index.ts exports ${file}, which BINDINGS in scripts/api-docs.mjs does not describe`);
}

function parseArgs(argv) {
  if (argv.length === 0) return { out: path.join(ROOT, 'docs'), clean: true };
  if (argv.length === 2 && argv[0] === '--out' && argv[1] !== '') return { out: path.resolve(argv[1]), clean: false };
  throw new Error(`usage: node scripts/api-docs.mjs [--out DIR] (got: ${argv.join(' ')})`);
}

/** The top-level module reflection that holds `refl`. */
function moduleOf(refl) {
  let r = refl;
  while (r && !r.kindOf(ReflectionKind.Module)) r = r.parent;
  return r;
}

/**
 * How the CRD types page names the API member that uses a CRD type (`Class.method()`,
 * `Props.prop`, or the export itself), and the export and member whose heading it links to.
 */
function memberOf(refl) {
  const chain = [];
  for (let r = refl; r && !r.kindOf(ReflectionKind.Module); r = r.parent) chain.unshift(r);
  const [top, member] = chain;
  if (!member) return { label: top.name, top: top.name };
  const call = member.kindOf(ReflectionKind.Method | ReflectionKind.Constructor | ReflectionKind.Function) ? '()' : '';
  const name = member.kindOf(ReflectionKind.Constructor) ? `new ${top.name}` : `${top.name}.${member.name}`;
  return { label: `${name}${call}`, top: top.name, member: member.kindOf(ReflectionKind.Constructor) ? 'Constructor' : member.name };
}

/** GitHub's anchor of a heading (the rule test/docs-links.test.ts checks links with). */
function slug(heading) {
  return heading
    .replace(/[`*]/g, '')
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

/**
 * The anchors of a TypeDoc page, by `Export` and `Export.member`: the level-3 heading of each
 * export and the level-5 headings of its members (`##### initdb()`, `##### issuer?`), with
 * GitHub's numbering of repeated headings (`issuer-1`).
 */
function pageAnchors(markdown) {
  const anchors = new Map();
  const seen = new Map();
  let top;
  for (const line of markdown.split('\n')) {
    const h = /^(#{1,6}) (.*)$/.exec(line);
    if (!h) continue;
    const base = slug(h[2]);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    const anchor = n === 0 ? base : `${base}-${n}`;
    const name = h[2].replace(/\\/g, '').replace(/(\(\)|\?)$/, '');
    if (h[1].length === 3) {
      top = name;
      if (!anchors.has(name)) anchors.set(name, anchor);
    } else if (h[1].length === 5 && top && !anchors.has(`${top}.${name}`)) anchors.set(`${top}.${name}`, anchor);
  }
  return anchors;
}

/** Moves the rule engine's types to the common page, leaving a "Re-exports" link where they were. */
function gatherCommon(project, common) {
  for (const mod of project.children ?? []) {
    if (mod === common) continue;
    for (const child of [...(mod.children ?? [])]) {
      if (child instanceof ReferenceReflection) continue;
      const source = project.getSymbolIdFromReflection(child)?.packagePath;
      if (!source || !COMMON_SOURCES.some((dir) => source.startsWith(dir))) continue;
      mod.removeChild(child);
      child.parent = common;
      common.addChild(child);
      const link = new ReferenceReflection(child.name, child, mod);
      project.registerReflection(link, undefined, undefined);
      mod.addChild(link);
    }
  }
}

/**
 * Runs TypeDoc into a fresh temp folder. Returns the module pages by name, and every CRD type
 * the API names with the members that name it.
 */
async function render() {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cnpg-i-api-docs-'));
  try {
    const app = await Application.bootstrapWithPlugins({
      options: path.join(ROOT, 'typedoc.json'),
      out: tmp,
      entryPoints: MODULES.map((m) => m.entry),
    });
    const crdUses = new Map(); // `file name` -> { file, name, owners: Set<reflection> }
    app.converter.addUnknownSymbolResolver((_ref, owner, part, symbolId) => {
      // only types named by the API: a {@link} into imports/ stays a broken link TypeDoc reports
      if (part || !symbolId || !(symbolId.packagePath in BINDINGS)) return undefined;
      const namespace = EXPORTED_AS.get(symbolId.packagePath);
      if (!namespace) return undefined; // not exported: TypeDoc reports it as not included
      const key = `${symbolId.packagePath} ${symbolId.qualifiedName}`;
      if (!crdUses.has(key)) crdUses.set(key, { file: symbolId.packagePath, name: symbolId.qualifiedName, owners: new Set() });
      crdUses.get(key).owners.add(owner);
      return `${CRD_PAGE}#${anchorOf(namespace, symbolId.qualifiedName)}`;
    });
    app.converter.on(
      Converter.EVENT_RESOLVE_BEGIN,
      (context) => {
        const project = context.project;
        const modules = project.children ?? [];
        const common = modules.find((m) => project.getSymbolIdFromReflection(m)?.packagePath === 'src/index.ts');
        if (!common) throw new Error('TypeDoc gave no module for src/index.ts');
        common.name = 'common';
        // src/index.ts re-exports every module: those links would list the whole API again
        for (const child of [...(common.children ?? [])]) if (child instanceof ReferenceReflection) project.removeReflection(child);
        gatherCommon(project, common);
      },
      100,
    );
    const project = await app.convert();
    if (!project || app.logger.hasErrors()) throw new Error('TypeDoc reported errors (above)');
    // What the CLI also checks: broken {@link}s, and types the API uses but does not export.
    app.validate(project);
    await app.generateOutputs(project);
    if (app.logger.hasErrors() || app.logger.hasWarnings()) throw new Error('TypeDoc reported errors or warnings (above)');

    const expected = [INDEX, ...MODULES.map((m) => `${m.name}.md`)].sort();
    const written = fs.readdirSync(tmp, { recursive: true }).map(String).sort();
    if (written.join() !== expected.join()) {
      throw new Error(`TypeDoc wrote ${written.join(', ') || 'nothing'}; expected ${expected.join(', ')} (outputFileStrategy "modules")`);
    }
    const pages = new Map(MODULES.map((m) => [m.name, fs.readFileSync(path.join(tmp, `${m.name}.md`), 'utf8')]));
    const uses = [...crdUses.values()].map((use) => ({
      ...use,
      by: [...use.owners].map((owner) => ({ module: moduleOf(owner).name, ...memberOf(owner) })),
    }));
    return { pages, uses };
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

/** GitHub's anchor of the CRD types page's heading for a type (`### cnpg.ClusterSpecBootstrap`). */
function anchorOf(namespace, name) {
  return `${namespace}${name}`.toLowerCase();
}

/** The committed form: the generation notice first, LF line ends, one final newline. */
function finish(markdown) {
  return `${NOTICE}\n\n${markdown.replace(/\r\n/g, '\n').trimEnd()}\n`;
}

function guideLinks(guides) {
  return guides.map(([label, file]) => `[${label}](../guides/${file})`).join(' · ');
}

/** A module page: its title and introduction, then TypeDoc's page without its own title. */
function modulePage(module, typedoc, namesCrdTypes) {
  const body = typedoc.replace(/\r\n/g, '\n');
  const title = `# ${module.name}\n`;
  if (!body.startsWith(title)) throw new Error(`TypeDoc's ${module.name}.md does not open with "${title.trim()}"`);
  const lines = [`# API reference: ${module.name}`, '', `[API reference](../API.md) · guides: ${guideLinks(module.guides)}`, '', wrap(module.intro)];
  if (namesCrdTypes) {
    lines.push('', wrap(`Generated CRD types in the signatures below (\`cnpg.*\`, \`certmanager.*\`) link to [the CRD types page](${CRD_PAGE}).`));
  }
  return finish(`${lines.join('\n')}\n${body.slice(title.length)}`);
}

/** Wraps prose at 100 columns, the way the hand-written docs are wrapped, never inside a `code span`. */
function wrap(text, width = 100) {
  const tokens = [];
  for (const word of text.split(/\s+/)) {
    const last = tokens.length - 1;
    // a token with an odd number of backticks opens a code span the next word continues
    if (last >= 0 && (tokens[last].match(/`/g) ?? []).length % 2 === 1) tokens[last] += ` ${word}`;
    else tokens.push(word);
  }
  const out = [];
  let line = '';
  for (const token of tokens) {
    if (line && line.length + 1 + token.length > width) {
      out.push(line);
      line = token;
    } else line = line ? `${line} ${token}` : token;
  }
  if (line) out.push(line);
  return out.join('\n');
}

/** The exports a module page documents (not its "Re-exports" links), with their anchors, sorted. */
function documentedExports(markdown) {
  const anchors = pageAnchors(markdown);
  const names = [];
  for (const m of markdown.matchAll(/^### (.+)\n\n(.*)$/gm)) {
    if (m[2].startsWith('Re-exports ')) continue;
    const name = m[1].replace(/\\/g, '').replace(/\(\)$/, '');
    names.push({ name, anchor: anchors.get(name) });
  }
  const key = (n) => `${n.name.toLowerCase()} ${n.name}`;
  return names.sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
}

function indexPage(uses, files) {
  const byModule = MODULES.map((m) => {
    const links = documentedExports(files.get(`${PAGES}/${m.name}.md`)).map(({ name, anchor }) => `[\`${name}\`](${PAGES}/${m.name}.md#${anchor})`);
    return wrap(`**${m.name}**: ${links.join(', ')}`);
  });
  const rows = MODULES.map((m) => `| [${m.name}](${PAGES}/${m.name}.md) | ${m.summary} |`);
  const crdCount = uses.length;
  return finish(
    [
      '# cdk8s-cnpg-i API reference',
      '',
      wrap(
        "Everything is imported from the package itself (`import { ... } from 'cdk8s-cnpg-i'`); the reference is split by the module of `src/` each name comes from, one page per module. Each page opens with what the module is for and links its guides.",
      ),
      '',
      '| page | what it documents |',
      '| --- | --- |',
      ...rows,
      `| [CRD types](${PAGES}/${CRD_PAGE}) | the ${crdCount} generated CRD types the API names (\`cnpg.*\`, \`certmanager.*\`), and where each is used |`,
      '',
      wrap(
        'The Python reference, generated from the jsii assembly, is [API.python.md](API.python.md); every rule of the doctor and the plan is in [doctor-rules.md](doctor-rules.md).',
      ),
      '',
      '## Every name, by page',
      '',
      byModule.join('\n\n'),
    ].join('\n'),
  );
}

/** imports/SOURCES.txt as `{ file, group, kinds, release }` lines. */
function readSources() {
  const text = fs.readFileSync(path.join(ROOT, 'imports', 'SOURCES.txt'), 'utf8');
  const sources = [];
  for (const line of text.split('\n')) {
    const m = /^[0-9a-f]{64} {2}(\S+) {2}\(([^:]+): ([^)]+)\)(?: {2}\[([^\]]+)\])?$/.exec(line);
    if (m) sources.push({ file: m[1], group: m[2], kinds: m[3].split(', '), release: m[4] });
  }
  if (sources.length === 0) throw new Error('imports/SOURCES.txt lists no CRD');
  return sources;
}

/** The release of a CRD source: SOURCES.txt's note, or the release manifest's name. */
function releaseOf(source) {
  if (source.release) return source.release;
  const manifest = /^cnpg-(\d+\.\d+\.\d+)\.yaml$/.exec(source.file);
  if (manifest) return `cloudnative-pg v${manifest[1]} (release manifest)`;
  throw new Error(
    `imports/SOURCES.txt names no release for ${source.file}: give its entry in scripts/import-crds.mjs a \`release\` and run \`npm run import\``,
  );
}

/** The tag of the release `project` (as SOURCES.txt names it, e.g. `cert-manager`) the pinned CRDs of `group` come from. */
function pinnedTag(sources, group, project) {
  const release = releaseOf(sources.find((s) => s.group === group) ?? { file: `(no CRD of ${group})` });
  const tag = new RegExp(`^${project} (v\\d+\\.\\d+\\.\\d+)\\b`).exec(release)?.[1];
  if (tag === undefined) throw new Error(`the CRDs of ${group} come from ${release}, not a release of ${project}`);
  return tag;
}

/**
 * Where each declaration of a generated binding sits in its CRD: `Kind` for the kind's class,
 * else the kind and the field path (`Cluster`, `spec.bootstrap.initdb`), read from the
 * `@schema Parent#field` tags `cdk8s import` writes above each property.
 */
function fieldPaths(file) {
  const text = fs.readFileSync(path.join(ROOT, file), 'utf8');
  const kinds = new Set([...text.matchAll(/^export class (\w+) extends ApiObject \{/gm)].map((m) => m[1]));
  const parentOf = new Map(); // type -> { parent, field }
  for (const m of text.matchAll(/@schema (\w+)#(\S+)\n\s*\*\/\n\s*readonly \w+\??: (\w+)(?:\[\])?;/g)) {
    const [, parent, field, type] = m;
    if (!parentOf.has(type)) parentOf.set(type, { parent, field });
  }
  return (name) => {
    if (kinds.has(name)) return { kind: name, path: '' };
    const fields = [];
    let type = name;
    for (let guard = 0; guard < 50 && !kinds.has(type); guard++) {
      const step = parentOf.get(type);
      if (!step) return undefined;
      fields.unshift(step.field);
      type = step.parent;
    }
    return kinds.has(type) ? { kind: type, path: fields.join('.') } : undefined;
  };
}

/** Each use's link: the heading of the member (else of the export) on its module's final page. */
function linkUses(uses, files) {
  const anchors = new Map(MODULES.map((m) => [m.name, pageAnchors(files.get(`${PAGES}/${m.name}.md`))]));
  return uses.map((use) => ({
    ...use,
    by: use.by.map(({ module, label, top, member }) => {
      const anchor = (member && anchors.get(module).get(`${top}.${member}`)) ?? anchors.get(module).get(top);
      if (!anchor) throw new Error(`${module}.md has no heading for ${top}, which names ${use.name}`);
      return { module, label, url: `${module}.md#${anchor}` };
    }),
  }));
}

function crdTypesPage(uses) {
  const sources = readSources();
  const exported = Object.entries(BINDINGS).filter(([file]) => EXPORTED_AS.has(file));
  const lines = [
    '# API reference: generated CRD types',
    '',
    '[API reference](../API.md) · guides: [Clusters](../guides/clusters.md) · [standalone plugins: TLS modes](../guides/standalone-plugins.md#tls-modes) · [other languages](../guides/other-languages.md)',
    '',
    wrap(
      "Where a CRD section is better written as the CRD spells it than through typed props, the API takes or gives the type `cdk8s import` generates from the CRD. The package exports those bindings as namespaces, the way cdk8s-plus exports `k8s`: `cnpg` (CloudNativePG, `postgresql.cnpg.io/v1`) and `certmanager` (cert-manager, `cert-manager.io/v1`). A type is named through its namespace (`import { ClusterBootstrap, cnpg } from 'cdk8s-cnpg-i'`, then `const initdb: cnpg.ClusterSpecBootstrapInitdb = { database: 'app', owner: 'app' }` for `ClusterBootstrap.initdb(initdb)`), and its fields are the CRD's, in camelCase.",
    ),
    '',
    'A user meets them in three places:',
    '',
    wrap(
      "- **Sections a Cluster takes as written**: `ClusterBootstrap.initdb()` takes `cnpg.ClusterSpecBootstrapInitdb` and `ClusterBootstrap.fromSpec()` a whole `cnpg.ClusterSpecBootstrap`; `ExternalClusterSource.fromBarmanObjectStore()` an in-tree Barman object store; `ClusterStorage.pvcTemplate` a PVC template; and `ClusterSpecPassthrough` (the `spec` prop of `PostgresCluster`) types each field of the Cluster spec the typed props leave out with the CRD's own type.",
    ).replace(/\n/g, '\n  '),
    wrap(
      "- **Objects a construct exposes**: `PluginCertificates` (`StandalonePlugin.tls`, and `PluginManifest.tls` when it replaces a manifest's certificates) gives its cert-manager `certmanager.Issuer`s and `certmanager.Certificate`s, `PluginBackup.apiObject` and `PluginScheduledBackup.apiObject` their CloudNativePG objects, for a test or an escape hatch.",
    ).replace(/\n/g, '\n  '),
    wrap('- **Values the API gives back**: `RecoveryTarget.toSpec()` returns the recovery target as the CRD section it becomes.').replace(/\n/g, '\n  '),
    '',
    wrap(
      'Python, Java, Go and .NET see the same namespaces as submodules (`from cdk8s_cnpg_i import cnpg`); see [other languages](../guides/other-languages.md).',
    ),
    '',
    '## Where they come from',
    '',
    wrap(
      "`npm run import` generates `imports/` from pinned CRDs, one module per API group, with the CRDs' descriptions stripped (so the generated types carry no prose: the upstream Go types linked below describe the fields). `imports/SOURCES.txt` records each CRD file and its SHA-256:",
    ),
    '',
    '| CRD file | API group | kinds | release |',
    '| --- | --- | --- | --- |',
    ...sources.map((s) => `| \`${s.file}\` | \`${s.group}\` | ${s.kinds.join(', ')} | ${releaseOf(s)} |`),
    '',
    wrap(
      `The bindings exported: ${exported.map(([file, b]) => `\`${EXPORTED_AS.get(file)}\` is \`${file}\` (${b.project})`).join(', ')}. The others are not exported, since the API names none of their types: ${Object.entries(
        BINDINGS,
      )
        .filter(([file]) => !EXPORTED_AS.has(file))
        .map(([file, b]) => `\`${file}\` (${b.inside})`)
        .join('; ')}.`,
    ),
    '',
    wrap(
      `The fields are documented upstream, in the Go types the CRDs are generated from, at the pinned releases: CloudNativePG [\`api/v1\`](https://github.com/cloudnative-pg/cloudnative-pg/tree/${pinnedTag(sources, 'postgresql.cnpg.io', 'cloudnative-pg')}/api/v1) and cert-manager [\`pkg/apis/certmanager/v1\`](https://github.com/cert-manager/cert-manager/tree/${pinnedTag(sources, 'cert-manager.io', 'cert-manager')}/pkg/apis/certmanager/v1).`,
    ),
    '',
    '## The types the API names',
    '',
    wrap(
      'Exactly the generated types that a signature or property of the public API names, each with the CRD field it is and where the API names it; the module pages link here. The rest of a namespace is what these types contain.',
    ),
  ];
  for (const [file, binding] of exported) {
    const ofFile = uses.filter((u) => u.file === file).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    if (ofFile.length === 0) continue;
    const where = fieldPaths(file);
    const namespace = EXPORTED_AS.get(file);
    lines.push('', `### ${namespace}: ${binding.project} (\`${binding.group}\`)`);
    for (const use of ofFile) {
      const field = where(use.name);
      if (!field) throw new Error(`${file}: cannot place ${use.name} in its CRD (no @schema path to a kind)`);
      const what = field.path === '' ? `the \`${field.kind}\` object (L1 construct)` : `\`${field.kind}\` \`${field.path}\``;
      const by = [...new Map(use.by.map((b) => [`${b.url} ${b.label}`, b])).values()]
        .sort((a, b) => (a.label < b.label ? -1 : a.label > b.label ? 1 : 0))
        .map((b) => `[\`${b.label}\`](${b.url})`)
        .join(', ');
      lines.push('', `#### ${namespace}.${use.name}`, '', wrap(`${what}; named by ${by}.`));
    }
  }
  return finish(lines.join('\n'));
}

try {
  const { out, clean } = parseArgs(process.argv.slice(2));
  process.chdir(ROOT);
  const { pages, uses } = await render();
  const files = new Map();
  for (const module of MODULES) {
    const names = uses.some((u) => u.by.some((b) => b.module === module.name));
    files.set(`${PAGES}/${module.name}.md`, modulePage(module, pages.get(module.name), names));
  }
  files.set(INDEX, indexPage(uses, files));
  files.set(`${PAGES}/${CRD_PAGE}`, crdTypesPage(linkUses(uses, files)));
  fs.mkdirSync(path.join(out, PAGES), { recursive: true });
  if (clean) {
    for (const name of fs.readdirSync(path.join(out, PAGES))) {
      if (!files.has(`${PAGES}/${name}`)) fs.rmSync(path.join(out, PAGES, name), { recursive: true, force: true });
    }
  }
  for (const [name, text] of files) fs.writeFileSync(path.join(out, name), text);
  console.log(`wrote ${path.relative(ROOT, out) || '.'}: ${[...files.keys()].join(', ')}`);
} catch (e) {
  console.error(`api-docs: ${e instanceof Error ? e.message : String(e)}`);
  process.exit(1);
}
