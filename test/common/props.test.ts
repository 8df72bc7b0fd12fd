import { Kind } from '../../src/common/prop-kinds';
import { PropSpec, checkProps, factoryProblem, refuseFirst, refuseUnknownKeys, specKeys } from '../../src/common/props';
import { nearestName } from '../../src/manifests/nearest-name';
import { expectValidationError } from '../util';

interface AddPluginOptions {
  readonly enabled?: boolean;
  readonly isWALArchiver?: boolean;
  readonly parameters?: Record<string, string>;
}

const SPEC: PropSpec<AddPluginOptions> = { parameters: Kind.stringMap, enabled: Kind.boolean, isWALArchiver: Kind.boolean };
const KEYS = specKeys(SPEC);

describe('PropSpec and specKeys', () => {
  test('lists the keys sorted and frozen, once per spec', () => {
    expect(KEYS).toEqual(['enabled', 'isWALArchiver', 'parameters']);
    expect(Object.isFrozen(KEYS)).toBe(true);
    expect(specKeys(SPEC)).toBe(KEYS);
  });

  test('the compiler refuses a spec with a key missing or a key too many (checked by tsc --noEmit)', () => {
    // @ts-expect-error parameters is missing
    const missing: PropSpec<AddPluginOptions> = { enabled: Kind.boolean, isWALArchiver: Kind.boolean };
    // @ts-expect-error replicas is not a key of AddPluginOptions
    const extra: PropSpec<AddPluginOptions> = { enabled: Kind.boolean, isWALArchiver: Kind.boolean, parameters: Kind.stringMap, replicas: Kind.any };
    expect([missing, extra]).toBeDefined();
  });
});

interface Storage {
  readonly size: number;
  readonly storageClass?: string;
}

interface Props {
  readonly name: string;
  readonly image: string;
  readonly storage: Storage;
  readonly labels?: Record<string, string>;
}

const STORAGE: PropSpec<Storage> = { size: Kind.evenMissing(Kind.integer(1)), storageClass: Kind.string('name a StorageClass') };

describe('checkProps', () => {
  const spec: PropSpec<Props> = {
    name: Kind.string("use a name such as 'pg'"),
    image: Kind.string('use an image'),
    storage: Kind.props(STORAGE, { required: ['size'] }),
    labels: Kind.labels,
  };

  test('judges the values in the order of the spec, naming the keys of props and options alone', () => {
    expectValidationError(
      () => checkProps('c', 'props', { name: 1, image: 2, storage: { size: 1 } }, spec, { required: ['name', 'image', 'storage'] }),
      "c: name 1 must be a string, not a number; use a name such as 'pg'",
    );
    expectValidationError(
      () => checkProps('c', 'props', { name: 'a', image: 'b', storage: { size: 0 } }, spec),
      'c: storage.size 0 is out of range; use a whole number from 1 to 2147483647',
    );
    expectValidationError(() => checkProps('c', 'bootstrap', { image: 2 }, spec), 'c: bootstrap.image 2 must be a string, not a number; use an image');
    expectValidationError(
      () => checkProps('c', 'reference', { image: 2 }, spec, { keysAlone: true }),
      'c: image 2 must be a string, not a number; use an image',
    );
  });

  test('refuses missing required keys together, before any value', () => {
    expectValidationError(
      () => checkProps('c', 'props', { labels: 3 }, spec, { required: ['name', 'image'] }),
      "c: props [\"labels\"] lacks the required keys 'name', 'image'; set name and image",
    );
    expectValidationError(
      () => checkProps('c', 'props', {}, spec, { required: ['name'], example: "{ name: 'pg' }" }),
      "c: props [] lacks the required key 'name'; pass e.g. { name: 'pg' }",
    );
  });

  test('a kind made with evenMissing judges a missing value itself, required or not', () => {
    const judged: PropSpec<Props> = { ...spec, storage: Kind.evenMissing(Kind.props(STORAGE, { required: ['size'] })) };
    expectValidationError(
      () => checkProps('c', 'props', { name: 'a', image: 'b' }, judged, { required: ['storage'] }),
      'c: storage is missing: it must be an object; pass { size: ... } (this key is required)',
    );
    expectValidationError(
      () => checkProps('c', 'props', { name: 'a', image: 'b', storage: {} }, judged),
      'c: storage.size is missing: it must be a whole number; use a whole number from 1 to 2147483647',
    );
    expectValidationError(
      () => checkProps('c', 'props', 7, judged, { required: ['storage'] }),
      'c: props 7 must be an object, not a number; pass { storage: ... } (this key is required)',
    );
  });

  test('an optional object may be left out, and its fix says so', () => {
    expect(checkProps('c', 'options', undefined, STORAGE, { optional: true })).toBeUndefined();
    expectValidationError(
      () => checkProps('c', 'options', 'x', STORAGE, { optional: true }),
      "c: options 'x' must be an object, not a string; pass an object with any of size, storageClass, or leave it out",
    );
  });

  test('names the new key of a renamed one, and an example for a non-object', () => {
    expectValidationError(
      () => checkProps('c', 'props', { env: {} }, spec, { renamed: { env: 'envVariables' } }),
      "c: props.env {} is not a key of props: it was renamed; use 'envVariables' (the cdk8s-plus name)",
    );
    expectValidationError(
      () => checkProps('c', 'props', null, spec, { example: "{ name: 'pg' }" }),
      "c: props null must be an object, not null; pass e.g. { name: 'pg' }",
    );
  });

  test('returns the value it checked', () => {
    const value = { name: 'a', image: 'b', storage: { size: 1 } };
    expect(checkProps('c', 'props', value, spec)).toBe(value);
  });
});

describe('union-like classes name their factories', () => {
  class Schedule {
    public static readonly _factories = "Schedule.daily(2) or Schedule.expression('@daily')";
    public static daily(): Schedule {
      return new Schedule();
    }
    private constructor() {}
  }
  class Image {
    public static readonly _factories = 'Image.fromName(name)';
  }

  test('accepts a value a factory made, and refuses anything else with the factories of the class', () => {
    expect(factoryProblem(Schedule, 'schedule', Schedule.daily())).toBeUndefined();
    expectValidationError(
      () => checkProps('c', 'props', { schedule: '0 2 * * *' }, { schedule: Kind.factory(Schedule) }),
      "c: schedule '0 2 * * *' must be a Schedule, not a string; use Schedule.daily(2) or Schedule.expression('@daily')",
    );
    expect(factoryProblem(Image, 'image', {})?.problem).toBe('must be an Image, not an object');
  });
});

describe('refuseFirst', () => {
  test('throws for the first rule that failed, in the order of the list', () => {
    expect(() => refuseFirst('c', [false, [false, 'a', 1, 'is bad', 'fix a']])).not.toThrow();
    expectValidationError(
      () =>
        refuseFirst('c', [
          [false, 'a', 1, 'is bad', 'fix a'],
          [true, 'b', 2, 'is worse', 'fix b'],
          [true, 'c', 3, 'is worst', 'fix c'],
        ]),
      'c: b 2 is worse; fix b',
    );
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
