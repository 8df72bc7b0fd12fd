import { applyCrdDefaults, crdSchemaKeys, hasCrdSchema, SchemaIssue, validateCustomResource, validateObject } from '../../src/schema';

const kinds = (issues: SchemaIssue[]) => issues.map((i) => `${i.kind} ${i.path}`);

function cluster(spec: Record<string, unknown>, metadata: Record<string, unknown> = { name: 'pg', namespace: 'db' }) {
  return { apiVersion: 'postgresql.cnpg.io/v1', kind: 'Cluster', metadata, spec: { instances: 1, storage: { size: '1Gi' }, ...spec } };
}

/** An object of another CloudNativePG kind, in namespace `db`. */
function cnpg(kind: string, spec: Record<string, unknown>) {
  return { apiVersion: 'postgresql.cnpg.io/v1', kind, metadata: { name: 'x', namespace: 'db' }, spec };
}

function backup(spec: Record<string, unknown>) {
  return { apiVersion: 'postgresql.cnpg.io/v1', kind: 'Backup', metadata: { name: 'b', namespace: 'db' }, spec: { cluster: { name: 'pg' }, ...spec } };
}

describe('the pinned CRDs', () => {
  test('every kind the project pins has a schema', () => {
    expect(crdSchemaKeys()).toEqual([
      'barmancloud.cnpg.io/v1/ObjectStore',
      'cert-manager.io/v1/Certificate',
      'cert-manager.io/v1/ClusterIssuer',
      'cert-manager.io/v1/Issuer',
      'monitoring.coreos.com/v1/PodMonitor',
      'monitoring.coreos.com/v1/PrometheusRule',
      'postgresql.cnpg.io/v1/Backup',
      'postgresql.cnpg.io/v1/Cluster',
      'postgresql.cnpg.io/v1/ClusterImageCatalog',
      'postgresql.cnpg.io/v1/Database',
      'postgresql.cnpg.io/v1/DatabaseRole',
      'postgresql.cnpg.io/v1/FailoverQuorum',
      'postgresql.cnpg.io/v1/ImageCatalog',
      'postgresql.cnpg.io/v1/Pooler',
      'postgresql.cnpg.io/v1/Publication',
      'postgresql.cnpg.io/v1/ScheduledBackup',
      'postgresql.cnpg.io/v1/Subscription',
    ]);
    expect(hasCrdSchema('postgresql.cnpg.io/v1', 'Cluster')).toBe(true);
    expect(hasCrdSchema('postgresql.cnpg.io/v2', 'Cluster')).toBe(false);
    expect(hasCrdSchema('v1', 'Service')).toBe(false);
    expect(hasCrdSchema('postgresql.cnpg.io/v1', 'constructor')).toBe(false);
  });

  test('a kind without a pinned CRD gives no schema issue', () => {
    expect(validateCustomResource({ apiVersion: 'example.com/v1', kind: 'Thing', metadata: { name: 'x' }, spec: { anything: 1 } })).toEqual([]);
  });
});

describe('enums', () => {
  test('method: Plugin on a Backup is refused with the allowed values', () => {
    const [found, ...rest] = validateCustomResource(backup({ method: 'Plugin', pluginConfiguration: { name: 'p' } }));
    expect(rest).toEqual([]);
    expect(found).toEqual({
      path: 'spec.method',
      kind: 'enum',
      value: 'Plugin',
      allowed: "one of 'barmanObjectStore', 'volumeSnapshot', 'plugin'",
      allowedValues: ['barmanObjectStore', 'volumeSnapshot', 'plugin'],
      problem: 'is not one of the values the CRD allows',
      fix: "use one of 'barmanObjectStore', 'volumeSnapshot', 'plugin'",
      message: "spec.method 'Plugin' is not one of the values the CRD allows; use one of 'barmanObjectStore', 'volumeSnapshot', 'plugin'",
    });
  });
  test('method: plugin passes', () => {
    expect(validateCustomResource(backup({ method: 'plugin', pluginConfiguration: { name: 'p' } }))).toEqual([]);
  });
});

describe('types and required fields', () => {
  test('a string where the CRD wants an integer', () => {
    const issues = validateCustomResource(cluster({ instances: '3' }));
    expect(kinds(issues)).toEqual(['type spec.instances']);
    expect(issues[0].message).toBe("spec.instances '3' must be a whole number; write it as a whole number");
  });
  test('a string where the CRD wants a boolean, in a list item', () => {
    const issues = validateCustomResource(cluster({ plugins: [{ name: 'p', isWALArchiver: 'true' }] }));
    expect(kinds(issues)).toEqual(['type spec.plugins[0].isWALArchiver']);
    expect(issues[0].allowed).toBe('a boolean');
  });
  test('a missing required field', () => {
    const issues = validateCustomResource(cluster({ plugins: [{ enabled: true }] }));
    expect(kinds(issues)).toEqual(['required spec.plugins[0].name']);
    expect(issues[0].message).toBe('spec.plugins[0].name is required by the CRD and not set; set name');
  });
  test('a plugin parameter that is not a string (CNPGI048 restated by the schema)', () => {
    const issues = validateCustomResource(cluster({ plugins: [{ name: 'p', parameters: { barmanObjectName: 3 } }] }));
    expect(kinds(issues)).toEqual(['type spec.plugins[0].parameters.barmanObjectName']);
  });
  test('errors deep in a large subtree (compiled on first use) keep their full path', () => {
    const issues = validateCustomResource(cluster({ affinity: { tolerations: [{ key: 'k', operator: 'Sometimes' }], nodeAffinity: 'x' } }));
    expect(kinds(issues)).toEqual(['type spec.affinity.nodeAffinity']);
    const deep = validateCustomResource(
      cluster({
        affinity: {
          nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'a', operator: 3 }] }] } },
        },
      }),
    );
    expect(kinds(deep)).toEqual([
      'type spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[0].operator',
    ]);
  });
  test('a number below the minimum', () => {
    expect(kinds(validateCustomResource(cluster({ instances: 0 })))).toEqual(['min spec.instances']);
  });
});

describe('pruned fields', () => {
  test('isWalArchiver is pruned, with the CRD spelling as the hint', () => {
    const issues = validateCustomResource(cluster({ plugins: [{ name: 'p', isWalArchiver: true }] }));
    expect(issues).toEqual([
      {
        path: 'spec.plugins[0].isWalArchiver',
        kind: 'pruned-unknown-field',
        value: true,
        allowed: "the field 'isWALArchiver'",
        didYouMean: 'isWALArchiver',
        problem: 'is not a field the CRD declares, so the API server drops it',
        fix: "did you mean 'isWALArchiver'?",
        message: "spec.plugins[0].isWalArchiver true is not a field the CRD declares, so the API server drops it; did you mean 'isWALArchiver'?",
      },
    ]);
  });
  test('an unknown field far from every declared name has no hint', () => {
    const [found] = validateCustomResource(cluster({ toppings: 3 }));
    expect(found.kind).toBe('pruned-unknown-field');
    expect(found.didYouMean).toBeUndefined();
    expect(found.message).toBe('spec.toppings 3 is not a field the CRD declares, so the API server drops it; remove it, or check the spelling against the CRD');
  });
  test('an unknown metadata field is dropped too', () => {
    const [found] = validateCustomResource(cluster({}, { name: 'pg', label: { a: 'b' } }));
    expect(found.path).toBe('metadata.label');
    expect(found.didYouMean).toBe('labels');
  });
  test('a pruned field is not validated further', () => {
    expect(kinds(validateCustomResource(cluster({ plugin: [{ nme: 1 }] })))).toEqual(['pruned-unknown-field spec.plugin']);
  });
  test('a null the CRD does not allow is dropped, and reported (the storage: null trap)', () => {
    const issues = validateCustomResource(cluster({ storage: { size: null } }));
    expect(kinds(issues)).toEqual(['null-dropped spec.storage.size']);
  });
});

describe('int-or-string', () => {
  const withRequests = (requests: Record<string, unknown>) => cluster({ resources: { requests } });
  test('a quantity may be a string or an integer', () => {
    expect(validateCustomResource(withRequests({ memory: '1Gi', cpu: 1 }))).toEqual([]);
  });
  test('a malformed quantity string fails the pattern', () => {
    expect(kinds(validateCustomResource(withRequests({ memory: '1 GB' })))).toEqual(['pattern spec.resources.requests.memory']);
  });
  test('neither an integer nor a string', () => {
    const issues = validateCustomResource(withRequests({ memory: true }));
    expect(kinds(issues)).toEqual(['type spec.resources.requests.memory']);
    expect(issues[0].allowed).toBe('a whole number or a string');
  });
});

describe('list-type map keys and sets', () => {
  const claims = (...names: string[]) => cluster({ resources: { claims: names.map((name) => ({ name })) } });
  test('two resource claims with the same name are refused (listType map, key name)', () => {
    const issues = validateCustomResource(claims('gpu', 'fpga', 'gpu'));
    expect(kinds(issues)).toEqual(['duplicate spec.resources.claims[2]']);
    expect(issues[0].message).toBe(
      'spec.resources.claims[2] {"name":"gpu"} has the same name as item 0; the CRD keys this list by name; merge or rename the entries',
    );
  });
  test('distinct names pass', () => {
    expect(validateCustomResource(claims('gpu', 'fpga'))).toEqual([]);
  });
});

describe('preserve-unknown-fields', () => {
  // The Cluster CRD keeps the contents of its `status.pluginStatus[].status`... only where the
  // CRD says so; an Issuer's webhook solver `config` is one such subtree.
  test('fields under x-kubernetes-preserve-unknown-fields are kept', () => {
    const issuer = {
      apiVersion: 'cert-manager.io/v1',
      kind: 'Issuer',
      metadata: { name: 'i', namespace: 'db' },
      spec: {
        acme: {
          server: 'https://acme.example.com',
          privateKeySecretRef: { name: 'k' },
          solvers: [{ dns01: { webhook: { groupName: 'g', solverName: 's', config: { anything: { goes: 1 } } } } }],
        },
      },
    };
    expect(validateCustomResource(issuer)).toEqual([]);
  });
});

describe('formats', () => {
  const ca = (caBundle: string) => ({
    apiVersion: 'cert-manager.io/v1',
    kind: 'Issuer',
    metadata: { name: 'i', namespace: 'db' },
    spec: { vault: { server: 'https://vault', path: 'pki', caBundle, auth: { tokenSecretRef: { name: 't', key: 'k' } } } },
  });
  test('byte must be base64', () => {
    expect(validateCustomResource(ca('aGVsbG8='))).toEqual([]);
    expect(kinds(validateCustomResource(ca('not base64!')))).toEqual(['format spec.vault.caBundle']);
  });
});

describe('defaults', () => {
  test('validation does not change the object', () => {
    const obj = cluster({ plugins: [{ name: 'p', isWalArchiver: true }] });
    const before = JSON.stringify(obj);
    validateCustomResource(obj);
    expect(JSON.stringify(obj)).toBe(before);
  });
  test('applyCrdDefaults applies the CRD defaults on a copy', () => {
    const obj = backup({ pluginConfiguration: { name: 'p' } });
    const defaulted = applyCrdDefaults(obj);
    expect(defaulted.spec).toMatchObject({ method: 'barmanObjectStore' });
    expect((obj.spec as Record<string, unknown>).method).toBeUndefined();
    const pg = applyCrdDefaults(cluster({ plugins: [{ name: 'p' }] }));
    expect((pg.spec as Record<string, unknown>).plugins).toEqual([{ name: 'p', enabled: true, isWALArchiver: false }]);
  });
  test('an object of a kind without a CRD comes back as a copy', () => {
    const svc = { apiVersion: 'v1', kind: 'Service', metadata: { name: 's' } };
    const copy = applyCrdDefaults(svc);
    expect(copy).toEqual(svc);
    expect(copy).not.toBe(svc);
  });
});

describe('status', () => {
  test('a status in a manifest is ignored: a create cannot set it (status subresource)', () => {
    const pg = { ...cluster({}), status: { phase: 3, made: 'up' } };
    expect(validateCustomResource(pg)).toEqual([]);
  });
});

describe('validateObject', () => {
  test('dispatches core objects to the core checks', () => {
    expect(kinds(validateObject({ apiVersion: 'v1', kind: 'Service', metadata: { name: 'a.b' } }))).toEqual(['invalid-name metadata.name']);
  });
  test('a custom resource name must be a DNS subdomain', () => {
    expect(kinds(validateObject(cluster({}, { name: 'Bad_Name' })))).toEqual(['invalid-name metadata.name']);
  });
  test('junk input is one issue, never a TypeError', () => {
    for (const junk of [null, undefined, 3, 'x', []]) {
      const issues = validateObject(junk);
      expect(kinds(issues)).toEqual(['type <root>']);
    }
  });
});

describe('every CloudNativePG kind of the release manifest', () => {
  const messages = (obj: unknown) => validateCustomResource(obj).map((i) => i.message);

  test('a Pooler of an unknown type is refused with the types the CRD allows', () => {
    expect(messages(cnpg('Pooler', { cluster: { name: 'pg' }, type: 'rx', pgbouncer: {} }))).toEqual([
      "spec.type 'rx' is not one of the values the CRD allows; use one of 'rw', 'ro', 'r'",
    ]);
  });
  test('a Pooler without pgbouncer is refused; one with it passes', () => {
    expect(messages(cnpg('Pooler', { cluster: { name: 'pg' } }))).toEqual(['spec.pgbouncer is required by the CRD and not set; set pgbouncer']);
    expect(messages(cnpg('Pooler', { cluster: { name: 'pg' }, type: 'ro', pgbouncer: { poolMode: 'transaction' } }))).toEqual([]);
  });
  test("a Pooler's image and image catalog are exclusive (CEL)", () => {
    const ref = { apiGroup: 'postgresql.cnpg.io', kind: 'ImageCatalog', name: 'pgbouncer', key: 'pgbouncer' };
    expect(messages(cnpg('Pooler', { cluster: { name: 'pg' }, pgbouncer: { image: 'pgbouncer:1', imageCatalogRef: ref } }))).toEqual([
      'spec.pgbouncer fails the CRD rule `!(has(self.image) && has(self.imageCatalogRef))`, so the API server refuses the object; image and imageCatalogRef are mutually exclusive',
    ]);
    expect(messages(cnpg('Pooler', { cluster: { name: 'pg' }, pgbouncer: { imageCatalogRef: ref } }))).toEqual([]);
  });
  test('a Database named postgres is refused (CEL); another name passes', () => {
    expect(messages(cnpg('Database', { cluster: { name: 'pg' }, name: 'postgres', owner: 'app' }))).toEqual([
      "spec.name fails the CRD rule `self != 'postgres'`, so the API server refuses the object; the name postgres is reserved",
    ]);
    expect(messages(cnpg('Database', { cluster: { name: 'pg' }, name: 'app', owner: 'app', extensions: [{ name: 'postgis' }] }))).toEqual([]);
  });
  test('a DatabaseRole named pg_* is refused (CEL)', () => {
    expect(messages(cnpg('DatabaseRole', { cluster: { name: 'pg' }, name: 'pg_reader' }))).toEqual([
      "spec fails the CRD rule `!self.name.startsWith('pg_')`, so the API server refuses the object; role names starting with pg_ are reserved by PostgreSQL",
    ]);
    expect(messages(cnpg('DatabaseRole', { cluster: { name: 'pg' }, name: 'reader' }))).toEqual([]);
  });
  test('a Publication of all tables and of objects is refused (CEL)', () => {
    const spec = { cluster: { name: 'pg' }, name: 'pub', dbname: 'app' };
    expect(messages(cnpg('Publication', { ...spec, target: { allTables: true, objects: [{ tablesInSchema: 'public' }] } }))).toEqual([
      'spec.target fails the CRD rule `(has(self.allTables) && !has(self.objects)) || (!has(self.allTables) && has(self.objects))`, so the API server refuses the object; allTables and objects are mutually exclusive',
    ]);
    expect(messages(cnpg('Publication', { ...spec, target: { allTables: true } }))).toEqual([]);
  });
  test('a Subscription without its publication is refused', () => {
    const spec = { cluster: { name: 'pg' }, name: 'sub', dbname: 'app', externalClusterName: 'origin' };
    expect(messages(cnpg('Subscription', spec))).toEqual(['spec.publicationName is required by the CRD and not set; set publicationName']);
    expect(messages(cnpg('Subscription', { ...spec, publicationName: 'pub' }))).toEqual([]);
  });
  test('an image catalog with two images of one major is refused (CEL), namespaced or cluster-wide', () => {
    const images = [
      { major: 17, image: 'ghcr.io/cloudnative-pg/postgresql:17.6' },
      { major: 17, image: 'ghcr.io/cloudnative-pg/postgresql:17.7' },
    ];
    const refused =
      'spec.images fails the CRD rule `self.all(e, self.filter(f, f.major==e.major).size() == 1)`, so the API server refuses the object; Images must have unique major versions';
    expect(messages(cnpg('ImageCatalog', { images }))).toEqual([refused]);
    expect(messages({ apiVersion: 'postgresql.cnpg.io/v1', kind: 'ClusterImageCatalog', metadata: { name: 'x' }, spec: { images } })).toEqual([refused]);
    expect(messages(cnpg('ImageCatalog', { images: [images[0], { major: 18, image: 'ghcr.io/cloudnative-pg/postgresql:18.4' }] }))).toEqual([]);
  });
  test('a FailoverQuorum has no spec: one written is dropped', () => {
    expect(messages(cnpg('FailoverQuorum', {}))).toEqual([
      'spec {} is not a field the CRD declares, so the API server drops it; remove it, or check the spelling against the CRD',
    ]);
    expect(messages({ apiVersion: 'postgresql.cnpg.io/v1', kind: 'FailoverQuorum', metadata: { name: 'x', namespace: 'db' } })).toEqual([]);
  });
});

describe("a CRD pattern in Go's syntax", () => {
  // prometheus-operator v0.93.0, PrometheusRule spec.groups[].partial_response_strategy: the API
  // server compiles `^(?i)(abort|warn)?$` with Go's regexp, where `(?i)` makes it case-insensitive.
  function rule(strategy: string) {
    return {
      apiVersion: 'monitoring.coreos.com/v1',
      kind: 'PrometheusRule',
      metadata: { name: 'r', namespace: 'db' },
      spec: { groups: [{ name: 'g', partial_response_strategy: strategy, rules: [{ alert: 'A', expr: 'up == 0' }] }] },
    };
  }

  test('is read case-insensitively after (?i), as the API server reads it', () => {
    for (const ok of ['abort', 'Abort', 'WARN', '']) expect(kinds(validateCustomResource(rule(ok)))).toEqual([]);
  });

  test('still refuses what the pattern does not take', () => {
    expect(kinds(validateCustomResource(rule('abortx')))).toEqual(['pattern spec.groups[0].partial_response_strategy']);
  });
});
