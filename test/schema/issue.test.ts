import { formatPath, nearestName } from '../../src/schema';

describe('formatPath', () => {
  test('writes keys with dots and indexes in brackets', () => {
    expect(formatPath(['spec', 'plugins', 0, 'isWALArchiver'])).toBe('spec.plugins[0].isWALArchiver');
    expect(formatPath(['metadata', 'labels', 'cnpg.io/pluginName'])).toBe('metadata.labels["cnpg.io/pluginName"]');
    expect(formatPath([])).toBe('<root>');
  });
});

describe('nearestName', () => {
  const declared = ['enabled', 'isWALArchiver', 'name', 'parameters'];
  test('finds a field spelt in another case', () => {
    expect(nearestName('isWalArchiver', declared)).toBe('isWALArchiver');
  });
  test('finds a field with a typo', () => {
    expect(nearestName('paramters', declared)).toBe('parameters');
    expect(nearestName('enable', declared)).toBe('enabled');
  });
  test('gives nothing when no field is close', () => {
    expect(nearestName('replicas', declared)).toBeUndefined();
    expect(nearestName('x', [])).toBeUndefined();
  });
});
