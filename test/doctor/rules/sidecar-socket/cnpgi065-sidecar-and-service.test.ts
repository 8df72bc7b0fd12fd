import { analyzeManifests, checkManifests } from '../../../../src/doctor/check-manifests';
import type { DoctorOptions } from '../../../../src/doctor/report';
import { SIDECAR_PLUGINS_ANNOTATION } from '../../../../src/manifests/sidecar-plugins';
import { Doc, doc, fixture, ofRule, summary } from '../../helpers';

const OP = 'Deployment/cnpg-system/cnpg-controller-manager';
const NAME = 'backup.example.com';

/** The sidecar operator, its sidecar named `name` by the annotation, beside the good plugin's Service, changed by `mutate`. */
function input(mutate: (docs: Doc[]) => void = () => undefined, name = NAME): Doc[] {
  const docs = [...fixture('sidecar-operator.yaml'), ...fixture('good-plugin.yaml').filter((d) => d.metadata.name !== 'cnpg-controller-manager')];
  const operator = doc(docs, 'Deployment', 'cnpg-controller-manager');
  operator.spec.template.spec.containers[1].image = 'example.com/backup-sidecar:v1';
  operator.metadata.annotations = {
    [SIDECAR_PLUGINS_ANNOTATION]: JSON.stringify([{ container: 'hello', plugin: name, socket: `/plugins/${name}` }]),
  };
  mutate(docs);
  return docs;
}
const findings = (docs: Doc[], options: DoctorOptions = {}) => ofRule(checkManifests(docs, options), 'CNPGI065');
const service = (docs: Doc[]) => doc(docs, 'Service', 'backup');

describe('CNPGI065 one plugin name served by a sidecar socket and by a Service', () => {
  test('warning: the Service replaces the socket', () => {
    const f = findings(input());
    expect(summary(f)).toEqual([`CNPGI065 warning ${OP}`]);
    expect(f[0].message).toBe(
      "plugin 'backup.example.com' is served both by sidecar container 'hello' (socket /plugins/backup.example.com) and by Service/cnpg-system/backup; " +
        "the operator registers the socket at startup, then the Service's registration replaces it, so the sidecar is never called, " +
        "and deleting the Service (or a failed reconcile of it) makes the operator forget 'backup.example.com' until it restarts",
    );
    expect(f[0].fix).toBe("serve 'backup.example.com' once: remove sidecar container 'hello' or Service/cnpg-system/backup, or rename one of them");
    expect(f[0].path).toBe('spec.template.spec.containers[1]');
  });

  test('error: a port the operator cannot parse makes every reconcile forget the name, socket included', () => {
    const f = findings(input((d) => (service(d).metadata.annotations['cnpg.io/pluginPort'] = 'grpc')));
    expect(summary(f)).toEqual([`CNPGI065 error ${OP}`]);
    expect(f[0].message).toBe(
      "plugin 'backup.example.com' is served both by sidecar container 'hello' (socket /plugins/backup.example.com) and by Service/cnpg-system/backup, " +
        "whose cnpg.io/pluginPort 'grpc' is not an integer; each reconcile of that Service fails and makes the operator forget 'backup.example.com', " +
        "the socket's registration included, so Clusters using it are refused as using an unknown plugin",
    );
  });

  test('a port out of range still parses, so the Service still replaces the socket (a warning)', () => {
    expect(summary(findings(input((d) => (service(d).metadata.annotations['cnpg.io/pluginPort'] = '70000'))))).toEqual([`CNPGI065 warning ${OP}`]);
  });

  test('the name given by --sidecar-plugin (sidecarPlugins) counts like the annotation', () => {
    const docs = input();
    delete doc(docs, 'Deployment', 'cnpg-controller-manager').metadata.annotations;
    expect(findings(docs)).toEqual([]);
    expect(summary(findings(docs, { sidecarPlugins: { hello: NAME } }))).toEqual([`CNPGI065 warning ${OP}`]);
  });

  test('the plugin the operator ends up with is the Service, as the doctor lists it', () => {
    const report = analyzeManifests(input());
    expect(report.plugins.filter((p) => p.name === NAME).map((p) => p.source)).toEqual(['service']);
  });

  describe('near misses the operator does not register over the socket', () => {
    test('different plugin names', () => {
      expect(findings(input(undefined, 'other.example.com'))).toEqual([]);
    });
    test('a Service outside the operator namespace', () => {
      expect(
        findings(
          input((d) => {
            service(d).metadata.namespace = 'elsewhere';
          }),
        ),
      ).toEqual([]);
    });
    test('a Service without the port annotation is no plugin Service (isPluginService)', () => {
      expect(findings(input((d) => delete service(d).metadata.annotations['cnpg.io/pluginPort']))).toEqual([]);
    });
    test('a Service whose server Secret annotation is empty is skipped before it registers', () => {
      expect(findings(input((d) => (service(d).metadata.annotations['cnpg.io/pluginServerSecret'] = '')))).toEqual([]);
    });
    test('an operator without OPERATOR_NAMESPACE reconciles no plugin Service', () => {
      expect(findings(input((d) => (doc(d, 'Deployment', 'cnpg-controller-manager').spec.template.spec.containers[0].env = [])))).toEqual([]);
    });
  });
});
