import { decodeGoStruct, goCompact, goJsonString, readGoJson } from '../../../src/checks/admission/go-json';

const fields = [
  { json: 'enabled', type: 'bool' },
  { json: 'requestTimeout', type: 'int' },
  { json: 'name', type: 'string' },
] as const;
const decode = (text: string) => decodeGoStruct(readGoJson(text)!, 'v1.Config', fields);

describe('readGoJson', () => {
  test('reads JSON and keeps the source text of each value', () => {
    expect(readGoJson(' {"a": [1.50, true, null, "x\\u0041"], "b": {}} ')).toEqual({
      kind: 'object',
      raw: '{"a": [1.50, true, null, "x\\u0041"], "b": {}}',
      entries: [
        [
          'a',
          {
            kind: 'array',
            raw: '[1.50, true, null, "x\\u0041"]',
            items: [
              { kind: 'number', raw: '1.50' },
              { kind: 'bool', value: true, raw: 'true' },
              { kind: 'null', raw: 'null' },
              { kind: 'string', value: 'xA', raw: '"x\\u0041"' },
            ],
          },
        ],
        ['b', { kind: 'object', entries: [], raw: '{}' }],
      ],
    });
    expect(readGoJson('[[]]')).toEqual({ kind: 'array', raw: '[[]]', items: [{ kind: 'array', raw: '[]', items: [] }] });
  });

  test('refuses what Go refuses', () => {
    for (const text of [
      '',
      ' ',
      '{',
      '[1,]',
      '{"a":1,}',
      '01',
      '1.',
      '.5',
      '+1',
      "'a'",
      '"a\tb"',
      '"\\x"',
      'nul',
      '{"a" 1}',
      '[1] 2',
      'invalid-json-patch',
      '\ufeff{}',
    ]) {
      expect([text, readGoJson(text)]).toEqual([text, undefined]);
    }
  });

  test("deep nesting neither throws nor passes Go's limit of 10000", () => {
    expect(readGoJson('['.repeat(10000) + ']'.repeat(10000))).toBeDefined();
    expect(readGoJson('['.repeat(10001) + ']'.repeat(10001))).toBeUndefined();
    expect(readGoJson('['.repeat(200000))).toBeUndefined();
  });
});

describe('decodeGoStruct', () => {
  test('matches fields exactly, else by case; the last key wins; null and unknown keys are skipped', () => {
    expect(decode('{"enabled": true, "REQUESTTIMEOUT": 5, "other": [1], "name": null}')).toEqual({ values: { enabled: true, requestTimeout: 5n } });
    expect(decode('{"Enabled": false, "enabled": true}')).toEqual({ values: { enabled: true } });
    expect(decode('null')).toEqual({ values: {} });
  });

  test('a value of the wrong type is the first error, with the Go texts', () => {
    expect(decode('[]').error).toBe('json: cannot unmarshal array into Go value of type v1.Config');
    expect(decode('"x"').error).toBe('json: cannot unmarshal string into Go value of type v1.Config');
    expect(decode('{"enabled": "yes", "name": 1}').error).toBe('json: cannot unmarshal string into Go struct field Config.enabled of type bool');
    expect(decode('{"requestTimeout": 1.0}').error).toBe('json: cannot unmarshal number 1.0 into Go struct field Config.requestTimeout of type int');
    expect(decode('{"requestTimeout": 1e3}').error).toBe('json: cannot unmarshal number 1e3 into Go struct field Config.requestTimeout of type int');
    expect(decode('{"requestTimeout": 9223372036854775808}').error).toBe(
      'json: cannot unmarshal number 9223372036854775808 into Go struct field Config.requestTimeout of type int',
    );
    expect(decode('{"name": {}}').error).toBe('json: cannot unmarshal object into Go struct field Config.name of type string');
    expect(decode('{"requestTimeout": -9223372036854775808}')).toEqual({ values: { requestTimeout: -9223372036854775808n } });
  });
});

describe('Go encodings', () => {
  test('strings are HTML-safe', () => {
    expect(goJsonString('a<b>&"\\\n\u0001\u2028')).toBe('"a\\u003cb\\u003e\\u0026\\"\\\\\\n\\u0001\\u2028"');
  });

  test('raw values are compacted, escapes kept as written', () => {
    expect(goCompact('{ "a" : [ 1.0 , "x y<\\u0041\\"" ] }')).toBe('{"a":[1.0,"x y\\u003c\\u0041\\""]}');
  });
});
