import { Duration } from 'cdk8s';
import { requireDuration } from '../../src/common/render';
import {
  INT32_MAX,
  isEnumValue,
  pickDefined,
  pluginNameProblem,
  requireString,
  validateEnum,
  validateImage,
  validateLabelKey,
  validateLabels,
  validateOptionalBoolean,
  validateOptionalEnum,
  validatePluginName,
  validateStringArray,
  validateStringMap,
} from '../../src/common/validate';
import { isAnnotationKey } from '../../src/manifests/k8s-names';
import { expectValidationError } from '../util';

enum Level {
  INFO = 'info',
  DEBUG = 'debug',
}

describe('the one check of each kind in src/common', () => {
  test('INT32_MAX is the int32 bound', () => {
    expect(INT32_MAX).toBe(2 ** 31 - 1);
  });

  test('validateOptionalBoolean: true, false, undefined; nothing else', () => {
    expect(validateOptionalBoolean('p', 'enabled', true)).toBe(true);
    expect(validateOptionalBoolean('p', 'enabled', undefined)).toBeUndefined();
    expectValidationError(() => validateOptionalBoolean('p', 'enabled', 'false'), "p: enabled 'false' must be a boolean, not a string; pass true or false");
  });

  test('validateEnum / validateOptionalEnum / isEnumValue', () => {
    expect(isEnumValue(Level, 'info')).toBe(true);
    expect(isEnumValue(Level, 'INFO')).toBe(false);
    expect(isEnumValue(Level, ['info'])).toBe(false);
    expect(validateEnum('p', 'logLevel', 'debug', Level, 'Level')).toBe('debug');
    expect(validateOptionalEnum('p', 'logLevel', undefined, Level, 'Level')).toBeUndefined();
    expectValidationError(
      () => validateEnum('p', 'logLevel', 'trace', Level, 'Level'),
      "p: logLevel 'trace' is not a Level; use one of Level.INFO, Level.DEBUG",
    );
    expectValidationError(() => validateOptionalEnum('p', 'logLevel', 1, Level, 'Level'), 'p: logLevel 1 is not a Level; use one of Level.INFO, Level.DEBUG');
  });

  test('validateLabelKey: label keys exactly, annotation keys lower-cased as the API server reads them', () => {
    expect(validateLabelKey('p', 'labels', 'example.com/team')).toBe('example.com/team');
    expectValidationError(
      () => validateLabelKey('p', 'labels', 'Example.com/team'),
      "p: labels 'Example.com/team' is not a valid label key; use an optional DNS prefix and '/', then at most 63 letters, digits, -, _ and ., e.g. 'example.com/team'",
    );
    expect(isAnnotationKey('Example.com/Owner')).toBe(true);
    expect(validateLabelKey('p', 'annotations', 'Example.com/Owner', 'annotation')).toBe('Example.com/Owner');
    expectValidationError(
      () => validateLabelKey('p', 'annotations', 'a b', 'annotation'),
      "p: annotations 'a b' is not a valid annotation key; use an optional DNS prefix and '/', then at most 63 letters, digits, -, _ and ., e.g. 'example.com/owner'",
    );
  });

  test('validateLabels uses that one key check', () => {
    expect(() => validateLabels('p', 'labels', { 'a/b/c': 'x' })).toThrow("p: labels 'a/b/c' is not a valid label key");
  });

  test('validateImage: a non-empty string without white space', () => {
    expect(validateImage('p', 'image', 'ghcr.io/a/b:v1', 'ghcr.io/org/plugin:v1.0.0')).toBe('ghcr.io/a/b:v1');
    expectValidationError(
      () => validateImage('p', 'image', 'ghcr.io/a/b:v1 --x', 'ghcr.io/org/plugin:v1.0.0'),
      "p: image 'ghcr.io/a/b:v1 --x' contains white space; use an image reference such as ghcr.io/org/plugin:v1.0.0",
    );
    expectValidationError(
      () => validateImage('p', 'image', 42, 'ghcr.io/org/plugin:v1.0.0'),
      'p: image 42 must be a string, not a number; use an image reference such as ghcr.io/org/plugin:v1.0.0',
    );
  });

  test('pickDefined copies the listed keys that are set', () => {
    const props: { a?: number; b?: string; c?: boolean } = { a: 1, b: undefined, c: false };
    expect(pickDefined(props, ['a', 'b'])).toEqual({ a: 1 });
    expect(Object.keys(pickDefined(props, ['a', 'b', 'c']))).toEqual(['a', 'c']);
  });

  test('requireDuration reads Durations by their jsii type: a second copy works, a look-alike does not', () => {
    let Other: typeof Duration | undefined;
    jest.isolateModules(() => {
      Other = require('cdk8s').Duration;
    });
    expect(requireDuration('p', 'tls.duration', Other!.hours(1)).toMilliseconds()).toBe(3_600_000);
    expectValidationError(
      () => requireDuration('p', 'tls.duration', { toMilliseconds: () => 5 }, 'Duration.hours(1)'),
      'p: tls.duration {} must be a cdk8s Duration, not an object; use Duration.hours(1)',
    );
    expectValidationError(
      () => requireDuration('p', 'tls.duration', Duration.millis(1.5)),
      "p: tls.duration '1.5ms' is not a positive whole number of milliseconds; use Duration.hours(1)",
    );
  });
});

/** The checks that judge a value in several ways compute the first problem and throw it once. */
describe('each check throws its first problem, once', () => {
  test('requireString: not a string, then empty', () => {
    expect(requireString('p', 'name', 'a', 'pass a name')).toBe('a');
    expectValidationError(() => requireString('p', 'name', 1, 'pass a name'), 'p: name 1 must be a string, not a number; pass a name');
    expectValidationError(() => requireString('p', 'name', undefined, 'pass a name'), 'p: name is missing: it must be a string; pass a name');
    expectValidationError(() => requireString('p', 'name', '  ', 'pass a name'), "p: name '  ' must not be empty; pass a name");
  });

  test('validatePluginName: the string checks, then the DNS subdomain of at most 63, suggesting a valid lower-cased name only', () => {
    const fix = "use a lower-case DNS subdomain of at most 63 characters, such as 'backup.example.com'";
    expect(validatePluginName('p', 'pluginName', 'backup.example.com')).toBe('backup.example.com');
    expectValidationError(() => validatePluginName('p', 'pluginName', ''), `p: pluginName '' must not be empty; ${fix}`);
    expectValidationError(() => validatePluginName('p', 'pluginName', ['a']), `p: pluginName ["a"] must be a string, not an array; ${fix}`);
    expectValidationError(
      () => validatePluginName('p', 'pluginName', 'Backup.Example.com'),
      "p: pluginName 'Backup.Example.com' is not a lower-case DNS subdomain (RFC 1123); use 'backup.example.com'",
    );
    expectValidationError(
      () => validatePluginName('p', 'pluginName', 'Bad_Name'),
      `p: pluginName 'Bad_Name' is not a lower-case DNS subdomain (RFC 1123); ${fix}`,
    );
    const long = `${'a'.repeat(60)}.com`;
    expectValidationError(
      () => validatePluginName('p', 'pluginName', long),
      `p: pluginName '${long}' is 64 characters long; a Kubernetes label value holds at most 63; ${fix}`,
    );
    expect(pluginNameProblem('pluginName', 'ok.example.com')).toBeUndefined();
  });

  test('validateStringMap: the map, then its first value that is no string, with a fix for the type given', () => {
    expect(validateStringMap('p', 'parameters', { a: 'b' })).toEqual({ a: 'b' });
    expectValidationError(
      () => validateStringMap('p', 'parameters', 'a=b'),
      "p: parameters 'a=b' must be an object of strings, not a string; pass { key: 'value' }",
    );
    expectValidationError(
      () => validateStringMap('p', 'parameters', { a: 'b', n: 3, m: {} }),
      "p: parameters.n 3 must be a string, not a number; write it as a string, e.g. '3'",
    );
    expectValidationError(() => validateStringMap('p', 'parameters', { m: {} }), 'p: parameters.m {} must be a string, not an object; write it as a string');
    expectValidationError(
      () => validateStringMap('p', 'parameters', { u: undefined }),
      'p: parameters.u is missing: it must be a string; give it a string, or remove the key',
    );
  });

  test('validateStringArray: the array, then its first item that is no string (a hole of a sparse array too)', () => {
    expect(validateStringArray('p', 'args', ['a', 'b'])).toEqual(['a', 'b']);
    expectValidationError(() => validateStringArray('p', 'args', 'a b'), "p: args 'a b' must be an array of strings, not a string; pass ['a', 'b']");
    expectValidationError(() => validateStringArray('p', 'args', ['a', 2]), 'p: args[1] 2 must be a string, not a number; write it as a string');
    // eslint-disable-next-line no-sparse-arrays -- the hole is what is tested
    expectValidationError(() => validateStringArray('p', 'args', ['a', , 'c']), 'p: args[1] is missing: it must be a string; write it as a string');
  });

  test('validateLabels: every value a string first, then key and value label by label', () => {
    expect(validateLabels('p', 'labels', { team: 'db', empty: '' })).toEqual({ team: 'db', empty: '' });
    // The value of the second label is no string: that is reported before the first label's bad key.
    expectValidationError(
      () => validateLabels('p', 'labels', { 'a/b/c': 'x', team: 1 }),
      "p: labels.team 1 must be a string, not a number; write it as a string, e.g. '1'",
    );
    expectValidationError(
      () => validateLabels('p', 'labels', { team: 'a b', 'a/b/c': 'x' }),
      "p: labels.team 'a b' is not a valid label value; use at most 63 letters, digits, -, _ and ., starting and ending with a letter or digit, or an empty string",
    );
    expect(() => validateLabels('p', 'labels', { team: 'db', 'a/b/c': 'a b' })).toThrow("p: labels 'a/b/c' is not a valid label key");
  });

  test('validateImage: not a string, empty, white space', () => {
    const fix = 'use an image reference such as ghcr.io/org/plugin:v1.0.0';
    expectValidationError(() => validateImage('p', 'image', '', 'ghcr.io/org/plugin:v1.0.0'), `p: image '' must not be empty; ${fix}`);
    expectValidationError(() => validateImage('p', 'image', undefined, 'ghcr.io/org/plugin:v1.0.0'), `p: image is missing: it must be a string; ${fix}`);
  });
});
