import { Duration } from 'cdk8s';
import { requireDuration } from '../../src/common/render';
import {
  imageTagProblem,
  INT32_MAX,
  isAnnotationKey,
  isEnumValue,
  pickDefined,
  validateEnum,
  validateImage,
  validateLabelKey,
  validateLabels,
  validateOptionalBoolean,
  validateOptionalEnum,
} from '../../src/common/validate';
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

  test.each([
    ['ghcr.io/cloudnative-pg/plugin-barman-cloud:v0.14.0', undefined],
    ['registry.example.com:5000/team/plugin:1.2', undefined],
    [`ghcr.io/a/b@sha256:${'a'.repeat(64)}`, undefined],
    [`ghcr.io/a/b:v1@sha256:${'a'.repeat(64)}`, undefined],
    ['ghcr.io/a/b', 'has no tag, so the runtime pulls :latest'],
    ['registry.example.com:5000/team/plugin', 'has no tag, so the runtime pulls :latest'],
    ['ghcr.io/a/b:latest', 'uses the latest tag, which moves under a running Deployment'],
  ])('imageTagProblem(%s)', (image, problem) => {
    expect(imageTagProblem(image)).toBe(problem);
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
