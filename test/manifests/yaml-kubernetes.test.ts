/*
 * The loader reads YAML as kubectl does (src/manifests/yaml-kubernetes.ts). The table
 * (yaml-kubernetes-table.json) holds inputs and what kubectl's reader made of each: the JSON of
 * every document, or its error. The expectations come from the oracle test/oracles/k8s-yaml
 * (k8s.io/apimachinery v0.36.3 NewYAMLOrJSONDecoder, sigs.k8s.io/yaml v1.6.0, go.yaml.in/yaml/v2
 * v2.4.3, as Kubernetes 1.36 pins them), never written by hand:
 *
 *   CNPG_I_UPDATE_YAML_TABLE=1 npx jest test/manifests/yaml-kubernetes.test.ts
 *
 * rewrites them after an input is added. Every machine checks the loader against the table;
 * where Go is present the oracle is run on the table (a stale expectation fails) and on a few
 * hundred generated inputs.
 */
import * as fs from 'fs';
import * as path from 'path';
import fc from 'fast-check';
import { InputError, parseManifestText } from '../../src/manifests/load';
import { buildOracle, describeWithGo, runOracle } from '../oracles/go-oracle';

interface Row {
  readonly name: string;
  readonly input: string;
  /** The JSON of each document kubectl keeps, as sigs.k8s.io/yaml writes it. */
  readonly documents?: string[];
  /** kubectl's error, for an input it refuses. */
  readonly refused?: string;
}

interface Verdict {
  readonly documents: string[];
  readonly error?: string;
}

const TABLE_FILE = path.join(__dirname, 'yaml-kubernetes-table.json');
const TABLE: Row[] = JSON.parse(fs.readFileSync(TABLE_FILE, 'utf8'));
const UPDATE = process.env.CNPG_I_UPDATE_YAML_TABLE === '1';

/** What the loader makes of `text`: the document values, or the InputError. */
function load(text: string): { documents: unknown[] } | { error: InputError } {
  try {
    return { documents: parseManifestText(text, 'in.yaml').map((d) => d.value) };
  } catch (e) {
    if (!(e instanceof InputError)) throw e;
    return { error: e };
  }
}

/** Checks the loader against one verdict of kubectl's reader (values as JSON.parse reads them, -0 included). */
function expectAgrees(input: string, verdict: { documents?: string[]; refused?: string }) {
  const got = load(input);
  if (verdict.refused !== undefined) {
    expect({ input, refusedBy: 'kubectl', loader: 'error' in got ? 'refuses' : got.documents }).toEqual({ input, refusedBy: 'kubectl', loader: 'refuses' });
    const e = (got as { error: InputError }).error;
    expect(e.reason).toBe('syntax');
    expect(e.message).toMatch(/^in\.yaml:\d+:\d+: \S/);
    return;
  }
  expect({ input, loader: 'error' in got ? got.error.message : 'reads' }).toEqual({ input, loader: 'reads' });
  const want = verdict.documents!.map((d) => JSON.parse(d));
  // toStrictEqual tells -0 from 0, as JSON.parse does
  expect({ input, documents: (got as { documents: unknown[] }).documents }).toStrictEqual({ input, documents: want });
}

function runReader(texts: readonly string[]): Verdict[] {
  return JSON.parse(runOracle(buildOracle('k8s-yaml'), [], JSON.stringify(texts)));
}

function asRow(v: Verdict): Pick<Row, 'documents' | 'refused'> {
  return v.error !== undefined ? { refused: v.error } : { documents: v.documents };
}

describe('the loader reads each input of the table as kubectl does', () => {
  test('the table has at least 40 inputs, each with a verdict, and no name twice', () => {
    expect(TABLE.length).toBeGreaterThanOrEqual(40);
    expect(new Set(TABLE.map((r) => r.name)).size).toBe(TABLE.length);
    if (!UPDATE)
      for (const r of TABLE) expect({ name: r.name, verdict: r.documents !== undefined || r.refused !== undefined }).toEqual({ name: r.name, verdict: true });
  });

  test.each(TABLE.map((r) => [r.name, r] as const))('%s', (_name, row) => {
    if (row.documents === undefined && row.refused === undefined) return; // being filled in
    expectAgrees(row.input, row);
  });
});

describeWithGo('kubectl reading YAML: the oracle of sigs.k8s.io/yaml v1.6.0', () => {
  test('the table holds what kubectl reads today (a stale expectation fails)', () => {
    const verdicts = runReader(TABLE.map((r) => r.input));
    const now = TABLE.map((r, i) => ({ name: r.name, input: r.input, ...asRow(verdicts[i]) }));
    if (UPDATE) fs.writeFileSync(TABLE_FILE, `${JSON.stringify(now, null, 2)}\n`);
    expect(TABLE).toEqual(now);
    for (const r of now) expectAgrees(r.input, r);
  });

  test('a few hundred generated YAML 1.1 scalars, keys and mappings agree with it, in one run', () => {
    const scalar = fc.oneof(
      fc.constantFrom(
        'y',
        'n',
        'yes',
        'No',
        'ON',
        'off',
        'true',
        'False',
        '~',
        'null',
        'Null',
        '',
        '<<',
        '.inf',
        '-.Inf',
        '.nan',
        '.5',
        '1.',
        '1e3',
        '-0.0',
        '0',
        '-0',
      ),
      fc.stringMatching(/^[+-]?(0[xob]?)?[0-9a-fA-F_]{1,6}(\.[0-9]{0,3})?([eE][+-]?[0-9]{1,3})?$/),
      fc.stringMatching(/^[0-9]{1,20}$/),
      // (a lone `-` in a flow sequence is a syntax both parsers read differently: left out)
      fc.stringMatching(/^[a-zA-Z.~+-][a-zA-Z0-9 ._-]{0,6}$/).filter((s) => s !== '-' && !s.startsWith('- ')),
      fc.constantFrom('2001-12-14', '2001-12-14 21:59:43.10', '12:30:00', '0x1F', '0o17', '0777', '1_000', '9223372036854775808', '18446744073709551616'),
    );
    const quoted = (s: string) => fc.constantFrom(s, `"${s}"`, `'${s}'`, `!!str ${s}`);
    const value = scalar.chain((s) => (s === '' ? fc.constant(s) : fc.oneof(fc.constant(s), quoted(s))));
    const key = fc.oneof(
      fc.stringMatching(/^[a-z]{1,3}$/),
      scalar.filter((s) => s !== '' && !s.includes(': ') && s.trim() === s),
    );
    const mapping = fc.array(fc.tuple(key, value), { minLength: 1, maxLength: 5 });
    const doc = fc.oneof(
      mapping.map((pairs) => pairs.map(([k, v]) => `${k}: ${v}`.trimEnd()).join('\n') + '\n'),
      mapping.map((pairs) => `base: &b {${pairs.map(([k, v]) => `${k}: ${v}`).join(', ')}}\nm:\n  ${pairs[0][0]}: 1\n  <<: *b\n`),
      fc.array(value, { minLength: 1, maxLength: 6 }).map((vs) => `list: [${vs.join(', ')}]\n`),
    );
    const inputs = fc.sample(doc, { numRuns: 300, seed: 29 });
    const verdicts = runReader(inputs);
    let compared = 0;
    inputs.forEach((input, i) => {
      // two keys that become one JSON key with different values: kubectl keeps one at random
      const got = load(input);
      if ('error' in got && got.error.message.includes('kubectl keeps either one at random')) return;
      expectAgrees(input, asRow(verdicts[i]));
      compared++;
    });
    expect(compared).toBeGreaterThan(250);
  });
});

describe('what the loader says where kubectl refuses', () => {
  const error = (text: string) => {
    const got = load(text);
    if (!('error' in got)) throw new Error(`read: ${JSON.stringify(got.documents)}`);
    return got.error.message;
  };

  test.each<[string, string, string]>([
    [
      'content after ---',
      'a: 1\n--- {b: 1}\n',
      'in.yaml:2:1: kubectl reads a line that starts with --- as a document separator, and refuses "{b: 1}" after it',
    ],
    ['a merge of a scalar', 'a:\n  <<: 1\n', 'in.yaml:2:7: map merge requires map or sequence of maps as the value'],
    ['an anchor of another document', 'a: &s {x: 1}\n---\nb:\n  <<: *s\n', "in.yaml:4:7: unknown anchor 's' referenced"],
    ['a null key', 'data:\n  ~: a\n', 'in.yaml:2:3: a null key (empty, ~ or null): sigs.k8s.io/yaml refuses it'],
    ['a uint64 key', 'data:\n  18446744073709551615: a\n', 'in.yaml:2:3: the key 18446744073709551615 is beyond int64'],
    ['an infinite value', 'a: [1, .inf]\n', 'in.yaml:1:8: json: unsupported value: +Inf'],
    ['a mapping that contains itself', 'a: &x\n  b: *x\n', "in.yaml:2:6: anchor 'x' value contains itself"],
    ['a directive', '%YAML 1.1\n---\na: 1\n', 'in.yaml:1:1: a directive (%YAML, %TAG) before a document'],
    [
      'two keys that become one JSON key',
      'data:\n  1: a\n  "1": b\n',
      'in.yaml:3:3: the keys 1 (int) and "1" of one mapping both become the JSON key "1", and kubectl keeps either one at random',
    ],
    [
      'a float key and .inf',
      '? .inf\n: a\n1e300: b\n',
      'in.yaml:3:1: the keys Infinity (float64) and 1e+300 (float64) of one mapping both become the JSON key ".inf"',
    ],
    ['a third JSON value that does not parse', '{"a": 1}\n{"b": 2}\n{c: 3}\n', 'in.yaml:3:2: the stream is read as JSON, and this value does not parse'],
  ])('%s', (_name, text, message) => {
    expect(error(text).startsWith(message)).toBe(true);
  });

  test('an alias bomb is refused as go-yaml refuses it, at the alias that tips the ratio', () => {
    const bomb = fs.readFileSync(path.join(__dirname, '..', 'fixtures', 'robustness', 'billion-laughs.yaml'), 'utf8');
    expect(error(bomb)).toMatch(/^in\.yaml:\d+:\d+: document contains excessive aliasing/);
  });

  test('an alias bomb that is not expanded is still counted: one alias of a large anchor passes', () => {
    const big = `a: &a [${Array(5000).fill('x').join(', ')}]\nb: *a\nc: *a\n`;
    expect(load(big)).toEqual({ documents: [expect.objectContaining({ b: expect.any(Array) })] });
  });
});

describe('where the loader puts each document', () => {
  test('documents cut at --- lines keep their file line and column; empty and null ones are left out', () => {
    const docs = parseManifestText('---\n# x\n---\nkind: A\n---\n~\n---\n  kind: B\n', 'f.yaml');
    expect(docs.map((d) => [d.value, d.document, d.line, d.column])).toEqual([
      [{ kind: 'A' }, 2, 4, 1],
      [{ kind: 'B' }, 4, 8, 3],
    ]);
  });

  test('JSON values and the YAML after them', () => {
    const docs = parseManifestText('{"kind": "A"}\n---\nkind: B\n', 'f.json');
    expect(docs.map((d) => [d.value, d.line, d.column])).toEqual([
      [{ kind: 'A' }, 1, 1],
      [{ kind: 'B' }, 3, 1],
    ]);
  });

  test('CRLF line ends do not move a syntax error', () => {
    expect(error('a: 1\r\nb: [\r\n')).toMatch(/^in\.yaml:3:1: /);
  });
});

function error(text: string): string {
  const got = load(text);
  if (!('error' in got)) throw new Error(`read: ${JSON.stringify(got.documents)}`);
  return got.error.message;
}
