import { ApiObject, Chart, Testing } from 'cdk8s';
import { Construct } from 'constructs';
import fc from 'fast-check';
import { refuseUnknownKeys } from '../../src/common/props';
import { invalid } from '../../src/manifests/errors';
import { addChecks, addSchemaGuard } from '../../src/schema/guard';
import { declaredKeys } from '../util';
import { announce } from './fc-config';
import {
  expectLibraryRefusal,
  expectReadableMessage,
  expectUnknownKeyError,
  getIn,
  keyProperty,
  nearMisses,
  Scenario,
  unknownKey,
  validationLines,
  withUnknownKey,
} from './harness';
import { Call } from './mutation';

/*
 * The hardening harness's own tests: the key property catches a construct that drops unknown
 * keys, and errors reported at synth (addChecks, addSchemaGuard) count as the library's own.
 */

announce('key-property');

interface ToyOptions {
  readonly maxParallel?: number;
  readonly isWALArchiver?: boolean;
}
interface ToyProps {
  readonly replicas?: number;
  readonly options?: ToyOptions;
  readonly image?: string;
}
const PROPS = declaredKeys<ToyProps>({ replicas: true, options: true, image: true });
const OPTIONS = declaredKeys<ToyOptions>({ maxParallel: true, isWALArchiver: true });

/** A construct that refuses unknown keys, or (strict: false) drops them as the library used to. */
class Toy extends Construct {
  constructor(scope: Construct, id: string, props: ToyProps, strict = true) {
    super(scope, id);
    if (strict) {
      refuseUnknownKeys(this, 'props', props, PROPS);
      refuseUnknownKeys(this, 'options', props.options, OPTIONS, { optional: true });
    }
    new ApiObject(this, 'Resource', { apiVersion: 'v1', kind: 'ConfigMap', data: { replicas: String(props.replicas ?? 1) } });
  }
}

const arbitrary = fc.record(
  {
    replicas: fc.integer({ min: 1, max: 5 }),
    options: fc.record({ maxParallel: fc.integer({ min: 1, max: 8 }), isWALArchiver: fc.boolean() }, { requiredKeys: [] }),
    image: fc.constant('ghcr.io/a/b:v1'),
  },
  { requiredKeys: ['replicas', 'options'] },
);

const scenario = (strict: boolean): Scenario<unknown> => ({
  arbitrary,
  build: (props) => {
    const chart = Testing.chart();
    new Toy(chart, 'toy', props, strict);
    return { objects: Testing.synth(chart) };
  },
  verify: () => undefined,
  roots: ['test/toy'],
});

describe('nearMisses / unknownKey', () => {
  test('misspellings people make, none of them a declared key', () => {
    const misses = nearMisses('isWALArchiver', ['isWALArchiver', 'enabled']);
    expect(misses).toEqual(expect.arrayContaining(['iswalarchiver', 'IsWALArchiver', 'isWALArchivers', 'isWLArchiver', 'isWAALArchiver', 'isAWLArchiver']));
    expect(misses).not.toContain('isWALArchiver');
    expect(nearMisses('ab', ['ab', 'ba'])).not.toContain('ba');
  });

  test('unknown keys are never declared ones, nor prototype names', () => {
    fc.assert(
      fc.property(unknownKey(PROPS), (k) => {
        expect(PROPS).not.toContain(k);
        expect(['__proto__', 'constructor', 'prototype']).not.toContain(k);
      }),
    );
  });

  test('withUnknownKey adds exactly one key', () => {
    fc.assert(
      fc.property(withUnknownKey(arbitrary, PROPS), ({ props, key }) => {
        expect(Object.keys(props).filter((k) => !PROPS.includes(k))).toEqual([key]);
      }),
    );
  });
});

/** The message of the error a failed property ends with (fast-check keeps it as the cause). */
function failure(run: () => void): string {
  try {
    run();
  } catch (e) {
    return String(((e as Error).cause as Error | undefined)?.message ?? (e as Error).message);
  }
  throw new Error('expected the property to fail');
}

describe('keyProperty', () => {
  test('holds for a construct that refuses unknown keys, at the props and in a nested options object', () => {
    keyProperty(scenario(true), [], PROPS);
    keyProperty(scenario(true), ['options'], OPTIONS);
  });

  test('fails for a construct that drops them', () => {
    expect(failure(() => keyProperty(scenario(false), [], PROPS))).toMatch(/^unknown key '.*' at <props> was accepted \(1 objects written\)$/);
    expect(failure(() => keyProperty(scenario(false), ['options'], OPTIONS))).toMatch(/^unknown key '.*' at options was accepted/);
  });

  test('fails when the error does not name the key', () => {
    const wrong: Scenario<unknown> = {
      ...scenario(true),
      build: (props) => {
        const chart = Testing.chart();
        const toy = new Construct(chart, 'toy');
        if (Object.keys(props).some((k) => !PROPS.includes(k))) invalid(toy, 'props', props, 'is wrong', 'fix it');
        return { objects: [] };
      },
    };
    expect(failure(() => keyProperty(wrong, [], PROPS))).toMatch(/^unknown key '.*' was not refused by name: CnpgIValidationError: test\/toy: props/);
  });

  test('getIn follows factory-call arguments', () => {
    const recipe = { tls: new Call('PluginTls.privateCa', (o: unknown) => o, [{ duration: 1 }]) };
    expect(getIn(recipe, ['tls', 'PluginTls.privateCa()', 0])).toEqual({ duration: 1 });
    expect(getIn(recipe, ['nope', 'x'])).toBeUndefined();
  });
});

describe("errors reported at synth are the library's own", () => {
  function synthError(build: (chart: Chart) => void): unknown {
    const chart = Testing.chart();
    build(chart);
    try {
      Testing.synth(chart);
    } catch (e) {
      return e;
    }
    throw new Error('expected an error');
  }

  test('an addChecks line is checked like the CnpgIValidationError it carries', () => {
    const err = synthError((chart) => {
      const c = new Construct(chart, 'pg');
      addChecks(c, () => invalid(c, 'replicas', -1, 'is negative', 'use 1'));
    });
    // cdk8s names the construct in brackets, so the line does not repeat it.
    expect(validationLines(err)).toEqual([{ path: 'test/pg', message: 'replicas -1 is negative; use 1' }]);
    expect(expectLibraryRefusal(err, ['replicas'], ['test/pg'])).toBe('replicas');
    expect(() => expectLibraryRefusal(err, ['image'], ['test/pg'])).toThrow("error names prop 'replicas', which is not part of the mutated position");
    expect(() => expectLibraryRefusal(err, ['replicas'], ['test/other'])).toThrow("validation error under 'test/pg'");
  });

  test('an addChecks line about another construct keeps its path and is checked by it', () => {
    const err = synthError((chart) => {
      const c = new Construct(chart, 'pg');
      const child = new Construct(c, 'backup');
      addChecks(c, () => invalid(child, 'plugin', 'x', 'is not used', 'use another'));
    });
    expect(validationLines(err)).toEqual([{ path: 'test/pg', message: "test/pg/backup: plugin 'x' is not used; use another" }]);
    expect(expectLibraryRefusal(err, ['plugin'], ['test/pg'])).toBe('plugin');
  });

  test('readable messages: a refusal that prints undefined or [object Object] fails', () => {
    expect(() => expectReadableMessage(new Error('p: x undefined must be a string, not undefined; fix'))).toThrow('reads');
    expect(() => expectReadableMessage(new Error('p: x [object Object] is wrong; fix'))).toThrow('reads');
    expect(() => expectReadableMessage(new Error("p: plugins 'a' is already added; fix"))).toThrow('reads');
    expect(() => expectReadableMessage(new Error('p: x is missing: it must be a string; fix'))).not.toThrow();
  });

  test('schema guard lines are accepted under the roots', () => {
    const err = synthError((chart) => {
      const o = new ApiObject(chart, 'web', {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: 'web' },
        spec: { containers: [{ name: 'c', image: 'x:1', resources: { requests: { cpu: '2' }, limits: { cpu: '1' } } }] },
      });
      addSchemaGuard(o, o);
    });
    expect(expectLibraryRefusal(err, ['resources'], ['test/web'])).toBe('schema guard');
  });

  test('an unknown key refused at synth is recognised by expectUnknownKeyError', () => {
    const err = synthError((chart) => {
      const c = new Construct(chart, 'pg');
      addChecks(c, () => refuseUnknownKeys(c, 'options', { isWalArchiver: true }, OPTIONS));
    });
    expect(() => expectUnknownKeyError(err, 'isWalArchiver', ['test/pg'])).not.toThrow();
    expect(() => expectUnknownKeyError(err, 'other', ['test/pg'])).toThrow("unknown key 'other' was not refused by name");
    expect(() => expectUnknownKeyError(new TypeError('x'), 'isWalArchiver', ['test/pg'])).toThrow('was not refused by name');
  });
});
