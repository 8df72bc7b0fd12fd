import { clusterDoc, findingsOf } from './webhook-findings';

const of = (affinity: object) => findingsOf('CNPGI321', clusterDoc({ affinity }));

describe('CNPGI321 cluster-pod-anti-affinity-type', () => {
  test('an unknown type, also with anti-affinity disabled (the upstream test)', () => {
    expect(of({ enablePodAntiAffinity: false, podAntiAffinityType: 'error' })).toEqual([
      {
        path: 'spec.affinity.podAntiAffinityType',
        message: "the Cluster webhook refuses podAntiAffinityType 'error' (\"pod anti-affinity type must be 'preferred' (default if empty) or 'required'\")",
        fix: "use 'preferred' (instances spread over nodes when they can) or 'required' (never two instances on one node), or leave it out for 'preferred'",
      },
    ]);
  });

  test('the case matters', () => {
    expect(of({ podAntiAffinityType: 'Required' }).map((f) => f.path)).toEqual(['spec.affinity.podAntiAffinityType']);
  });

  test.each([
    ['an empty affinity', {}],
    ['required', { enablePodAntiAffinity: true, podAntiAffinityType: 'required' }],
    ['required with anti-affinity disabled', { enablePodAntiAffinity: false, podAntiAffinityType: 'required' }],
    ['preferred', { podAntiAffinityType: 'preferred' }],
    ['an empty type', { enablePodAntiAffinity: true, podAntiAffinityType: '' }],
  ])('accepted: %s', (_what, affinity) => {
    expect(of(affinity)).toEqual([]);
  });
});
