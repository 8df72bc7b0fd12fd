import { checkManifests } from '../../src/doctor/check-manifests';
import { Doc, doc, fixture, ofRule, summary } from '../doctor/helpers';

function run(mutate: (spec: Doc) => void) {
  const docs = fixture('good-plugin.yaml');
  mutate(doc(docs, 'Deployment', 'backup').spec.template.spec);
  return ofRule(checkManifests(docs), 'CNPGI050');
}

describe('CNPGI050 restricted Pod Security Standard', () => {
  test('the good plugin pod is restricted', () => {
    expect(run(() => undefined)).toEqual([]);
  });
  test.each<[string, (s: Doc) => void, string]>([
    [
      'runAsNonRoot missing',
      (s) => {
        delete s.securityContext.runAsNonRoot;
      },
      "container 'plugin' does not run as non-root",
    ],
    [
      'allowPrivilegeEscalation',
      (s) => {
        delete s.containers[0].securityContext.allowPrivilegeEscalation;
      },
      "container 'plugin' does not set allowPrivilegeEscalation: false",
    ],
    [
      'capabilities',
      (s) => {
        s.containers[0].securityContext.capabilities = { drop: ['NET_RAW'] };
      },
      "container 'plugin' does not drop ALL capabilities",
    ],
    [
      'added capability',
      (s) => {
        s.containers[0].securityContext.capabilities.add = ['SYS_ADMIN'];
      },
      "container 'plugin' adds capabilities SYS_ADMIN",
    ],
    [
      'seccomp Unconfined',
      (s) => {
        s.securityContext.seccompProfile.type = 'Unconfined';
      },
      'seccomp profile Unconfined',
    ],
    [
      'privileged',
      (s) => {
        s.containers[0].securityContext.privileged = true;
      },
      "container 'plugin' is privileged",
    ],
    [
      'hostNetwork',
      (s) => {
        s.hostNetwork = true;
      },
      'hostNetwork: true',
    ],
    [
      'hostPath',
      (s) => {
        s.volumes.push({ name: 'h', hostPath: { path: '/' } });
      },
      "volume 'h' is hostPath",
    ],
    [
      'uid 0',
      (s) => {
        s.containers[0].securityContext.runAsUser = 0;
      },
      "container 'plugin' runs as uid 0",
    ],
    [
      'init container',
      (s) => {
        s.initContainers = [{ name: 'init', image: 'x' }];
      },
      "container 'init' does not set allowPrivilegeEscalation: false",
    ],
  ])('%s', (_name, mutate, expected) => {
    const f = run(mutate);
    expect(summary(f)).toEqual(['CNPGI050 warning Deployment/cnpg-system/backup']);
    expect(f[0].message).toContain(expected);
  });
  test('Localhost seccomp and NET_BIND_SERVICE are allowed', () => {
    expect(
      run((s) => {
        s.securityContext.seccompProfile = { type: 'Localhost', localhostProfile: 'p.json' };
        s.containers[0].securityContext.capabilities.add = ['NET_BIND_SERVICE'];
      }),
    ).toEqual([]);
  });
  test('sidecar plugin containers are checked, not the whole operator pod', () => {
    const docs = fixture('sidecar-operator.yaml');
    delete doc(docs, 'Deployment', 'cnpg-controller-manager').spec.template.spec.containers[1].securityContext;
    const f = ofRule(checkManifests(docs), 'CNPGI050');
    expect(f[0].message).toContain("sidecar plugin container 'hello' breaks");
    expect(f[0].path).toBe('spec.template.spec.containers[1]');
  });
});
