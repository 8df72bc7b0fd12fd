/*
 * The operator-fidelity family through the doctor's public entry points (checkManifests and the
 * CLI): the changes of issue 12's last round (Secret data, the cluster-resource namespace, one
 * issuance classification, retired overlapping rules).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { main, parseArgs } from '../../src/cli/doctor';
import { analyzeManifests, checkManifests } from '../../src/doctor/check-manifests';
import { DOCTOR_RULES } from '../../src/doctor/registry';
import { IGNORE_ANNOTATION } from '../../src/rules/suppressions';
import { runCli } from '../cli/run-cli';
import { Doc, doc, fixture, ofRule, summary } from './helpers';

const CRT = readFileSync(join(__dirname, '../fixtures/fidelity/client.crt'), 'utf8');
const b64 = (s: string) => Buffer.from(s).toString('base64');

function run(mutate: (docs: Doc[]) => void, options = {}) {
  const docs = fixture('good-plugin.yaml');
  mutate(docs);
  return checkManifests(docs, options);
}
const client = (docs: Doc[]) => doc(docs, 'Certificate', 'backup-client');
const args = (docs: Doc[]) => doc(docs, 'Deployment', 'backup').spec.template.spec.containers[0].args as string[];

describe('CNPGI115 secret-data: the API server refuses the Secret', () => {
  test('any Secret of the input, not only plugin Secrets', () => {
    const f = run((docs) => {
      docs.push({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 'creds', namespace: 'app' }, data: { ACCESS_KEY_ID: 'AKIA-not-encoded' } });
    });
    expect(summary(ofRule(f, 'CNPGI115'))).toEqual(['CNPGI115 error Secret/app/creds']);
    expect(ofRule(f, 'CNPGI115')[0].message).toContain('illegal base64 data at input byte 4');
  });
  test('the same Secret encoded, or under stringData, passes', () => {
    expect(
      ofRule(
        run((docs) => {
          docs.push({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 'creds', namespace: 'app' }, data: { ACCESS_KEY_ID: b64('AKIA-not-encoded') } });
        }),
        'CNPGI115',
      ),
    ).toEqual([]);
    expect(
      ofRule(
        run((docs) => {
          docs.push({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 'creds', namespace: 'app' }, stringData: { ACCESS_KEY_ID: 'AKIA-not-encoded' } });
        }),
        'CNPGI115',
      ),
    ).toEqual([]);
  });
  test('a kubernetes.io/tls Secret without tls.key', () => {
    const f = run((docs) => {
      docs.push({ apiVersion: 'v1', kind: 'Secret', type: 'kubernetes.io/tls', metadata: { name: 't', namespace: 'app' }, data: { 'tls.crt': b64(CRT) } });
    });
    expect(ofRule(f, 'CNPGI115').map((x) => x.message)).toEqual(["Secret 't' has type kubernetes.io/tls but no tls.key; the API server refuses it"]);
  });
});

/** A client certificate issued straight by a CA ClusterIssuer whose root Certificate sits in `caNamespace`. */
function clusterCa(docs: Doc[], caNamespace: string): void {
  docs.push(
    { apiVersion: 'cert-manager.io/v1', kind: 'ClusterIssuer', metadata: { name: 'root-selfsigned' }, spec: { selfSigned: {} } },
    {
      apiVersion: 'cert-manager.io/v1',
      kind: 'Certificate',
      metadata: { name: 'corp-ca', namespace: caNamespace },
      spec: { isCA: true, commonName: 'corp', secretName: 'corp-ca', issuerRef: { name: 'root-selfsigned', kind: 'ClusterIssuer' } },
    },
    { apiVersion: 'cert-manager.io/v1', kind: 'ClusterIssuer', metadata: { name: 'corp' }, spec: { ca: { secretName: 'corp-ca' } } },
  );
  client(docs).spec.issuerRef = { name: 'corp', kind: 'ClusterIssuer' };
}
const trustLeaf = (docs: Doc[]) => {
  args(docs)[2] = '--client-cert=/client/tls.crt';
};
const certManagerDeployment = (flag?: string) => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'cert-manager', namespace: 'certs' },
  spec: {
    selector: { matchLabels: { app: 'cm' } },
    template: {
      metadata: { labels: { app: 'cm' } },
      spec: { containers: [{ name: 'cert-manager-controller', image: 'quay.io/jetstack/cert-manager-controller:v1.21.1', args: flag ? [flag] : [] }] },
    },
  },
});

describe('one cluster-resource namespace for CNPGI025 and CNPGI109', () => {
  test('CA in cert-manager (the default): a single-tier CA, so trusting the leaf is the CNPGI025 error; CNPGI109 is quiet', () => {
    const f = run((docs) => {
      clusterCa(docs, 'cert-manager');
      trustLeaf(docs);
    });
    expect(summary(ofRule(f, 'CNPGI025'))).toEqual(['CNPGI025 error Deployment/cnpg-system/backup']);
    expect(ofRule(f, 'CNPGI025')[0].message).toContain('whose CA is self-signed (a single-tier CA)');
    expect(ofRule(f, 'CNPGI109')).toEqual([]);
    // the single-tier trap is reported once, by CNPGI025, not again by CNPGI112
    expect(ofRule(f, 'CNPGI112')).toEqual([]);
  });
  test('CA beside the Certificates: cert-manager does not read it there (CNPGI109), and its tier is unknown (CNPGI025 warning)', () => {
    const f = run((docs) => {
      clusterCa(docs, 'cnpg-system');
      trustLeaf(docs);
    });
    expect(summary(ofRule(f, 'CNPGI109'))).toEqual(['CNPGI109 error ClusterIssuer/corp']);
    expect(ofRule(f, 'CNPGI109')[0].message).toBe(
      "CA Secret 'corp-ca' is only in 'cnpg-system' (written by Certificate 'corp-ca'), but cert-manager reads a ClusterIssuer's CA Secret from its cluster-resource namespace 'cert-manager'; issuance fails",
    );
    expect(summary(ofRule(f, 'CNPGI025'))).toEqual(['CNPGI025 warning Deployment/cnpg-system/backup']);
  });
  test('the option names the namespace cert-manager really uses, for both rules', () => {
    const f = run(
      (docs) => {
        clusterCa(docs, 'cnpg-system');
        trustLeaf(docs);
      },
      { clusterResourceNamespace: 'cnpg-system' },
    );
    expect(ofRule(f, 'CNPGI109')).toEqual([]);
    expect(summary(ofRule(f, 'CNPGI025'))).toEqual(['CNPGI025 error Deployment/cnpg-system/backup']);
  });
  test('a cert-manager controller in the input decides: its flag, $(POD_NAMESPACE), or the code default kube-system', () => {
    const at = (flag: string | undefined, caNs: string) =>
      ofRule(
        run((docs) => {
          clusterCa(docs, caNs);
          docs.push(certManagerDeployment(flag));
        }),
        'CNPGI109',
      );
    expect(at('--cluster-resource-namespace=$(POD_NAMESPACE)', 'certs')).toEqual([]);
    expect(at('--cluster-resource-namespace=$(POD_NAMESPACE)', 'cert-manager').length).toBe(1);
    expect(at('--cluster-resource-namespace=issuers', 'issuers')).toEqual([]);
    expect(at(undefined, 'kube-system')).toEqual([]);
    expect(at(undefined, 'cert-manager')[0].message).toContain("cluster-resource namespace 'kube-system'");
  });
  test('the controller flag reaches CNPGI025 too (one resolution for both rules)', () => {
    const f = run((docs) => {
      clusterCa(docs, 'certs');
      trustLeaf(docs);
      docs.push(certManagerDeployment('--cluster-resource-namespace=$(POD_NAMESPACE)'));
    });
    expect(summary(ofRule(f, 'CNPGI025'))).toEqual(['CNPGI025 error Deployment/cnpg-system/backup']);
    expect(ofRule(f, 'CNPGI109')).toEqual([]);
  });
  test('an invalid option is refused with the prop and the fix', () => {
    expect(() => checkManifests([], { clusterResourceNamespace: '' } as never)).toThrow(
      "checkManifests: options.clusterResourceNamespace '' must be a non-empty string; pass the namespace cert-manager's controller reads ClusterIssuer Secrets from, e.g. 'cert-manager'",
    );
  });
  test('the CLI flag --cluster-resource-namespace', async () => {
    expect(parseArgs(['--cluster-resource-namespace', 'cnpg-system', 'x.yaml']).options.clusterResourceNamespace).toBe('cnpg-system');
    expect(parseArgs(['x.yaml']).options).not.toHaveProperty('clusterResourceNamespace');
    const docs = fixture('good-plugin.yaml');
    clusterCa(docs, 'cnpg-system');
    const text = docs.map((d) => JSON.stringify(d)).join('\n---\n');
    const cli = (argv: string[]) => runCli(main, argv, { stdin: text });
    expect((await cli(['--format', 'json', '-'])).out).toContain('CNPGI109');
    expect((await cli(['--format', 'json', '--cluster-resource-namespace=cnpg-system', '-'])).out).not.toContain('CNPGI109');
  });
});

describe('one problem, one rule', () => {
  test('a self-signed client certificate trusted through a copy: CNPGI112 only (no CNPGI026 "works only if" warning)', () => {
    const f = run((docs) => {
      const pod = doc(docs, 'Deployment', 'backup').spec.template.spec;
      pod.volumes.push({ name: 'copy', secret: { secretName: 'client-copy' } });
      pod.containers[0].volumeMounts.push({ name: 'copy', mountPath: '/copy' });
      args(docs)[2] = '--client-cert=/copy/tls.crt';
    });
    expect(summary(ofRule(f, 'CNPGI112'))).toEqual(['CNPGI112 error Deployment/cnpg-system/backup']);
    expect(ofRule(f, 'CNPGI026')).toEqual([]);
  });
  test('a CA-issued client certificate trusted through another Secret keeps the CNPGI026 warning', () => {
    const f = run((docs) => {
      clusterCa(docs, 'cert-manager');
      const pod = doc(docs, 'Deployment', 'backup').spec.template.spec;
      pod.volumes.push({ name: 'bundle', secret: { secretName: 'ca-bundle' } });
      pod.containers[0].volumeMounts.push({ name: 'bundle', mountPath: '/bundle' });
      args(docs)[2] = '--client-cert=/bundle/ca.crt';
    });
    expect(summary(ofRule(f, 'CNPGI026'))).toEqual(['CNPGI026 warning Deployment/cnpg-system/backup']);
    expect(ofRule(f, 'CNPGI112')).toEqual([]);
  });
  test('retired ids: --disable refuses them naming the successor; an ignore annotation reports them', () => {
    expect(() => checkManifests([], { disable: ['CNPGI043'] })).toThrow(
      "checkManifests: options.disable[0] 'CNPGI043' is a retired rule (external-cluster-source); CNPGI100 reports its problem now; disable CNPGI100 instead, if that is what you mean",
    );
    // in any case, with spaces or not
    expect(() => checkManifests([], { disable: [' cnpgi043'] })).toThrow(
      "checkManifests: options.disable[0] ' cnpgi043' is a retired rule (external-cluster-source); CNPGI100 reports its problem now; disable CNPGI100 instead, if that is what you mean",
    );
    expect(() => checkManifests([], { disable: ['CNPGI021'] })).toThrow('CNPGI110 reports its problem now');
    const f = run((docs) => {
      doc(docs, 'Cluster', 'pg').metadata.annotations = { 'cnpg-i.dev/doctor-ignore': 'CNPGI043' };
    });
    expect(ofRule(f, 'CNPGI091').map((x) => x.message)).toEqual([
      "annotation cnpg-i.dev/doctor-ignore names 'CNPGI043', a retired rule (external-cluster-source); CNPGI100 reports its problem now, and the old id silences nothing",
    ]);
  });
});

describe('overlapping rules say so in their spec (subsumes), and the findings stay as they were', () => {
  const analyze = (mutate: (docs: Doc[]) => void, options = {}) => {
    const docs = fixture('good-plugin.yaml');
    mutate(docs);
    return analyzeManifests(docs, options);
  };
  const lines = (findings: Array<{ ruleId: string; severity: string; object: string; path?: string }>) =>
    findings.map((f) => `${f.ruleId} ${f.severity} ${f.object} ${f.path ?? ''}`);
  const silenced = (findings: Array<{ ruleId: string; suppressedBy: string }>) => findings.map((f) => `${f.ruleId} ${f.suppressedBy}`);
  const ignore = (docs: Doc[], kind: string, name: string, ids: string) => {
    doc(docs, kind, name).metadata.annotations = { [IGNORE_ANNOTATION]: ids };
  };

  test('the registry lists the overlaps', () => {
    const subsumes = DOCTOR_RULES.filter((r) => r.subsumes).map((r) => [r.id, r.subsumes]);
    expect(subsumes).toEqual([
      ['CNPGI002', [{ rule: 'CNPGI104', path: 'spec.template.spec.containers[manager].env' }]],
      ['CNPGI042', [{ rule: 'CNPGI351' }]],
      ['CNPGI044', [{ rule: 'CNPGI101' }]],
      ['CNPGI045', [{ rule: 'CNPGI101' }]],
      ['CNPGI102', [{ rule: 'CNPGI371' }]],
      ['CNPGI116', [{ rule: 'CNPGI063', path: 'metadata.name' }]],
    ]);
  });

  describe('CNPGI044 and CNPGI045 subsume the missing plugin name of CNPGI101', () => {
    const noName = (docs: Doc[]) => {
      delete doc(docs, 'Backup', 'pg-now').spec.pluginConfiguration;
    };
    const emptyName = (docs: Doc[]) => {
      doc(docs, 'ScheduledBackup', 'pg-daily').spec.pluginConfiguration.name = '';
    };
    test('a Backup without the name: CNPGI044 only', () => {
      const r = analyze(noName);
      expect(lines(r.findings)).toEqual(['CNPGI044 error Backup/app/pg-now spec.pluginConfiguration.name']);
      expect(r.suppressed).toEqual([]);
    });
    test('with CNPGI044 disabled or ignored, CNPGI101 does not come back', () => {
      const disabled = analyze(noName, { disable: ['CNPGI044'] });
      expect(disabled.findings).toEqual([]);
      expect(silenced(disabled.suppressed)).toEqual(['CNPGI044 disable']);
      const ignored = analyze((docs) => {
        noName(docs);
        ignore(docs, 'Backup', 'pg-now', 'CNPGI044');
      });
      expect(ignored.findings).toEqual([]);
      expect(silenced(ignored.suppressed)).toEqual(['CNPGI044 annotation']);
    });
    test('a ScheduledBackup with an empty name: CNPGI045 only, also when it is disabled', () => {
      expect(lines(analyze(emptyName).findings)).toEqual(['CNPGI045 error ScheduledBackup/app/pg-daily spec.pluginConfiguration.name']);
      const disabled = analyze(emptyName, { disable: ['CNPGI045'] });
      expect(disabled.findings).toEqual([]);
      expect(silenced(disabled.suppressed)).toEqual(['CNPGI045 disable']);
    });
    test('a Backup of another API group: CNPGI044 does not read it, and CNPGI101 reports its other problems but not the name (as before)', () => {
      const r = analyze((docs) => {
        docs.push({ apiVersion: 'example.com/v1', kind: 'Backup', metadata: { name: 'x', namespace: 'app' }, spec: { method: 'plugin', target: 'nope' } });
      });
      expect(lines(r.findings)).toEqual(['CNPGI101 error Backup/app/x spec.target']);
    });
  });

  describe("CNPGI002 subsumes CNPGI104's OPERATOR_NAMESPACE finding", () => {
    const noEnv = (docs: Doc[]) => {
      doc(docs, 'Deployment', 'cnpg-controller-manager').spec.template.spec.containers[0].env = [];
    };
    const notDiscovered = [
      'CNPGI040 error Cluster/app/pg spec.plugins[0].name',
      'CNPGI040 error Cluster/app/pg spec.externalClusters[0].plugin.name',
      'CNPGI040 error Backup/app/pg-now spec.pluginConfiguration.name',
      'CNPGI040 error ScheduledBackup/app/pg-daily spec.pluginConfiguration.name',
    ];
    test('a manager without the env: CNPGI002 only (and no plugin is discovered)', () => {
      const r = analyze(noEnv);
      expect(lines(r.findings)).toEqual(['CNPGI002 error Deployment/cnpg-system/cnpg-controller-manager spec.template.spec.containers', ...notDiscovered]);
    });
    test('with CNPGI002 disabled or ignored, CNPGI104 does not come back', () => {
      const disabled = analyze(noEnv, { disable: ['CNPGI002'] });
      expect(lines(disabled.findings)).toEqual(notDiscovered);
      expect(silenced(disabled.suppressed)).toEqual(['CNPGI002 disable']);
      const ignored = analyze((docs) => {
        noEnv(docs);
        ignore(docs, 'Deployment', 'cnpg-controller-manager', 'CNPGI002');
      });
      expect(lines(ignored.findings)).toEqual(notDiscovered);
      expect(silenced(ignored.suppressed)).toEqual(['CNPGI002 annotation']);
    });
    test('an env set from a Secret the input does not show is unknown, not unset: neither rule reports it', () => {
      const r = analyze((docs) => {
        doc(docs, 'Deployment', 'cnpg-controller-manager').spec.template.spec.containers[0].env = [
          { name: 'OPERATOR_NAMESPACE', valueFrom: { secretKeyRef: { name: 'nope', key: 'x' } } },
        ];
      });
      expect(r.findings).toEqual([]);
    });
    test('an env entry without a value: CNPGI104 says it is empty (CNPGI002 sees the entry)', () => {
      const r = analyze((docs) => {
        doc(docs, 'Deployment', 'cnpg-controller-manager').spec.template.spec.containers[0].env = [{ name: 'OPERATOR_NAMESPACE' }];
      });
      expect(lines(r.findings)).toEqual(['CNPGI104 error Deployment/cnpg-system/cnpg-controller-manager spec.template.spec.containers[manager].env']);
      expect(r.findings[0].message).toMatch(/^OPERATOR_NAMESPACE is empty; /);
    });
  });
});

describe('one operator detector (src/manifests/operator.ts) for the model and CNPGI104', () => {
  const includeMissing = (image?: string) =>
    run((docs) => {
      const manager = doc(docs, 'Deployment', 'cnpg-controller-manager').spec.template.spec.containers[0];
      if (image) manager.image = image;
      manager.env.push({ name: 'INCLUDE_PLUGINS', value: 'missing.example.com' });
    });
  test('the upstream image', () => {
    expect(summary(ofRule(includeMissing(), 'CNPGI104'))).toEqual(['CNPGI104 error Deployment/cnpg-system/cnpg-controller-manager']);
  });
  test('a mirrored image (recognized by its pod label and manager container): CNPGI104 runs too', () => {
    const f = includeMissing('registry.example.com/mirror/cnpg-operator:1.30.0');
    expect(summary(ofRule(f, 'CNPGI104'))).toEqual(['CNPGI104 error Deployment/cnpg-system/cnpg-controller-manager']);
    expect(ofRule(f, 'CNPGI104')[0]).toMatchObject({ path: 'INCLUDE_PLUGINS' });
    expect(ofRule(f, 'CNPGI104')[0].message).toMatch(/^names 'missing.example.com' \(from the env\)/);
  });
});

describe('working setups the doctor must not call broken (issue 12 list)', () => {
  const errors = (f: ReturnType<typeof run>) => f.filter((x) => x.severity === 'error').map((x) => `${x.ruleId} ${x.object}`);
  test('the fixture itself is clean', () => expect(errors(run(() => {}))).toEqual([]));
  test('trusting tls.crt under an intermediate CA whose CA Secret is a PEM Secret in the input', () => {
    const INTERMEDIATE = readFileSync(join(__dirname, '../fixtures/fidelity/intermediate.crt'), 'utf8');
    const f = run((docs) => {
      docs.push(
        {
          apiVersion: 'cert-manager.io/v1',
          kind: 'Issuer',
          metadata: { name: 'corp-intermediate', namespace: 'cnpg-system' },
          spec: { ca: { secretName: 'corp-intermediate' } },
        },
        {
          apiVersion: 'v1',
          kind: 'Secret',
          type: 'kubernetes.io/tls',
          metadata: { name: 'corp-intermediate', namespace: 'cnpg-system' },
          data: { 'tls.crt': b64(INTERMEDIATE), 'tls.key': b64('placeholder') },
        },
      );
      client(docs).spec.issuerRef = { name: 'corp-intermediate', kind: 'Issuer' };
      trustLeaf(docs);
    });
    expect(f.filter((x) => ['CNPGI025', 'CNPGI112'].includes(x.ruleId))).toEqual([]);
    // the same Issuer over a self-signed (root) CA Secret is the single-tier trap
    const root = run((docs) => {
      docs.push(
        {
          apiVersion: 'cert-manager.io/v1',
          kind: 'Issuer',
          metadata: { name: 'corp-root', namespace: 'cnpg-system' },
          spec: { ca: { secretName: 'corp-root' } },
        },
        {
          apiVersion: 'v1',
          kind: 'Secret',
          type: 'kubernetes.io/tls',
          metadata: { name: 'corp-root', namespace: 'cnpg-system' },
          data: { 'tls.crt': b64(CRT), 'tls.key': b64('placeholder') },
        },
      );
      client(docs).spec.issuerRef = { name: 'corp-root', kind: 'Issuer' };
      trustLeaf(docs);
    });
    expect(summary(ofRule(root, 'CNPGI025'))).toEqual(['CNPGI025 error Deployment/cnpg-system/backup']);
  });
  test('a headless Service whose annotation port is the container port (and one that is not)', () => {
    const headless = (port: string) =>
      run((docs) => {
        const svc = doc(docs, 'Service', 'backup');
        svc.spec.clusterIP = 'None';
        svc.spec.ports = [{ name: 'grpc', port: 443, targetPort: 'grpc' }];
        svc.metadata.annotations['cnpg.io/pluginPort'] = port;
      });
    expect(errors(headless('9090'))).toEqual([]);
    expect(errors(headless('443'))).toEqual(['CNPGI111 Service/cnpg-system/backup']);
  });
  test('two identical entries of one plugin: a warning; both WAL archivers: an error', () => {
    const twice = (archiver: boolean) =>
      run((docs) => {
        const spec = doc(docs, 'Cluster', 'pg').spec;
        spec.plugins = [
          { name: 'backup.example.com', isWALArchiver: archiver },
          { name: 'backup.example.com', isWALArchiver: archiver },
        ];
      });
    expect(errors(twice(false))).toEqual([]);
    expect(summary(ofRule(twice(false), 'CNPGI046'))).toEqual(['CNPGI046 warning Cluster/app/pg']);
    expect(errors(twice(true))).toEqual(['CNPGI041 Cluster/app/pg']);
  });
  test('two Services carrying one plugin name: a warning that says it works until one is deleted', () => {
    const f = run((docs) => {
      const copy = JSON.parse(JSON.stringify(doc(docs, 'Service', 'backup')));
      copy.metadata.name = 'backup-2';
      // it verifies the name the server certificate covers (else CNPGI022, a real error)
      copy.metadata.annotations['cnpg.io/pluginServerName'] = 'backup';
      docs.push(copy);
    });
    expect(errors(f)).toEqual([]);
    expect(ofRule(f, 'CNPGI018')[0].message).toContain("deleting any one of them unregisters 'backup.example.com' while the others still exist");
  });
  test('an IP address as server name is checked against IP SANs', () => {
    const ip = (ipAddresses: string[]) =>
      run((docs) => {
        doc(docs, 'Service', 'backup').metadata.annotations['cnpg.io/pluginServerName'] = '10.0.0.5';
        doc(docs, 'Certificate', 'backup-server').spec.ipAddresses = ipAddresses;
      });
    expect(ofRule(ip(['10.0.0.5']), 'CNPGI022')).toEqual([]);
    expect(summary(ofRule(ip(['10.0.0.6']), 'CNPGI022'))).toEqual(['CNPGI022 error Certificate/cnpg-system/backup-server']);
  });
});

describe('class 5: plugin identity of the known images, through the doctor', () => {
  test.each([
    ['ghcr.io/cloudnative-pg/plugin-barman-cloud:v0.14.0', 'barman-cloud.cloudnative-pg.io'],
    ['ghcr.io/cloudnative-pg/cnpg-i-hello-world:v0.1.0', 'cnpg-i-hello-world.cloudnative-pg.io'],
  ])('%p: a label other than %p is CNPGI105; the reported name passes', (image, reported) => {
    const labelled = (label: string) =>
      run((docs) => {
        doc(docs, 'Deployment', 'backup').spec.template.spec.containers[0].image = image;
        doc(docs, 'Service', 'backup').metadata.labels['cnpg.io/pluginName'] = label;
        for (const p of doc(docs, 'Cluster', 'pg').spec.plugins) p.name = label;
        for (const e of doc(docs, 'Cluster', 'pg').spec.externalClusters ?? []) if (e.plugin) e.plugin.name = label;
        for (const k of ['Backup', 'ScheduledBackup']) for (const b of docs.filter((d) => d.kind === k)) b.spec.pluginConfiguration.name = label;
      });
    expect(summary(ofRule(labelled('backup.example.com'), 'CNPGI105'))).toEqual(['CNPGI105 error Service/cnpg-system/backup']);
    expect(ofRule(labelled(reported), 'CNPGI105')).toEqual([]);
  });
});
