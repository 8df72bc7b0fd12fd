import { declaredKeys, DeclaredKeys, refuseUnknownKeys } from '../../src/common/keys';
import { nearestName } from '../../src/manifests/nearest-name';
import { expectValidationError } from '../util';

interface AddPluginOptions {
  readonly enabled?: boolean;
  readonly isWALArchiver?: boolean;
  readonly parameters?: Record<string, string>;
}

const KEYS = declaredKeys<AddPluginOptions>({ enabled: true, isWALArchiver: true, parameters: true });

describe('declaredKeys', () => {
  test('lists the keys sorted and frozen', () => {
    expect(KEYS).toEqual(['enabled', 'isWALArchiver', 'parameters']);
    expect(Object.isFrozen(KEYS)).toBe(true);
  });

  test('the compiler refuses a list with a key missing or a key too many (checked by tsc --noEmit)', () => {
    // @ts-expect-error parameters is missing
    const missing: DeclaredKeys<AddPluginOptions> = { enabled: true, isWALArchiver: true };
    // @ts-expect-error replicas is not a key of AddPluginOptions
    declaredKeys<AddPluginOptions>({ enabled: true, isWALArchiver: true, parameters: true, replicas: true });
    expect(missing).toBeDefined();
  });
});

describe('refuseUnknownKeys', () => {
  test('accepts declared keys only, and an empty object', () => {
    expect(() => refuseUnknownKeys('pg', 'options', { enabled: true, parameters: {} }, KEYS)).not.toThrow();
    expect(() => refuseUnknownKeys('pg', 'options', {}, KEYS)).not.toThrow();
  });

  test('names the declared key in another case first', () => {
    expectValidationError(
      () => refuseUnknownKeys('pg/Cluster', 'options', { isWalArchiver: true }, KEYS),
      "pg/Cluster: options.isWalArchiver true is not a declared key of options; did you mean 'isWALArchiver'?",
    );
  });

  test('names a declared key a small edit away', () => {
    expectValidationError(
      () => refuseUnknownKeys('pg', 'options', { enbled: false }, KEYS),
      "pg: options.enbled false is not a declared key of options; did you mean 'enabled'?",
    );
  });

  test('lists the declared keys when nothing is close, and reports the first unknown key in sorted order', () => {
    expectValidationError(
      () => refuseUnknownKeys('system/barman', 'props', { zeta: 1, replicas: 2, enabled: true }, KEYS),
      'system/barman: props.replicas 2 is not a declared key of props (and 1 more unknown key); remove it; props takes enabled, isWALArchiver, parameters',
    );
  });

  test('refuses a key even when its value is undefined', () => {
    expectValidationError(
      () => refuseUnknownKeys('pg', 'options', { paramters: undefined }, KEYS),
      "pg: options.paramters is not a declared key of options; did you mean 'parameters'?",
    );
  });

  test('refuses values that are not objects, naming the declared keys', () => {
    for (const [value, type] of [
      [null, 'null'],
      ['x', 'a string'],
      [[], 'an array'],
      [() => 1, 'a function'],
    ] as const) {
      expect(() => refuseUnknownKeys('pg', 'options', value, KEYS)).toThrow(
        `must be an object, not ${type}; pass an object with any of enabled, isWALArchiver, parameters`,
      );
    }
    expectValidationError(
      () => refuseUnknownKeys('pg', 'options', undefined, KEYS),
      'pg: options is missing: it must be an object; pass an object with any of enabled, isWALArchiver, parameters',
    );
  });

  test('a required object that is missing names its required keys', () => {
    expectValidationError(
      () => refuseUnknownKeys('pg', 'props', undefined, KEYS, { required: ['parameters'] }),
      'pg: props is missing: it must be an object; pass { parameters: ... } (this key is required)',
    );
    expectValidationError(
      () => refuseUnknownKeys('pg', 'props', 7, KEYS, { required: ['enabled', 'parameters'] }),
      'pg: props 7 must be an object, not a number; pass { enabled: ..., parameters: ... } (these keys are required)',
    );
  });

  test('an optional object that is not one may also be left out', () => {
    expectValidationError(
      () => refuseUnknownKeys('pg', 'options', 'x', KEYS, { optional: true }),
      "pg: options 'x' must be an object, not a string; pass an object with any of enabled, isWALArchiver, parameters, or leave it out",
    );
  });

  test('accepts undefined when the argument is optional', () => {
    expect(() => refuseUnknownKeys('pg', 'options', undefined, KEYS, { optional: true })).not.toThrow();
    expect(() => refuseUnknownKeys('pg', 'options', null, KEYS, { optional: true })).toThrow('must be an object, not null');
  });

  test('reads the own keys of a class instance', () => {
    class Options {
      public enabled = true;
      public replicas = 3;
    }
    expect(() => refuseUnknownKeys('pg', 'options', new Options(), KEYS)).toThrow('options.replicas 3 is not a declared key of options');
  });

  test('an interface with no keys says so', () => {
    expectValidationError(
      () => refuseUnknownKeys('pg', 'options', { a: 1 }, []),
      'pg: options.a 1 is not a declared key of options; remove it; options takes no keys',
    );
  });
});

describe('nearestName suggests only a likely misspelling', () => {
  test.each([
    ['isWALArchiver', ['isWalArchiver', 'enabled'], 'isWalArchiver'],
    ['imgae', ['image', 'imagePullPolicy'], 'image'],
    ['replcas', ['replicas', 'resources'], 'replicas'],
    ['serverName', ['secretName', 'sourceName'], undefined],
    ['owner', ['other'], undefined],
  ])('%s among %j -> %s', (name, declared, near) => {
    expect(nearestName(name, declared)).toBe(near);
  });
});
