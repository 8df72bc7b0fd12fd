import { dialsFullyQualified, parseVersion, supportsPluginServerName } from '../../src/checks/cnpg-version';

describe('CNPG versions', () => {
  test('parseVersion', () => {
    expect(parseVersion('1.26.3')).toEqual([1, 26, 3]);
    expect(parseVersion('v1.27')).toEqual([1, 27, 0]);
    expect(parseVersion('1.28.0-rc1')).toEqual([1, 28, 0]);
    expect(parseVersion('latest')).toBeUndefined();
    expect(parseVersion(1.3)).toBeUndefined();
  });
  test.each([
    ['1.25.9', false],
    ['1.26.2', false],
    ['1.26.3', true],
    ['1.27.1', false],
    ['1.27.2', true],
    ['1.28.0', true],
    ['2.0.0', true],
  ])('pluginServerName in %s: %s', (v, expected) => {
    expect(supportsPluginServerName(parseVersion(v)!)).toBe(expected);
  });
  test.each([
    ['1.27.9', false],
    ['1.28.3', false],
    ['1.28.4', true],
    ['1.29.1', false],
    ['1.29.2', true],
    ['1.30.0', true],
  ])('fully qualified dial in %s: %s', (v, expected) => {
    expect(dialsFullyQualified(parseVersion(v)!)).toBe(expected);
  });
});
