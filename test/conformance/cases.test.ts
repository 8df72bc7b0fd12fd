/*
 * The admission conformance table checks itself: well-formed cases, consistent verdicts, field
 * names the CRDs know, and every upstream spec either carried or left out with a reason.
 */
import * as fs from 'fs';
import * as path from 'path';
import { parseAllDocuments } from 'yaml';
import { describeWithShared, sharedPath } from '../shared';
import {
  AdmissionCase,
  CNPG_API_VERSION,
  CnpgKind,
  ExpectedError,
  HelperCase,
  Json,
  LeftOut,
  Manifest,
  Reason,
  UPSTREAM_FILES,
  UpstreamFile,
  UpstreamRef,
  Verdict,
} from './case';
import { ADMISSION_CASES, HELPER_CASES, LEFT_OUT } from './table';

interface FileCount {
  readonly It: number;
  readonly Entry: number;
  readonly assertingContainers: number;
}

const COUNT: { files: Record<UpstreamFile, FileCount> } = JSON.parse(fs.readFileSync(path.join(__dirname, 'upstream-count.json'), 'utf8'));

/** The id prefix of each upstream file, and the kind its object cases are about. */
const WEBHOOK: Record<UpstreamFile, { prefix: string; kind?: CnpgKind }> = {
  'cluster_webhook_test.go': { prefix: 'cluster', kind: 'Cluster' },
  'backup_webhook_test.go': { prefix: 'backup', kind: 'Backup' },
  'scheduledbackup_webhook_test.go': { prefix: 'scheduledbackup', kind: 'ScheduledBackup' },
  'pooler_webhook_test.go': { prefix: 'pooler', kind: 'Pooler' },
  'database_webhook_test.go': { prefix: 'database', kind: 'Database' },
  'common_test.go': { prefix: 'common' },
};

/** The checks ClusterCustomValidator.validate runs at v1.30.0, in its order. */
const CLUSTER_VALIDATE = [
  'validateInitDB',
  'validateRecoveryApplicationDatabase',
  'validatePgBaseBackupApplicationDatabase',
  'validateImport',
  'validateSuperuserSecret',
  'validateCerts',
  'validateBootstrapMethod',
  'validateImageName',
  'validateImagePullPolicy',
  'validateRecoveryTarget',
  'validatePrimaryUpdateStrategy',
  'validateMinSyncReplicas',
  'validateMaxSyncReplicas',
  'validateStorageSize',
  'validateWalStorageSize',
  'validateEphemeralVolumeSource',
  'validateTablespaceStorageSize',
  'validateName',
  'validateTablespaceNames',
  'validateBootstrapPgBaseBackupSource',
  'validateTablespaceBackupSnapshot',
  'validateBootstrapRecoverySource',
  'validateBootstrapRecoveryDataSource',
  'validateExternalClusters',
  'validateTolerations',
  'validateAntiAffinity',
  'validateReplicaMode',
  'validateBackupConfiguration',
  'validateRetentionPolicy',
  'validateConfiguration',
  'validateSynchronousReplicaConfiguration',
  'validateFailoverQuorumAlphaAnnotation',
  'validateFailoverQuorum',
  'validateLDAP',
  'validateReplicationSlots',
  'validateSynchronizeLogicalDecoding',
  'validateEnv',
  'validateManagedServices',
  'validateManagedRoles',
  'validateManagedExtensions',
  'validateResources',
  'validateHibernationAnnotation',
  'validatePodPatchAnnotation',
  'validatePromotionToken',
  'validatePluginConfiguration',
  'validateLivenessPingerProbe',
  'validatePodSelectorRefs',
  'validateExtensions',
  'validateServiceAccountConfig',
  'validatePrimaryLease',
];

/** The checks ClusterCustomValidator.validateClusterChanges runs (an old object is needed). */
const CLUSTER_CHANGES = [
  'validateImageChange',
  'validateConfigurationChange',
  'validateStorageChange',
  'validateWalStorageChange',
  'validateTablespacesChange',
  'validateUnixPermissionIdentifierChange',
  'validateReplicationSlotsChange',
  'validateWALLevelChange',
  'validateReplicaClusterChange',
];

/** Every upstream function a case may name, by id prefix. */
const FUNCTIONS: Record<string, ReadonlySet<string>> = {
  cluster: new Set([
    'validate',
    'validateClusterChanges',
    ...CLUSTER_VALIDATE,
    ...CLUSTER_CHANGES,
    // called by a check above, and tested on its own upstream
    'validatePgFailoverSlots',
    'validateReplicaClusterExternalClusters',
    'validateServiceTemplate',
    'parsePostgresQuantityValue',
    // ClusterCustomValidator.getAdmissionWarnings
    'getInTreeBarmanWarnings',
    'getRetentionPolicyWarnings',
    'getStorageWarnings',
  ]),
  backup: new Set(['validate']),
  scheduledbackup: new Set(['validate']),
  pooler: new Set(['validatePgBouncer', 'validateCluster', 'validatePgbouncerGenericParameters', 'validateMonitoring']),
  database: new Set(['validate']),
  common: new Set(['isValidationEnabled', 'bypassableValidator']),
};

const UPDATE_FUNCTIONS = new Set(['validateClusterChanges', ...CLUSTER_CHANGES]);
const WARNING_FUNCTIONS = new Set(['getInTreeBarmanWarnings', 'getRetentionPolicyWarnings', 'getStorageWarnings']);
const REASONS: ReadonlySet<Reason> = new Set<Reason>([
  'FieldValueInvalid',
  'FieldValueRequired',
  'FieldValueDuplicate',
  'FieldValueForbidden',
  'FieldValueNotSupported',
]);

const ALL: readonly (AdmissionCase | HelperCase)[] = [...ADMISSION_CASES, ...HELPER_CASES];

function refKey(ref: UpstreamRef): string {
  return `${ref.file}:${ref.line}`;
}

function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0;
}

/** The problems of a verdict, as sentences (empty when it is consistent). */
function verdictProblems(verdict: Verdict): string[] {
  const problems: string[] = [];
  const { errors, warnings, paths = [], details = [], warningDetails = [] } = verdict;
  if (errors !== 'some' && !isCount(errors)) problems.push(`errors ${String(errors)} is neither a count nor 'some'`);
  if (warnings !== undefined && warnings !== 'some' && !isCount(warnings)) problems.push(`warnings ${String(warnings)} is neither a count nor 'some'`);
  if (errors === 0 && (paths.length > 0 || details.length > 0)) problems.push('no errors, yet paths or details');
  if (isCount(errors) && paths.length > errors) problems.push(`${paths.length} paths for ${errors} errors`);
  if (new Set(paths).size !== paths.length) problems.push('a path is listed twice');
  details.forEach((d: ExpectedError, i) => {
    if (Object.keys(d).filter((k) => k !== 'index').length === 0) problems.push(`detail ${i} asserts nothing`);
    if (d.index !== undefined && (!isCount(d.index) || (isCount(errors) && d.index >= errors))) problems.push(`detail ${i} index ${d.index} is out of range`);
    if (d.reason !== undefined && !REASONS.has(d.reason)) problems.push(`detail ${i} reason ${d.reason} is unknown`);
    if (d.path !== undefined && !paths.includes(d.path)) problems.push(`detail ${i} path ${d.path} is not in paths`);
    if (d.pathPrefix !== undefined && d.path !== undefined) problems.push(`detail ${i} has both a path and a prefix`);
    if (d.messageContains !== undefined && d.messageContains.length === 0) problems.push(`detail ${i} has an empty messageContains`);
  });
  if (warningDetails.length > 0 && warnings === undefined) problems.push('warning details without a warning count');
  warningDetails.forEach((w, i) => {
    if (!isCount(w.index) || (isCount(warnings) && w.index >= warnings)) problems.push(`warning detail ${i} index ${w.index} is out of range`);
    if (w.contains.length === 0) problems.push(`warning detail ${i} asserts nothing`);
  });
  return problems;
}

/** The problems of a manifest of the table. */
function manifestProblems(object: Manifest, kind: CnpgKind): string[] {
  const problems: string[] = [];
  if (object.apiVersion !== CNPG_API_VERSION) problems.push(`apiVersion ${object.apiVersion}`);
  if (object.kind !== kind) problems.push(`kind ${object.kind}, expected ${kind}`);
  if (typeof object.metadata?.name !== 'string' || object.metadata.name === '') problems.push('no metadata.name');
  if (typeof object.spec !== 'object' || object.spec === null || Array.isArray(object.spec)) problems.push('spec is not an object');
  if (JSON.stringify(JSON.parse(JSON.stringify(object))) !== JSON.stringify(object)) problems.push('not plain JSON');
  const allowed = new Set(['apiVersion', 'kind', 'metadata', 'spec', 'status']);
  for (const key of Object.keys(object)) if (!allowed.has(key)) problems.push(`unexpected top-level field ${key}`);
  return problems;
}

describe('the admission conformance table', () => {
  test('ids are unique and read <webhook>/<function>/<n>, numbered 1..n per function', () => {
    const ids = ALL.map((c) => c.id);
    expect(ids.length).toBe(new Set(ids).size);
    const numbers = new Map<string, number[]>();
    for (const c of ALL) {
      const match = /^([a-z]+)\/([A-Za-z]+)\/([1-9][0-9]*)$/.exec(c.id);
      expect({ id: c.id, matches: match !== null }).toEqual({ id: c.id, matches: true });
      const [, prefix, fn, n] = match!;
      expect({ id: c.id, prefix, fn }).toEqual({ id: c.id, prefix: WEBHOOK[c.upstream.file].prefix, fn: c.function });
      const key = `${prefix}/${fn}`;
      numbers.set(key, [...(numbers.get(key) ?? []), Number(n)]);
    }
    for (const [key, list] of numbers) {
      const sorted = [...list].sort((a, b) => a - b);
      expect({ key, numbers: sorted }).toEqual({ key, numbers: sorted.map((_, i) => i + 1) });
    }
  });

  test('every case names an upstream function of its webhook', () => {
    for (const c of ALL) {
      expect({ id: c.id, known: FUNCTIONS[WEBHOOK[c.upstream.file].prefix].has(c.function) }).toEqual({ id: c.id, known: true });
    }
    for (const l of LEFT_OUT) {
      expect({ left: refKey(l.upstream), known: FUNCTIONS[WEBHOOK[l.upstream.file].prefix].has(l.function) }).toEqual({
        left: refKey(l.upstream),
        known: true,
      });
    }
  });

  test('every input (and old object) is a CloudNativePG object of the case kind with a name', () => {
    for (const c of ADMISSION_CASES) {
      expect({ id: c.id, kind: c.kind }).toEqual({ id: c.id, kind: WEBHOOK[c.upstream.file].kind });
      expect({ id: c.id, problems: manifestProblems(c.input, c.kind) }).toEqual({ id: c.id, problems: [] });
      if (c.old !== undefined) {
        expect({ id: c.id, problems: manifestProblems(c.old, c.kind) }).toEqual({ id: c.id, problems: [] });
        expect({ id: c.id, sameName: c.old.metadata.name === c.input.metadata.name }).toEqual({ id: c.id, sameName: true });
      }
    }
    for (const h of HELPER_CASES) {
      expect({ id: h.id, plain: JSON.stringify(JSON.parse(JSON.stringify(h.args))) === JSON.stringify(h.args) }).toEqual({ id: h.id, plain: true });
    }
  });

  test('verdicts are consistent with themselves', () => {
    for (const c of ADMISSION_CASES) expect({ id: c.id, problems: verdictProblems(c.verdict) }).toEqual({ id: c.id, problems: [] });
    for (const h of HELPER_CASES) {
      const { returns, fails, verdict } = h.expected;
      const problems = verdict === undefined ? [] : verdictProblems(verdict);
      if (returns === undefined && fails !== true && verdict === undefined) problems.push('expects nothing');
      if (fails === true && returns !== undefined && h.function !== 'isValidationEnabled') problems.push('fails and returns');
      expect({ id: h.id, problems }).toEqual({ id: h.id, problems: [] });
    }
  });

  test('update checks, and only they, carry an old object; defaulting flags fit the case', () => {
    for (const c of ADMISSION_CASES) {
      const problems: string[] = [];
      const update = UPDATE_FUNCTIONS.has(c.function);
      if (update && c.old === undefined && !(c.function === 'validateClusterChanges' && c.note !== undefined))
        problems.push('update check without an old object');
      if (!update && c.old !== undefined) problems.push(`${c.function} does not read an old object`);
      if (c.oldDefaulted && c.old === undefined) problems.push('oldDefaulted without an old object');
      if ((c.defaulted || c.oldDefaulted) && c.kind !== 'Cluster') problems.push('only the Cluster defaulter changes anything');
      if (c.afterDefaulting !== undefined && !c.defaulted) problems.push('afterDefaulting without defaulted');
      if (c.admission !== undefined) {
        const { rewrittenBy, errors, paths } = c.admission;
        if (c.note === undefined) problems.push('admission differs, but no note says how');
        if (rewrittenBy.length === 0 || new Set(rewrittenBy).size !== rewrittenBy.length) problems.push('admission names no rewriter, or one twice');
        if (rewrittenBy.includes('defaulter') && c.kind !== 'Cluster') problems.push('only the Cluster defaulter rewrites objects');
        if (!isCount(errors)) problems.push(`admission errors ${errors} is not a count`);
        const sameCount = c.verdict.errors === errors || (c.verdict.errors === 'some' && errors > 0);
        if (sameCount && paths === undefined) problems.push('admission decides as the function does');
        if (paths !== undefined && paths.length > errors) problems.push('more admission paths than errors');
      }
      if (WARNING_FUNCTIONS.has(c.function) && (c.verdict.errors !== 0 || c.verdict.warnings === undefined))
        problems.push('a warning function has 0 errors and a warning count');
      if (c.verdict.warnings !== undefined && !WARNING_FUNCTIONS.has(c.function) && c.kind !== 'ScheduledBackup')
        problems.push('warnings asserted for a function that returns none');
      expect({ id: c.id, problems }).toEqual({ id: c.id, problems: [] });
    }
  });

  test('upstream references are complete, and one spec reads the same in every case', () => {
    const seen = new Map<string, UpstreamRef>();
    for (const ref of [...ALL.map((c) => c.upstream), ...LEFT_OUT.map((l) => l.upstream)]) {
      expect(UPSTREAM_FILES).toContain(ref.file);
      expect({ ref: refKey(ref), ok: Number.isInteger(ref.line) && ref.line > 0 && ref.describe !== '' && ref.it !== '' }).toEqual({
        ref: refKey(ref),
        ok: true,
      });
      const before = seen.get(refKey(ref));
      if (before !== undefined) expect(ref).toEqual(before);
      seen.set(refKey(ref), ref);
    }
  });

  test('left-out specs have a reason, and no spec is both carried and left out', () => {
    const carried = new Set(ALL.map((c) => refKey(c.upstream)));
    for (const l of LEFT_OUT) {
      expect(['operator-environment', 'go-test-double']).toContain(l.reason);
      expect(l.detail.length).toBeGreaterThan(40);
      expect({ left: refKey(l.upstream), alsoCarried: carried.has(refKey(l.upstream)) }).toEqual({ left: refKey(l.upstream), alsoCarried: false });
    }
    expect(new Set(LEFT_OUT.map((l) => refKey(l.upstream))).size).toBe(LEFT_OUT.length);
  });

  test('ported + left out = the upstream count, file by file (upstream-count.json)', () => {
    for (const file of UPSTREAM_FILES) {
      const count = COUNT.files[file];
      const carried = new Set(ALL.filter((c) => c.upstream.file === file).map((c) => c.upstream.line));
      const left = LEFT_OUT.filter((l: LeftOut) => l.upstream.file === file).length;
      expect({ file, total: carried.size + left }).toEqual({ file, total: count.It + count.Entry + count.assertingContainers });
    }
  });

  test("the README's counts are the table's", () => {
    const readme = fs.readFileSync(path.join(__dirname, 'README.md'), 'utf8');
    for (const file of UPSTREAM_FILES) {
      const count = COUNT.files[file];
      const ported = new Set(ALL.filter((c) => c.upstream.file === file).map((c) => c.upstream.line)).size;
      const left = LEFT_OUT.filter((l) => l.upstream.file === file).length;
      const cases = ALL.filter((c) => c.upstream.file === file).length;
      const row = `| ${file} | ${count.It + count.Entry} | ${count.assertingContainers} | ${ported} | ${left} | ${cases} |`;
      expect(readme).toContain(row);
    }
  });
});

/** A structural schema node of a CRD (the parts the key walk reads). */
interface SchemaNode {
  readonly properties?: Record<string, SchemaNode>;
  readonly additionalProperties?: SchemaNode | boolean;
  readonly items?: SchemaNode;
  readonly 'x-kubernetes-preserve-unknown-fields'?: boolean;
}

/** The JSON paths of `value` whose key the schema does not declare. */
function unknownKeys(value: Json, schema: SchemaNode, at: string): string[] {
  if (schema['x-kubernetes-preserve-unknown-fields'] === true || value === null || typeof value !== 'object') return [];
  if (Array.isArray(value)) {
    const items = schema.items;
    return items === undefined ? [] : (value as readonly Json[]).flatMap((v, i) => unknownKeys(v, items, `${at}[${i}]`));
  }
  const out: string[] = [];
  for (const [key, child] of Object.entries(value as Record<string, Json>)) {
    const declared = schema.properties?.[key];
    const extra = typeof schema.additionalProperties === 'object' ? schema.additionalProperties : undefined;
    if (declared !== undefined) out.push(...unknownKeys(child, declared, `${at}.${key}`));
    else if (extra !== undefined) out.push(...unknownKeys(child, extra, `${at}.${key}`));
    else if (schema.additionalProperties !== true) out.push(`${at}.${key}`);
  }
  return out;
}

describeWithShared(
  'the table uses the field names of the CloudNativePG v1.30.0 CRDs',
  () => {
    let schemas: Map<string, SchemaNode>;
    beforeAll(() => {
      schemas = new Map();
      for (const doc of parseAllDocuments(fs.readFileSync(sharedPath('reference', 'cnpg-1.30.0.yaml'), 'utf8'))) {
        const crd = doc.toJS();
        if (crd?.kind !== 'CustomResourceDefinition') continue;
        const version = crd.spec.versions.find((v: { name: string }) => v.name === 'v1');
        schemas.set(crd.spec.names.kind, version.schema.openAPIV3Schema);
      }
    });

    test('every key of every input, old object and object argument is declared by its CRD', () => {
      const objects: [string, Manifest][] = [];
      for (const c of ADMISSION_CASES) {
        objects.push([c.id, c.input]);
        if (c.old !== undefined) objects.push([`${c.id} (old)`, c.old]);
      }
      for (const h of HELPER_CASES) {
        for (const arg of Object.values(h.args)) {
          if (arg !== null && typeof arg === 'object' && 'apiVersion' in arg) objects.push([h.id, arg as Manifest]);
        }
      }
      for (const [id, object] of objects) {
        const schema = schemas.get(object.kind)!;
        const unknown = [
          ...unknownKeys(object.spec, schema.properties!.spec, 'spec'),
          ...(object.status === undefined ? [] : unknownKeys(object.status, schema.properties!.status, 'status')),
        ];
        expect({ id, unknown }).toEqual({ id, unknown: [] });
      }
    });
  },
  'reference',
  'cnpg-1.30.0.yaml',
);
