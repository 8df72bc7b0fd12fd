import {
  fluxResourceYaml,
  parseSubstitution,
  substituteDocument,
  substituteText,
  substitutionDisabled,
  variableReferences,
  variablesFromText,
  variablesOfObject,
} from '../../src/manifests/flux-substitution';
import { parseManifestText } from '../../src/manifests/load';

const vars =
  (v: Record<string, string>) =>
  (n: string): string | undefined =>
    Object.prototype.hasOwnProperty.call(v, n) ? v[n] : undefined;

const doc = (yaml: string) => parseManifestText(yaml, 't.yaml')[0].value;

describe('variableReferences', () => {
  test('names, operators, defaults and positions', () => {
    expect(variableReferences('name: ${APP}-db, replicas: ${PG_REPLICAS:=2}')).toEqual([
      { name: 'APP', operator: '', text: '${APP}', start: 6, end: 12 },
      { name: 'PG_REPLICAS', operator: ':=', default: '2', text: '${PG_REPLICAS:=2}', start: 27, end: 44 },
    ]);
  });
  test('every default form gives its default', () => {
    expect(variableReferences('${A:-x}${B=y}${C:?z}${D:+w}${E:=}').map((r) => [r.name, r.operator, r.default])).toEqual([
      ['A', ':-', 'x'],
      ['B', '=', 'y'],
      ['C', ':?', 'z'],
      ['D', ':+', 'w'],
      ['E', ':=', ''],
    ]);
  });
  test('nested references come after the one holding them; the default keeps their text', () => {
    expect(variableReferences('${A:=x${B}}').map((r) => [r.name, r.default])).toEqual([
      ['A', 'x${B}'],
      ['B', undefined],
    ]);
  });
  test('escapes and bare $NAME are no references', () => {
    expect(variableReferences('$${A} $B $$ cost: $5')).toEqual([]);
    expect(variableReferences('$$${A}').map((r) => r.name)).toEqual(['A']);
  });
  test('the other operators have no default', () => {
    expect(variableReferences('${#A}${A^^}${A:1:2}${A//x/y}${A%%.*}').map((r) => [r.name, r.operator, r.default])).toEqual([
      ['A', '#', undefined],
      ['A', '^^', undefined],
      ['A', ':', undefined],
      ['A', '//', undefined],
      ['A', '%%', undefined],
    ]);
  });
  test('a text Flux refuses has none, and parseSubstitution says why', () => {
    expect(variableReferences('x ${} y')).toEqual([]);
    expect(parseSubstitution('x ${} y')).toEqual({ ok: false, error: 'unable to parse variable name' });
    expect(parseSubstitution('${A')).toEqual({ ok: false, error: 'missing closing brace' });
    expect(parseSubstitution('${A-x}')).toEqual({ ok: false, error: 'missing closing brace' });
    expect(parseSubstitution('${A:=1}')).toEqual({ ok: true });
  });
});

describe('substituteText', () => {
  test('a value, a default, an escape', () => {
    expect(substituteText('${A}/${B:=b}/$${C}', vars({ A: 'a' }), 'keep')).toBe('a/b/${C}');
  });
  test('an empty value takes the default', () => {
    expect(substituteText('${A:-d}', vars({ A: '' }), 'keep')).toBe('d');
  });
  test('unset: empty (Flux), fail (strict), keep (the doctor), keep-all (unknown sources)', () => {
    expect(substituteText('x${A}y', vars({}), 'empty')).toBe('xy');
    expect(() => substituteText('x${A}y', vars({}), 'fail')).toThrow('variable not set (strict mode): "A"');
    expect(substituteText('x${A:=1}y', vars({}), 'fail')).toBe('x1y');
    expect(substituteText('x${A}y${B^^}', vars({}), 'keep')).toBe('x${A}y${B^^}');
    expect(substituteText('x${A:=1}y', vars({}), 'keep')).toBe('x1y');
    expect(substituteText('x${A:=1}y', vars({}), 'keep-all')).toBe('x${A:=1}y');
  });
  test('the string functions', () => {
    const v = vars({ A: 'abcabf', S: 'Hello' });
    expect(substituteText('${#A} ${S^^} ${S,,} ${A:1:3} ${A#a*} ${A##a*} ${A%b*} ${A/b/X} ${A//b/X}', v, 'keep')).toBe(
      '6 HELLO hello bca bcabf  abca aXcabf aXcaXf',
    );
  });
});

describe('substituteDocument', () => {
  const cluster = (spec: string, meta = '') => doc(`apiVersion: postgresql.cnpg.io/v1\nkind: Cluster\nmetadata:\n  name: \${APP}-db${meta}\nspec:\n${spec}`);
  test('an integer and a name are rendered as Flux renders them', () => {
    expect(substituteDocument(cluster('  instances: ${PG_REPLICAS:=2}\n'), vars({ APP: 'orders' }), 'keep')).toEqual({
      status: 'rendered',
      value: { apiVersion: 'postgresql.cnpg.io/v1', kind: 'Cluster', metadata: { name: 'orders-db' }, spec: { instances: 2 } },
    });
  });
  test('a quoted reference becomes a number too: kustomize writes the object without its quotes', () => {
    const r = substituteDocument(cluster('  instances: "${N}"\n'), vars({ APP: 'a', N: '3' }), 'keep');
    expect(r.status === 'rendered' && (r.value as { spec: unknown }).spec).toEqual({ instances: 3 });
  });
  test('a string that only looks like a number stays a string', () => {
    const r = substituteDocument(cluster('  instances: "3"\n  v: ${N}\n'), vars({ APP: 'a', N: 'x' }), 'keep');
    expect(r.status === 'rendered' && (r.value as { spec: unknown }).spec).toEqual({ instances: '3', v: 'x' });
  });
  test('booleans become booleans', () => {
    const r = substituteDocument(cluster('  enableSuperuserAccess: ${SU}\n'), vars({ APP: 'a', SU: 'true' }), 'keep');
    expect(r.status === 'rendered' && (r.value as { spec: unknown }).spec).toEqual({ enableSuperuserAccess: true });
  });
  test('an unresolved variable stays as its text, never an empty string', () => {
    const r = substituteDocument(cluster('  storage:\n    size: ${SIZE}\n'), vars({ APP: 'a' }), 'keep');
    expect(r.status === 'rendered' && (r.value as { spec: unknown }).spec).toEqual({ storage: { size: '${SIZE}' } });
  });
  test('the disabled annotation and label leave the object alone', () => {
    const ann = cluster('  instances: ${N}\n', '\n  annotations:\n    kustomize.toolkit.fluxcd.io/substitute: disabled');
    expect(substitutionDisabled(ann)).toBe(true);
    expect(substituteDocument(ann, vars({ N: '2', APP: 'a' }), 'keep')).toEqual({ status: 'unchanged' });
    const label = cluster('  instances: ${N}\n', '\n  labels:\n    kustomize.toolkit.fluxcd.io/substitute: disabled');
    expect(substituteDocument(label, vars({ N: '2', APP: 'a' }), 'keep')).toEqual({ status: 'unchanged' });
    // the value must be exactly `disabled`
    const other = cluster('  instances: ${N}\n', '\n  annotations:\n    kustomize.toolkit.fluxcd.io/substitute: "false"');
    expect(substituteDocument(other, vars({ N: '2', APP: 'a' }), 'keep').status).toBe('rendered');
  });
  test('a value that breaks the YAML and a bad expression fail as in Flux', () => {
    expect(substituteDocument(cluster('  x: ${V}\n'), vars({ APP: 'a', V: 'a: b' }), 'keep')).toMatchObject({ status: 'failed' });
    expect(substituteDocument(cluster('  x: ${}\n'), vars({ APP: 'a' }), 'keep')).toEqual({ status: 'failed', error: 'unable to parse variable name' });
  });
  test('the YAML Flux substitutes holds no quotes around a reference', () => {
    expect(fluxResourceYaml({ a: '${X}', b: '3', c: 'a: ${X}' })).toBe('"a": ${X}\n"b": "3"\n"c": "a: ${X}"\n');
  });
});

describe('variables of ConfigMaps, Secrets and dotenv files', () => {
  test('a Secret: data decoded, stringData over it, newlines removed', () => {
    const secret = { apiVersion: 'v1', kind: 'Secret', data: { A: Buffer.from('x\ny').toString('base64'), B: 'Yg==' }, stringData: { B: 'over' } };
    expect(variablesOfObject(secret)).toEqual({
      vars: new Map([
        ['A', 'xy'],
        ['B', 'over'],
      ]),
      errors: [],
    });
    expect(variablesOfObject({ kind: 'Secret', data: { A: 'not base64!' } }).errors).toEqual(['data.A is not base64']);
  });
  test('a ConfigMap reads data only', () => {
    expect(variablesOfObject({ kind: 'ConfigMap', data: { A: '1' }, binaryData: { B: 'eA==' } }).vars).toEqual(new Map([['A', '1']]));
  });
  test('a dotenv file as kustomize reads env files', () => {
    expect(variablesFromText('# c\n\n  APP=orders\nQ="quoted"\nE=\nX=a=b\n', 'f.env')).toEqual(
      new Map([
        ['APP', 'orders'],
        ['Q', '"quoted"'],
        ['E', ''],
        ['X', 'a=b'],
      ]),
    );
    expect(() => variablesFromText('APP\n', 'f.env')).toThrow("line 1 'APP' is not KEY=VALUE");
    expect(() => variablesFromText('bad-name=1\n', 'f.env')).toThrow("line 1: 'bad-name' is not a variable name Flux accepts");
  });
  test('a manifest file without ConfigMap or Secret is refused', () => {
    expect(() => variablesFromText('apiVersion: v1\nkind: Service\nmetadata:\n  name: x\n', 'f.yaml')).toThrow('holds no ConfigMap or Secret');
  });
});
