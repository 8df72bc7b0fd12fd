import { Chart, Testing } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import fc from 'fast-check';
import { BarmanCloudPlugin, HelloWorldPlugin, OperatorDeployment, SidecarPlugin, StandalonePlugin } from '../../src';
import { image } from './arbitraries';
import { announce, check } from './fc-config';

/*
 * Upgrading a plugin (a new image or version) changes image fields only: object names, Secret
 * names, labels and selectors stay, so a GitOps diff is a few lines and no Deployment is
 * orphaned by a changed selector. The one documented exception is the Barman Cloud sidecar
 * image, which lives in an immutable ConfigMap whose name carries a hash of the image: a new
 * sidecar image renames that ConfigMap and its one reference in the Deployment, so the plugin
 * rolls out with it.
 */

announce('upgrade-safety');

/** JSON paths whose values differ between two outputs (objects compared in order). */
function changedPaths(a: unknown, b: unknown, at = ''): string[] {
  if (Array.isArray(a) && Array.isArray(b)) {
    if (a.length !== b.length) return [`${at} (length ${a.length} -> ${b.length})`];
    return a.flatMap((x, i) => changedPaths(x, b[i], `${at}[${i}]`));
  }
  if (a !== null && b !== null && typeof a === 'object' && typeof b === 'object' && !Array.isArray(a) && !Array.isArray(b)) {
    const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
    return keys.flatMap((k) => changedPaths((a as any)[k], (b as any)[k], `${at}.${k}`));
  }
  return a === b ? [] : [at];
}

/** The changes, with each object index replaced by `Kind/name-in-the-old-output`. */
function describeChanges(before: any[], after: any[]): string[] {
  return changedPaths(before, after).map((p) => p.replace(/^\[(\d+)\]/, (_m, i) => `${before[Number(i)].kind}`));
}

const IMAGE_ONLY = /^Deployment\.spec\.template\.spec\.containers\[\d+\]\.image$/;

function expectOnlyImages(before: any[], after: any[], extra: RegExp[] = []): string[] {
  const changes = describeChanges(before, after);
  const unexpected = changes.filter((c) => !IMAGE_ONLY.test(c) && !extra.some((r) => r.test(c)));
  expect(unexpected).toEqual([]);
  return changes;
}

function standalone(img: string): any[] {
  const chart = new Chart(Testing.app(), 'cnpg-system', { namespace: 'cnpg-system' });
  new StandalonePlugin(chart, 'hello', { pluginName: 'hello.example.com', image: img, args: ['plugin'] });
  return Testing.synth(chart);
}

function hello(img: string): any[] {
  const chart = new Chart(Testing.app(), 'cnpg-system', { namespace: 'cnpg-system' });
  new HelloWorldPlugin(chart, 'hello', { image: img });
  return Testing.synth(chart);
}

function barman(props: { image?: string; sidecarImage?: string }): any[] {
  const chart = new Chart(Testing.app(), 'cnpg-system', { namespace: 'cnpg-system' });
  new BarmanCloudPlugin(chart, 'barman', props);
  return Testing.synth(chart);
}

function sidecar(img: string): any[] {
  const chart = new Chart(Testing.app(), 'cnpg-system', { namespace: 'cnpg-system' });
  const deployment = new kplus.Deployment(chart, 'operator', {
    containers: [
      {
        name: 'manager',
        image: 'ghcr.io/cloudnative-pg/cloudnative-pg:1.30.0',
        args: ['controller'],
        envVariables: { OPERATOR_NAMESPACE: kplus.EnvValue.fromValue('cnpg-system') },
      },
    ],
  });
  new SidecarPlugin(chart, 'hello', { operator: OperatorDeployment.fromDeployment(deployment), pluginName: 'hello.example.com', image: img, args: ['plugin'] });
  return Testing.synth(chart);
}

const twoImages = fc.tuple(image, image).filter(([a, b]) => a !== b);

describe('a new image changes image fields only', () => {
  test('StandalonePlugin image', () => {
    expect(expectOnlyImages(standalone('ghcr.io/x/hello:v1.0.0'), standalone('ghcr.io/x/hello:v1.1.0'))).toEqual([
      'Deployment.spec.template.spec.containers[0].image',
    ]);
    check(
      fc.property(twoImages, ([a, b]) => {
        expectOnlyImages(standalone(a), standalone(b));
      }),
    );
  });

  test('HelloWorldPlugin image (version)', () => {
    expect(expectOnlyImages(hello('ghcr.io/cloudnative-pg/cnpg-i-hello-world:v0.1.0'), hello('ghcr.io/cloudnative-pg/cnpg-i-hello-world:v0.2.0'))).toEqual([
      'Deployment.spec.template.spec.containers[0].image',
    ]);
    check(
      fc.property(twoImages, ([a, b]) => {
        expectOnlyImages(hello(a), hello(b));
      }),
    );
  });

  test('BarmanCloudPlugin image', () => {
    expect(expectOnlyImages(barman({}), barman({ image: 'ghcr.io/cloudnative-pg/plugin-barman-cloud:v0.15.0' }))).toEqual([
      'Deployment.spec.template.spec.containers[0].image',
    ]);
    check(
      fc.property(twoImages, ([a, b]) => {
        expectOnlyImages(barman({ image: a }), barman({ image: b }));
      }),
    );
  });

  test('SidecarPlugin image: only the sidecar container of the operator Deployment', () => {
    expect(expectOnlyImages(sidecar('ghcr.io/x/hello:v1'), sidecar('ghcr.io/x/hello:v2'))).toEqual(['Deployment.spec.template.spec.containers[1].image']);
    check(
      fc.property(twoImages, ([a, b]) => {
        expectOnlyImages(sidecar(a), sidecar(b));
      }),
    );
  });
});

describe('the documented exception: the Barman Cloud sidecar image', () => {
  const EXCEPTION = [
    /^ConfigMap\.metadata\.name$/,
    /^ConfigMap\.data\.SIDECAR_IMAGE$/,
    /^Deployment\.spec\.template\.spec\.containers\[0\]\.env\[\d+\]\.valueFrom\.configMapKeyRef\.name$/,
  ];

  test('renames the hashed ConfigMap and its one reference, and nothing else', () => {
    const before = barman({});
    const after = barman({ sidecarImage: 'ghcr.io/cloudnative-pg/plugin-barman-cloud-sidecar:v0.15.0' });
    const changes = expectOnlyImages(before, after, EXCEPTION);
    expect(changes.map((c) => c.replace(/env\[\d+\]/, 'env[]'))).toEqual([
      'ConfigMap.data.SIDECAR_IMAGE',
      'ConfigMap.metadata.name',
      'Deployment.spec.template.spec.containers[0].env[].valueFrom.configMapKeyRef.name',
    ]);
    const configMap = (objects: any[]) => objects.find((o) => o.kind === 'ConfigMap');
    expect(configMap(after).metadata.name).not.toBe(configMap(before).metadata.name);
    expect(configMap(after).immutable).toBe(true);
    check(
      fc.property(twoImages, ([a, b]) => {
        expectOnlyImages(barman({ sidecarImage: a }), barman({ sidecarImage: b }), EXCEPTION);
      }),
    );
  });

  test('both images at once: the union of the two, still no other name, Secret or selector', () => {
    const changes = expectOnlyImages(barman({}), barman({ image: 'ghcr.io/x/p:v2', sidecarImage: 'ghcr.io/x/s:v2' }), EXCEPTION);
    expect(changes).toHaveLength(4);
  });
});
