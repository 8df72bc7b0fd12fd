import { analyzeManifests, checkManifests } from '../../src/doctor/check-manifests';
import { DOCTOR_RULES } from '../../src/doctor/registry';
import { countingReads } from '../util';
import { Doc, fixture, summary } from './helpers';

describe('checkManifests', () => {
  test('reports the discovered plugin of the good fixture', () => {
    const r = analyzeManifests(fixture('good-plugin.yaml'));
    expect(r.plugins).toEqual([
      {
        name: 'backup.example.com',
        source: 'service',
        object: 'Service/cnpg-system/backup',
        port: 9090,
        clientSecret: 'backup-client-tls',
        serverSecret: 'backup-server-tls',
        serverName: 'backup',
        address: 'backup.cnpg-system.svc:9090',
      },
    ]);
    expect(r.cnpgVersion).toBe('1.30.0');
    expect(r.objectCount).toBe(9);
  });

  test('older operators dial the short Service name', () => {
    expect(analyzeManifests(fixture('good-plugin.yaml'), { cnpgVersion: '1.28.3' }).plugins[0].address).toBe('backup:9090');
    expect(analyzeManifests(fixture('good-plugin.yaml'), { cnpgVersion: 'v1.29.2' }).plugins[0].address).toBe('backup.cnpg-system.svc:9090');
  });

  test('kind: List is expanded and findings point at the List', () => {
    const docs = fixture('good-plugin.yaml');
    const f = checkManifests([{ apiVersion: 'v1', kind: 'List', items: docs }]);
    expect(f).toEqual([]);
    docs[4].metadata.annotations['cnpg.io/pluginPort'] = 'x';
    const broken = checkManifests([null, { apiVersion: 'v1', kind: 'List', items: docs }]);
    expect(broken.map((x) => x.index)).toContain(1);
  });

  test('odd documents are reported, not thrown on', () => {
    const f = checkManifests([
      null,
      undefined,
      42,
      'text',
      [1, 2],
      { hello: 'world' },
      { apiVersion: 'v1', kind: 'ConfigMap' },
      { kind: 'List', items: 'nope' },
    ]);
    expect(summary(f)).toEqual(
      [
        'CNPGI090 warning document #3',
        'CNPGI090 warning document #4',
        'CNPGI090 warning document #5',
        'CNPGI090 warning document #6',
        'CNPGI090 warning document #7',
        'CNPGI090 warning document #8',
        'CNPGI001 warning input',
      ].sort((a, b) => (a.startsWith('CNPGI001') ? -1 : b.startsWith('CNPGI001') ? 1 : 0)),
    );
  });

  test('errors come first', () => {
    const docs = fixture('good-plugin.yaml');
    docs[4].metadata.annotations['cnpg.io/pluginServerName'] = '';
    docs[4].metadata.annotations['cnpg.io/pluginPort'] = '1';
    const sev = checkManifests(docs).map((f) => f.severity);
    expect(sev).toEqual([...sev].sort());
  });

  test.each<[string, unknown, string]>([
    [
      'options',
      'x',
      "checkManifests: options 'x' must be an object; pass { operatorNamespace?, cnpgVersion?, knownPlugins?, defaultNamespace?, disable?, sidecarPlugins?, verbose?, clusterResourceNamespace? }",
    ],
    ['cnpgVersion', { cnpgVersion: 'latest' }, "checkManifests: options.cnpgVersion 'latest' is not a version; use MAJOR.MINOR.PATCH, e.g. '1.27.1'"],
    ['cnpgVersion type', { cnpgVersion: 1.3 }, "checkManifests: options.cnpgVersion 1.3 must be a non-empty string; pass a version such as '1.27.1'"],
    [
      'operatorNamespace',
      { operatorNamespace: '' },
      "checkManifests: options.operatorNamespace '' must be a non-empty string; pass the operator's namespace, e.g. 'cnpg-system'",
    ],
    ['knownPlugins', { knownPlugins: 'a' }, "checkManifests: options.knownPlugins 'a' must be an array of plugin names; pass ['backup.example.com']"],
    ['knownPlugins item', { knownPlugins: [3] }, 'checkManifests: options.knownPlugins[0] 3 must be a non-empty string; pass the plugin name as a string'],
  ])('invalid %s throws', (_n, options, message) => {
    expect(() => checkManifests([], options as any)).toThrow(message);
  });

  test('objects must be an array', () => {
    expect(() => checkManifests({} as any)).toThrow(
      'checkManifests: objects {} must be an array of manifest objects; pass the parsed YAML documents as an array',
    );
  });

  test('every reported rule id is documented', () => {
    const ids = new Set(DOCTOR_RULES.map((r) => r.id));
    expect(ids.size).toBe(DOCTOR_RULES.length);
    for (const r of DOCTOR_RULES) expect(r.id).toMatch(/^CNPGI\d{3}$/);
  });

  // A small hand-rolled mutator: replace, delete or retype one field at a time anywhere in the
  // good fixtures; the doctor must never throw and must always return well-formed findings.
  test('never crashes on mutated input', () => {
    const base = [...fixture('good-plugin.yaml'), ...fixture('sidecar-operator.yaml')];
    const weird: unknown[] = [null, undefined, 0, -1, 1.5, '', 'x', true, [], [null], {}, { a: 1 }, '9090', NaN];
    let seed = 12345;
    const rand = (n: number) => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed % n;
    };
    const paths: Array<Array<string | number>> = [];
    const walk = (v: unknown, p: Array<string | number>) => {
      paths.push(p);
      if (Array.isArray(v)) v.forEach((x, i) => walk(x, [...p, i]));
      else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) walk(x, [...p, k]);
    };
    walk(base, []);
    const ruleIds = new Set(DOCTOR_RULES.map((r) => r.id));
    for (let round = 0; round < 600; round++) {
      const docs: Doc[] = JSON.parse(JSON.stringify(base));
      const p = paths[rand(paths.length)];
      if (p.length === 0) continue;
      let parent: any = docs;
      for (const k of p.slice(0, -1)) parent = parent[k];
      const last = p[p.length - 1];
      if (rand(4) === 0 && !Array.isArray(parent)) delete parent[last];
      else parent[last] = weird[rand(weird.length)];
      const findings = checkManifests(docs);
      for (const f of findings) {
        expect(ruleIds.has(f.ruleId)).toBe(true);
        expect(typeof f.message).toBe('string');
        expect(typeof f.fix).toBe('string');
      }
    }
  });

  // Complexity is asserted by counting reads of the input, never with a clock: the doctor keeps
  // references to the objects it is given, so every field it looks at is one counted read.
  /** 1 + copies x a full plugin install with its Cluster, each with its own names. */
  function plugins(copies: number): Doc[] {
    const text = JSON.stringify(fixture('good-plugin.yaml').filter((d) => d.metadata.name !== 'cnpg-controller-manager'));
    const docs: Doc[] = [fixture('good-plugin.yaml')[0]];
    for (let i = 0; i < copies; i++) {
      docs.push(
        ...JSON.parse(
          text
            .replace(/backup/g, `backup${i}`)
            .replace(/"app"/g, `"app${i}"`)
            .replace(/"pg"/g, `"pg${i}"`),
        ),
      );
    }
    return docs;
  }
  /** Services that all carry one plugin name and one selector, beside the fixture. */
  function sameNameServices(copies: number): Doc[] {
    const base = fixture('good-plugin.yaml');
    const docs: Doc[] = [...base];
    for (let i = 0; i < copies; i++) {
      for (const d of base.filter((x) => x.kind === 'Service' || (x.kind === 'Deployment' && x.metadata.name === 'backup'))) {
        const copy = JSON.parse(JSON.stringify(d));
        copy.metadata.name = `${copy.metadata.name}-${i}`;
        docs.push(copy);
      }
    }
    return docs;
  }
  function readsOf(docs: Doc[]): number {
    const counted = countingReads(docs);
    analyzeManifests(counted.values);
    return counted.reads();
  }

  test('20,000 objects: every plugin discovered, no findings', () => {
    const r = analyzeManifests(plugins(2000));
    expect(r.objectCount).toBe(16001);
    expect(r.findings).toEqual([]);
    expect(r.plugins).toHaveLength(2000);
  });

  test('scales linearly: 4x the plugin installs cost at most 4.5x the reads', () => {
    const small = readsOf(plugins(100));
    const large = readsOf(plugins(400));
    expect(small).toBeGreaterThan(10_000);
    expect(large / small).toBeLessThan(4.5);
  });

  test('pathological input: 2,000 Services with one name and one selector are reported in one finding', () => {
    const f = checkManifests(sameNameServices(2000));
    expect(f.filter((x) => x.ruleId === 'CNPGI018')[0].message).toContain('and 1997 more');
  });

  test('pathological input scales linearly: 4x the same-name Services cost at most 4.5x the reads', () => {
    const small = readsOf(sameNameServices(200));
    const large = readsOf(sameNameServices(800));
    expect(large / small).toBeLessThan(4.5);
  });
});

describe('input that contains itself', () => {
  test('a Certificate whose usages hold the list itself (a YAML alias of an ancestor) is reported, not thrown on', () => {
    const usages: unknown[] = [];
    usages.push(usages);
    const cert = {
      apiVersion: 'cert-manager.io/v1',
      kind: 'Certificate',
      metadata: { name: 'c', namespace: 'cnpg-system' },
      spec: { secretName: 'c', commonName: 'c', issuerRef: { name: 'i' }, usages, duration: usages, renewBefore: usages },
    };
    const findings = checkManifests([cert], { operatorNamespace: 'cnpg-system' });
    expect(findings.some((f) => f.path === 'spec.usages[0]')).toBe(true);
  });
});
