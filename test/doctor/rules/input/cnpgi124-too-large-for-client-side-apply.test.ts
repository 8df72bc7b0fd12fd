import * as fs from 'fs';
import * as YAML from 'yaml';
import { clientSideApplyAnnotationsSize } from '../../../../src/checks/client-side-apply';
import { analyzeManifests } from '../../../../src/doctor/check-manifests';
import { describeWithShared, sharedPath } from '../../../shared';
import { fixture, ofRule } from '../../helpers';

const SYNC_OPTIONS = 'argocd.argoproj.io/sync-options';

/** A ConfigMap whose annotations, once client-side apply records it, come to exactly `total` bytes. */
function configMap(total: number, annotations?: Record<string, string>): any {
  const o: any = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'big', namespace: 'apps', ...(annotations && { annotations }) }, data: { big: '' } };
  o.data.big = 'x'.repeat(total - clientSideApplyAnnotationsSize(o));
  expect(clientSideApplyAnnotationsSize(o)).toBe(total);
  return o;
}

function findings(...objects: any[]) {
  return ofRule(analyzeManifests([...fixture('good-plugin.yaml'), ...objects]).findings, 'CNPGI124');
}

describe('CNPGI124 too-large-for-client-side-apply', () => {
  test('an object one byte over the limit: a warning with the size, the refusal and the fix', () => {
    expect(findings(configMap(262145)).map((f) => [f.severity, f.object, f.path, f.message, f.fix])).toEqual([
      [
        'warning',
        'ConfigMap/apps/big',
        'metadata.annotations',
        "is too large for client-side apply: recorded in kubectl.kubernetes.io/last-applied-configuration, its annotations come to 262145 bytes, over the API server's limit of 262144, so `kubectl apply` without --server-side and Argo CD's default sync are refused (metadata.annotations: Too long)",
        'apply it server-side: kubectl apply --server-side, or annotate it argocd.argoproj.io/sync-options: ServerSideApply=true for Argo CD',
      ],
    ]);
  });

  test('Go escapes <, > and & in six bytes: an object JavaScript measures under the limit can be over', () => {
    const o = configMap(262144);
    o.data.big = `${o.data.big.slice(1)}<`;
    expect(JSON.stringify(o).length).toBe(JSON.stringify(configMap(262144)).length);
    expect(findings(o).map((f) => f.message)).toEqual([expect.stringContaining('come to 262149 bytes')]);
  });

  test('near misses: at the limit, and objects that ask Argo CD for server-side apply', () => {
    expect(findings(configMap(262144))).toEqual([]);
    expect(findings(configMap(300000, { [SYNC_OPTIONS]: 'ServerSideApply=true' }))).toEqual([]);
    expect(findings(configMap(300000, { [SYNC_OPTIONS]: 'Prune=false, ServerSideApply=true' }))).toEqual([]);
    // another option, or server-side apply switched off, does not help
    expect(findings(configMap(300000, { [SYNC_OPTIONS]: 'Prune=false' }))).toHaveLength(1);
    expect(findings(configMap(300000, { [SYNC_OPTIONS]: 'ServerSideApply=false' }))).toHaveLength(1);
  });

  test('the annotation being recorded again is not counted twice (kubectl drops it before encoding)', () => {
    const o = configMap(262144);
    o.metadata.annotations = { 'kubectl.kubernetes.io/last-applied-configuration': 'y'.repeat(100000) };
    expect(findings(o)).toEqual([]);
  });
  test('the cheap bound counts keys, numbers and nesting: objects over the limit without a long string', () => {
    // 40,000 numbers of 7 characters, each an array item: about 320 kB of JSON
    const numbers = {
      apiVersion: 'example.com/v1',
      kind: 'Thing',
      metadata: { name: 'numbers', namespace: 'apps' },
      spec: { values: Array.from({ length: 40000 }, (_, i) => 1000000 + i) },
    };
    // 30,000 keys of 5 characters with empty strings: about 300 kB of JSON
    const keys = {
      apiVersion: 'example.com/v1',
      kind: 'Thing',
      metadata: { name: 'keys', namespace: 'apps' },
      spec: Object.fromEntries(Array.from({ length: 30000 }, (_, i) => [`k${10000 + i}`, ''])),
    };
    expect(findings(numbers, keys).map((f) => f.object)).toEqual(['Thing/apps/numbers', 'Thing/apps/keys']);
  });

  test('an object nested deeper than the bound walks is counted exactly; one that holds itself is not sized', () => {
    const deep = (name: string, leaf: string) => {
      let spec: any = { leaf };
      for (let i = 0; i < 150; i++) spec = { n: spec };
      return { apiVersion: 'example.com/v1', kind: 'Thing', metadata: { name, namespace: 'apps' }, spec };
    };
    expect(findings(deep('small', 'x'), deep('large', 'x'.repeat(270000))).map((f) => f.object)).toEqual(['Thing/apps/large']);
    const cycle: any = { apiVersion: 'example.com/v1', kind: 'Thing', metadata: { name: 'cycle', namespace: 'apps' }, spec: {} };
    cycle.spec.self = cycle.spec;
    expect(findings(cycle)).toEqual([]);
  });
});

describeWithShared('CNPGI124 on the CloudNativePG 1.30.0 release manifest', () => {
  test('the Cluster and Pooler CRDs, with the sizes kubectl would produce', () => {
    const docs = YAML.parseAllDocuments(fs.readFileSync(sharedPath('reference', 'cnpg-1.30.0.yaml'), 'utf8'))
      .map((d) => d.toJSON())
      .filter((d) => d);
    const report = analyzeManifests(docs);
    // the sizes a Go program running kubectl's GetModifiedConfiguration printed for this file
    expect(ofRule(report.findings, 'CNPGI124').map((f) => [f.object, /come to (\d+) bytes/.exec(f.message)![1]])).toEqual([
      ['CustomResourceDefinition/clusters.postgresql.cnpg.io', '272526'],
      ['CustomResourceDefinition/poolers.postgresql.cnpg.io', '339202'],
    ]);
  });
});
