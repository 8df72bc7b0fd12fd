#!/usr/bin/env node
// Regenerates imports/ from the pinned CRDs: CloudNativePG's from its release manifest
// ../shared/reference/cnpg-1.30.0.yaml (override the folder with CNPG_I_REFERENCE_DIR), every
// other project's from ../shared/crds (override with CNPG_I_CRDS_DIR), except the Prometheus
// Operator's PodMonitor and PrometheusRule: those are taken from the prometheus-operator repository
// at the tag `release` names (example/prometheus-operator-crd/), in a folder CNPG_I_MONITORING_CRDS_DIR
// names (default ../shared/crds). Each kind has one pinned source: the release manifest holds every
// CloudNativePG CRD, the way the operator installs them.
//
// The CRDs belong to other projects. Their `description` texts are prose, so they are
// stripped before generation and imports/ holds types only. One `cdk8s import` runs per API
// group, because cdk8s writes one module per group and a second run would overwrite it.
//
// Beside the bindings, imports/schemas/ receives each served version's openAPIV3Schema (the
// same stripping, keys sorted so the files are deterministic) and index.json, which maps
// `group/version/Kind` to its file. src/schema validates objects against these files, with the
// ajv standalone validators scripts/schema-validators.ts then writes to imports/schemas/validators/.
// imports/compiled/ receives the bindings as plain CommonJS (scripts/compile-bindings.mjs), for
// `npm run synth`.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseAllDocuments, stringify } from 'yaml';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const crdDir = resolve(process.env.CNPG_I_CRDS_DIR ?? join(root, '..', 'shared', 'crds'));
const monitoringDir = resolve(process.env.CNPG_I_MONITORING_CRDS_DIR ?? crdDir);
const referenceDir = resolve(process.env.CNPG_I_REFERENCE_DIR ?? join(root, '..', 'shared', 'reference'));
const outDir = join(root, 'imports');

/**
 * The pinned files and what each one gives: the CRDs of `group` in it (a release manifest holds
 * other objects too), each kind from exactly one file. Every kind gets its schema and validator;
 * `bindings` names the kinds that also get an L1 class (all of the file's when absent): the
 * library exports the bindings (`cnpg`, `certmanager`), and a binding of a kind it never writes
 * would only grow the package and its jsii API (the Pooler's alone, with its pod template, would
 * add about 360 KB of JavaScript and as much of declarations). `release` names the upstream
 * release a file was taken from (../shared/crds/SOURCES.md documents the ones from that folder);
 * SOURCES.txt shows it, and the API reference's CRD types page reads it from there.
 */
const PINNED = [
  { dir: crdDir, env: 'CNPG_I_CRDS_DIR', file: 'cert-manager.io_issuers.yaml', group: 'cert-manager.io', release: 'cert-manager v1.21.1' },
  { dir: crdDir, env: 'CNPG_I_CRDS_DIR', file: 'cert-manager.io_clusterissuers.yaml', group: 'cert-manager.io', release: 'cert-manager v1.21.1' },
  { dir: crdDir, env: 'CNPG_I_CRDS_DIR', file: 'cert-manager.io_certificates.yaml', group: 'cert-manager.io', release: 'cert-manager v1.21.1' },
  { dir: crdDir, env: 'CNPG_I_CRDS_DIR', file: 'barmancloud.cnpg.io_objectstores.yaml', group: 'barmancloud.cnpg.io', release: 'plugin-barman-cloud v0.14.0' },
  {
    dir: monitoringDir,
    env: 'CNPG_I_MONITORING_CRDS_DIR',
    file: 'monitoring.coreos.com_podmonitors.yaml',
    group: 'monitoring.coreos.com',
    release: 'prometheus-operator v0.93.0',
  },
  {
    dir: monitoringDir,
    env: 'CNPG_I_MONITORING_CRDS_DIR',
    file: 'monitoring.coreos.com_prometheusrules.yaml',
    group: 'monitoring.coreos.com',
    release: 'prometheus-operator v0.93.0',
  },
  {
    dir: referenceDir,
    env: 'CNPG_I_REFERENCE_DIR',
    file: 'cnpg-1.30.0.yaml',
    group: 'postgresql.cnpg.io',
    bindings: ['Backup', 'Cluster', 'ScheduledBackup'],
  },
];

// A schema's `description` is a string; a CRD field that happens to be called `description`
// is an object under `properties`, and must survive.
function stripDescriptions(node) {
  if (Array.isArray(node)) return node.map(stripDescriptions);
  if (node && typeof node === 'object') {
    const out = {};
    for (const [k, v] of Object.entries(node)) {
      if (k === 'description' && typeof v === 'string') continue;
      out[k] = stripDescriptions(v);
    }
    return out;
  }
  return node;
}

for (const [dir, env] of new Map(PINNED.map((p) => [p.dir, p.env]))) {
  let available;
  try {
    available = new Set(readdirSync(dir));
  } catch {
    console.error(`import: no folder at ${dir}; set ${env} to the folder holding the pinned files`);
    process.exit(2);
  }
  const missing = PINNED.filter((p) => p.dir === dir && !available.has(p.file)).map((p) => p.file);
  if (missing.length) {
    console.error(`import: ${dir} lacks ${missing.join(', ')}`);
    process.exit(2);
  }
}

// Sorted keys at every level: the same CRD always gives the same bytes, whatever the YAML order.
function sortKeys(node) {
  if (Array.isArray(node)) return node.map(sortKeys);
  if (node && typeof node === 'object') {
    const out = {};
    for (const k of Object.keys(node).sort()) out[k] = sortKeys(node[k]);
    return out;
  }
  return node;
}

const byGroup = new Map();
const pins = [];
const schemas = [];
const sourceOf = new Map(); // group/Kind -> the file that gave it
for (const { dir, file, group: wanted, bindings, release } of PINNED) {
  const text = readFileSync(join(dir, file), 'utf8');
  const kinds = [];
  for (const doc of parseAllDocuments(text)) {
    const crd = doc.toJS();
    if (!crd || crd.kind !== 'CustomResourceDefinition' || crd.spec?.group !== wanted) continue;
    const group = crd.spec.group;
    const groupKind = `${group}/${crd.spec.names.kind}`;
    if (sourceOf.has(groupKind)) {
      console.error(`import: ${groupKind} is in both ${sourceOf.get(groupKind)} and ${file}; pin one source per kind`);
      process.exit(2);
    }
    sourceOf.set(groupKind, file);
    kinds.push(crd.spec.names.kind);
    if (!byGroup.has(group)) byGroup.set(group, []);
    if (!bindings || bindings.includes(crd.spec.names.kind)) byGroup.get(group).push(stringify(stripDescriptions(crd)));
    for (const version of crd.spec.versions ?? []) {
      const schema = version.schema?.openAPIV3Schema;
      if (!version.served || !schema) continue;
      schemas.push({
        key: `${group}/${version.name}/${crd.spec.names.kind}`,
        file: `${group}_${crd.spec.names.plural}_${version.name}.json`,
        scope: crd.spec.scope,
        statusSubresource: Boolean(version.subresources?.status),
        schema: sortKeys(stripDescriptions(schema)),
      });
    }
  }
  if (kinds.length === 0) {
    console.error(`import: ${file} holds no CRD of ${wanted}`);
    process.exit(2);
  }
  const from = release ? `  [${release}]` : '';
  pins.push(`${createHash('sha256').update(text).digest('hex')}  ${file}  (${wanted}: ${kinds.sort().join(', ')})${from}`);
}

const work = mkdtempSync(join(tmpdir(), 'cnpg-i-import-'));
// `cdk8s import` records each imported file in cdk8s.yaml (a temporary path) and rewrites the
// file without its comments; the project's cdk8s.yaml is put back as it was.
const cdk8sYaml = join(root, 'cdk8s.yaml');
const cdk8sYamlText = readFileSync(cdk8sYaml, 'utf8');
try {
  mkdirSync(outDir, { recursive: true });
  const cdk8s = join(root, 'node_modules', '.bin', 'cdk8s');
  for (const [group, docs] of [...byGroup.entries()].sort(([a], [b]) => a.localeCompare(b))) {
    const file = join(work, `${group}.yaml`);
    writeFileSync(file, docs.join('---\n'));
    execFileSync(cdk8s, ['import', '--check-upgrade=false', '--language', 'typescript', '--output', outDir, file], {
      stdio: 'inherit',
      cwd: root,
    });
  }
  const schemaDir = join(outDir, 'schemas');
  rmSync(schemaDir, { recursive: true, force: true });
  mkdirSync(schemaDir, { recursive: true });
  const index = {};
  for (const s of schemas.sort((a, b) => a.key.localeCompare(b.key))) {
    writeFileSync(join(schemaDir, s.file), JSON.stringify(s.schema, null, 1) + '\n');
    index[s.key] = { file: s.file, scope: s.scope, statusSubresource: s.statusSubresource };
  }
  writeFileSync(join(schemaDir, 'index.json'), JSON.stringify(index, null, 2) + '\n');
  writeFileSync(
    join(outDir, 'SOURCES.txt'),
    '# Generated by `npm run import` from these CRDs (SHA-256), descriptions stripped. Do not edit.\n' + pins.join('\n') + '\n',
  );
  // The bindings as plain CommonJS, which `npm run synth` requires instead of bundling them.
  execFileSync(process.execPath, [join(root, 'scripts', 'compile-bindings.mjs')], { stdio: 'inherit', cwd: root });
  // The ajv validators of these schemas, generated ahead of time (no compiling at run time).
  execFileSync(process.execPath, ['--import', 'tsx', join(root, 'scripts', 'schema-validators.ts')], { stdio: 'inherit', cwd: root });
} finally {
  writeFileSync(cdk8sYaml, cdk8sYamlText);
  rmSync(work, { recursive: true, force: true });
}
