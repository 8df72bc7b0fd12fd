import { flagValue, portOfAddress, resolveFile } from '../../src/manifests/pod-template';

describe('pod template helpers', () => {
  test('flagValue reads Go flag forms, last one wins', () => {
    expect(flagValue(['--a=1', '-a', '2', '--b'], 'a')).toBe('2');
    expect(flagValue(['--a'], 'a')).toBeUndefined();
    expect(flagValue(['--ab=1'], 'a')).toBeUndefined();
  });
  test('portOfAddress', () => {
    expect(portOfAddress(':9090')).toBe(9090);
    expect(portOfAddress('0.0.0.0:443')).toBe(443);
    expect(portOfAddress('[::]:8080')).toBe(8080);
    expect(portOfAddress('unix:///x')).toBeUndefined();
    expect(portOfAddress(':0')).toBeUndefined();
  });
  test('resolveFile follows the longest mount, subPath, items and projected volumes', () => {
    const spec = {
      volumes: [
        { name: 'a', secret: { secretName: 's-a' } },
        { name: 'b', secret: { secretName: 's-b', items: [{ key: 'tls.crt', path: 'certs/x.pem' }] } },
        { name: 'p', projected: { sources: [{ secret: { name: 's-p', items: [{ key: 'ca.crt', path: 'ca.pem' }] } }, { configMap: { name: 'c' } }] } },
        { name: 'e', emptyDir: {} },
      ],
    };
    const container = {
      volumeMounts: [
        { name: 'a', mountPath: '/tls' },
        { name: 'b', mountPath: '/tls/b/' },
        { name: 'p', mountPath: '/p' },
        { name: 'a', mountPath: '/one.crt', subPath: 'tls.crt' },
        { name: 'e', mountPath: '/tmp' },
      ],
    };
    expect(resolveFile(spec, container, '/tls/tls.key')).toEqual({ type: 'secret', volume: 'a', secretName: 's-a', key: 'tls.key' });
    expect(resolveFile(spec, container, '/tls/b/certs/x.pem')).toEqual({ type: 'secret', volume: 'b', secretName: 's-b', key: 'tls.crt' });
    expect(resolveFile(spec, container, '/tls/b/other')).toEqual({ type: 'volume', volume: 'b', volumeType: 'secret' });
    expect(resolveFile(spec, container, '/p/ca.pem')).toEqual({ type: 'secret', volume: 'p', secretName: 's-p', key: 'ca.crt' });
    expect(resolveFile(spec, container, '/one.crt')).toEqual({ type: 'secret', volume: 'a', secretName: 's-a', key: 'tls.crt' });
    expect(resolveFile(spec, container, '/tmp/x')).toEqual({ type: 'volume', volume: 'e', volumeType: 'emptyDir' });
    expect(resolveFile(spec, container, '/etc/x')).toEqual({ type: 'image' });
    expect(resolveFile(spec, container, 'relative')).toEqual({ type: 'image' });
    expect(resolveFile(spec, { volumeMounts: [{ name: 'gone', mountPath: '/g' }] }, '/g/x')).toEqual({ type: 'volume', volume: 'gone', volumeType: 'missing' });
  });
});
