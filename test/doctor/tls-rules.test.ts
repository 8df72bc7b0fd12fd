import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sanMatches } from '../../src/checks/tls-precision';
import { checkManifests } from '../../src/doctor/check-manifests';
import { Doc, doc, fixture, ofRule, summary } from './helpers';

// A throw-away self-signed pair made for the tests (test/fixtures/fidelity).
const CRT = readFileSync(join(__dirname, '../fixtures/fidelity/client.crt'), 'utf8');
const KEY = readFileSync(join(__dirname, '../fixtures/fidelity/client.key'), 'utf8');

function run(mutate: (docs: Doc[]) => void, options = {}) {
  const docs = fixture('good-plugin.yaml');
  mutate(docs);
  return checkManifests(docs, options);
}
const svc = (docs: Doc[]) => doc(docs, 'Service', 'backup');
const server = (docs: Doc[]) => doc(docs, 'Certificate', 'backup-server');
const client = (docs: Doc[]) => doc(docs, 'Certificate', 'backup-client');
const plugin = (docs: Doc[]) => doc(docs, 'Deployment', 'backup').spec.template.spec;
const args = (docs: Doc[]) => plugin(docs).containers[0].args as string[];

/** Makes the client and server certificates CA-issued (privateCa layout). */
function caIssued(docs: Doc[]) {
  docs.push(
    {
      apiVersion: 'cert-manager.io/v1',
      kind: 'Certificate',
      metadata: { name: 'backup-ca', namespace: 'cnpg-system' },
      spec: { isCA: true, secretName: 'backup-ca', commonName: 'ca', issuerRef: { name: 'backup-selfsigned' } },
    },
    { apiVersion: 'cert-manager.io/v1', kind: 'Issuer', metadata: { name: 'backup-ca', namespace: 'cnpg-system' }, spec: { ca: { secretName: 'backup-ca' } } },
  );
  client(docs).spec.issuerRef = { name: 'backup-ca', kind: 'Issuer' };
  server(docs).spec.issuerRef = { name: 'backup-ca', kind: 'Issuer' };
}

describe('TLS rules', () => {
  describe('CNPGI019 pluginServerName and the CNPG version', () => {
    const named = (docs: Doc[]) => {
      svc(docs).metadata.annotations['cnpg.io/pluginServerName'] = 'backup.example.internal';
      server(docs).spec.dnsNames = ['backup.example.internal'];
    };
    test('supported from 1.26.3, 1.27.2, 1.28.0', () => {
      for (const v of ['1.26.3', '1.27.2', '1.28.0', '1.30.0']) expect(ofRule(run(named, { cnpgVersion: v }), 'CNPGI019')).toEqual([]);
    });
    test('ignored by 1.27.1: error when the certificate lacks the short name', () => {
      const f = run(named, { cnpgVersion: '1.27.1' });
      expect(summary(ofRule(f, 'CNPGI019'))).toEqual(['CNPGI019 error Service/cnpg-system/backup']);
      expect(ofRule(f, 'CNPGI019')[0].message).toBe(
        "`cnpg.io/pluginServerName` is ignored by CloudNativePG 1.27.1 (honoured from 1.26.3, 1.27.2 and 1.28.0): the operator verifies the short Service name 'backup', which the server certificate does not cover",
      );
      // and the SAN rule checks the short name, as the old operator does
      expect(summary(ofRule(f, 'CNPGI022'))).toEqual(['CNPGI022 error Certificate/cnpg-system/backup-server']);
    });
    test('ignored by 1.26.2 but harmless when the certificate covers the short name', () => {
      const f = run(
        (docs) => {
          named(docs);
          server(docs).spec.dnsNames.push('backup');
        },
        { cnpgVersion: '1.26.2' },
      );
      expect(summary(ofRule(f, 'CNPGI019'))).toEqual(['CNPGI019 warning Service/cnpg-system/backup']);
    });
  });

  describe('CNPGI020 Secret source', () => {
    test('no Certificate writes the client Secret', () => {
      const f = ofRule(
        run((docs) => {
          svc(docs).metadata.annotations['cnpg.io/pluginClientSecret'] = 'other-tls';
        }),
        'CNPGI020',
      );
      expect(summary(f)).toEqual(['CNPGI020 warning Service/cnpg-system/backup']);
      expect(f[0].message).toContain("client Secret 'other-tls' is written by no Certificate in 'cnpg-system'");
    });
    test('a Certificate in another namespace is named', () => {
      const f = ofRule(
        run((docs) => {
          server(docs).metadata.namespace = 'elsewhere';
        }),
        'CNPGI020',
      );
      expect(f[0].message).toContain('Certificate/elsewhere/backup-server writes one in another namespace');
    });
    test('a Secret in the input counts', () => {
      const f = run((docs) => {
        docs.splice(docs.indexOf(client(docs)), 1);
        docs.push({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 'backup-client-tls', namespace: 'cnpg-system' }, type: 'kubernetes.io/tls' });
      });
      expect(ofRule(f, 'CNPGI020')).toEqual([]);
    });
  });

  describe('CNPGI110 Secret keys (CNPGI021 retired into it: one problem, one finding)', () => {
    test('client Secret without tls.key', () => {
      const f = run((docs) => {
        docs.splice(docs.indexOf(client(docs)), 1);
        docs.push({
          apiVersion: 'v1',
          kind: 'Secret',
          metadata: { name: 'backup-client-tls', namespace: 'cnpg-system' },
          data: { 'tls.crt': Buffer.from(CRT).toString('base64') },
        });
      });
      // (the plugin's --client-cert=/client/ca.crt, which this Secret lacks, is a second problem, on the Deployment)
      expect(summary(ofRule(f, 'CNPGI110'))).toEqual(['CNPGI110 error Deployment/cnpg-system/backup', 'CNPGI110 error Secret/cnpg-system/backup-client-tls']);
      expect(ofRule(f, 'CNPGI110').find((x) => x.object.startsWith('Secret/'))?.message).toBe(
        "Secret 'backup-client-tls' has no usable tls.key; tls.X509KeyPair fails and the plugin is not registered",
      );
      expect(f.map((x) => x.ruleId)).not.toContain('CNPGI021');
    });
    test('client Secret without tls.crt: the message says which keys the operator reads', () => {
      const f = run((docs) => {
        docs.splice(docs.indexOf(client(docs)), 1);
        docs.push({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 'backup-client-tls', namespace: 'cnpg-system' }, stringData: { 'ca.crt': CRT } });
      });
      expect(ofRule(f, 'CNPGI110').map((x) => x.message)).toEqual([
        "Secret 'backup-client-tls' has no tls.crt; the operator reads its client pair from tls.crt + tls.key, never ca.crt, and reports InvalidClientCertificate",
        "Secret 'backup-client-tls' has no usable tls.key; tls.X509KeyPair fails and the plugin is not registered",
      ]);
    });
    test('server Secret with a parsing tls.crt is fine; a placeholder Secret with no data is skipped', () => {
      const withCrt = run((docs) => {
        docs.splice(docs.indexOf(server(docs)), 1);
        docs.push({
          apiVersion: 'v1',
          kind: 'Secret',
          metadata: { name: 'backup-server-tls', namespace: 'cnpg-system' },
          stringData: { 'tls.crt': CRT, 'tls.key': KEY },
        });
      });
      expect(ofRule(withCrt, 'CNPGI110')).toEqual([]);
      const placeholder = run((docs) => {
        docs.push({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 'backup-server-tls', namespace: 'cnpg-system' } });
      });
      expect(ofRule(placeholder, 'CNPGI110')).toEqual([]);
    });
    test('invalid base64 is reported once, by CNPGI115, not again as unparsable PEM', () => {
      const f = run((docs) => {
        docs.splice(docs.indexOf(client(docs)), 1);
        docs.push({
          apiVersion: 'v1',
          kind: 'Secret',
          metadata: { name: 'backup-client-tls', namespace: 'cnpg-system' },
          data: { 'tls.crt': CRT, 'tls.key': Buffer.from(KEY).toString('base64') },
        });
      });
      expect(summary(f.filter((x) => (x.ruleId === 'CNPGI110' || x.ruleId === 'CNPGI115') && x.object.startsWith('Secret/')))).toEqual([
        'CNPGI115 error Secret/cnpg-system/backup-client-tls',
      ]);
    });
  });

  describe('CNPGI022 server SAN', () => {
    test('dnsNames miss the short Service name; CN does not count', () => {
      const f = ofRule(
        run((docs) => {
          server(docs).spec.dnsNames = ['backup.cnpg-system.svc'];
        }),
        'CNPGI022',
      );
      expect(summary(f)).toEqual(['CNPGI022 error Certificate/cnpg-system/backup-server']);
      expect(f[0].message).toContain('the common name does not count: Go checks DNS SANs only');
    });
    test('pluginServerName is verified instead of the Service name', () => {
      const f = ofRule(
        run((docs) => {
          svc(docs).metadata.annotations['cnpg.io/pluginServerName'] = 'backup.example.internal';
        }),
        'CNPGI022',
      );
      expect(f[0].message).toContain("miss 'backup.example.internal', the name the operator verifies (`cnpg.io/pluginServerName`)");
    });
    test('an IP server name is checked against IP SANs, not dnsNames', () => {
      const ip = (ipAddresses: string[]) =>
        ofRule(
          run((docs) => {
            svc(docs).metadata.annotations['cnpg.io/pluginServerName'] = '10.0.0.5';
            server(docs).spec.dnsNames = ['backup', '10.0.0.5'];
            server(docs).spec.ipAddresses = ipAddresses;
          }),
          'CNPGI022',
        );
      expect(ip(['10.0.0.5'])).toEqual([]);
      expect(ip([]).map((x) => x.message)).toEqual([
        "the operator verifies the IP address '10.0.0.5', and the server Certificate's ipAddresses [] do not include it; Go compares an IP server name with IP SANs only",
      ]);
    });
    test('a SAN with a trailing dot does not match the Service name (Go does not strip it)', () => {
      expect(
        summary(
          ofRule(
            run((docs) => {
              server(docs).spec.dnsNames = ['backup.'];
            }),
            'CNPGI022',
          ),
        ),
      ).toEqual(['CNPGI022 error Certificate/cnpg-system/backup-server']);
      expect(sanMatches('backup.', 'backup')).toBe(false);
      expect(sanMatches('backup', 'backup.')).toBe(true);
    });
    test('a wildcard SAN matches one label', () => {
      expect(sanMatches('*.example.com', 'a.example.com')).toBe(true);
      expect(sanMatches('*.example.com', 'a.b.example.com')).toBe(false);
      expect(sanMatches('*.example.com', 'backup')).toBe(false);
      expect(sanMatches('Backup', 'backup')).toBe(true);
    });
  });

  describe('CNPGI023 usages', () => {
    test('server certificate with client auth only', () => {
      const f = ofRule(
        run((docs) => {
          server(docs).spec.usages = ['client auth'];
        }),
        'CNPGI023',
      );
      expect(summary(f)).toEqual(['CNPGI023 error Certificate/cnpg-system/backup-server']);
      expect(f[0].message).toContain('incompatible key usage');
    });
    test('client certificate with server auth only', () => {
      const f = ofRule(
        run((docs) => {
          client(docs).spec.usages = ['digital signature', 'server auth'];
        }),
        'CNPGI023',
      );
      expect(summary(f)).toEqual(['CNPGI023 error Certificate/cnpg-system/backup-client']);
    });
    test('usages omitted: cert-manager default has no extended usage, which Go accepts (warning)', () => {
      const f = ofRule(
        run((docs) => {
          delete server(docs).spec.usages;
        }),
        'CNPGI023',
      );
      expect(summary(f)).toEqual(['CNPGI023 warning Certificate/cnpg-system/backup-server']);
      expect(f[0].message).toContain('omits usages, so cert-manager issues `digital signature, key encipherment` with no extended key usage');
    });
    test('both usages on one certificate are fine', () => {
      expect(
        ofRule(
          run((docs) => {
            server(docs).spec.usages = ['server auth', 'client auth'];
          }),
          'CNPGI023',
        ),
      ).toEqual([]);
    });
  });

  describe('CNPGI024 issuerRef', () => {
    test('Issuer in another namespace', () => {
      const f = ofRule(
        run((docs) => {
          doc(docs, 'Issuer', 'backup-selfsigned').metadata.namespace = 'cert-manager';
        }),
        'CNPGI024',
      );
      expect(summary(f)).toEqual(['CNPGI024 error Certificate/cnpg-system/backup-client', 'CNPGI024 error Certificate/cnpg-system/backup-server']);
      expect(f[0].message).toContain("which exists only in 'cert-manager'");
    });
    test('Issuer not in the input is a warning', () => {
      const f = ofRule(
        run((docs) => {
          client(docs).spec.issuerRef.name = 'corp-issuer';
        }),
        'CNPGI024',
      );
      expect(summary(f)).toEqual(['CNPGI024 warning Certificate/cnpg-system/backup-client']);
    });
    test('ClusterIssuer is cluster-scoped', () => {
      const f = run((docs) => {
        doc(docs, 'Issuer', 'backup-selfsigned').kind = 'ClusterIssuer';
        client(docs).spec.issuerRef.kind = 'ClusterIssuer';
        server(docs).spec.issuerRef.kind = 'ClusterIssuer';
      });
      expect(ofRule(f, 'CNPGI024')).toEqual([]);
    });
    test('kind defaults to Issuer: a ClusterIssuer of that name is a mismatch', () => {
      const f = ofRule(
        run((docs) => {
          doc(docs, 'Issuer', 'backup-selfsigned').kind = 'ClusterIssuer';
          client(docs).spec.issuerRef.kind = 'ClusterIssuer';
        }),
        'CNPGI024',
      );
      expect(f[0].fix).toBe('set spec.issuerRef.kind: ClusterIssuer');
    });
    test('no issuerRef', () => {
      const f = ofRule(
        run((docs) => {
          delete client(docs).spec.issuerRef;
        }),
        'CNPGI024',
      );
      expect(f[0].message).toBe('Certificate has no spec.issuerRef; cert-manager cannot issue it');
    });
    test('the CA certificate of a CA issuer is checked too', () => {
      const f = ofRule(
        run((docs) => {
          caIssued(docs);
          doc(docs, 'Certificate', 'backup-ca').spec.issuerRef.name = 'missing';
        }),
        'CNPGI024',
      );
      expect(summary(f)).toEqual(['CNPGI024 warning Certificate/cnpg-system/backup-ca']);
    });
    test('external issuers are not resolved', () => {
      expect(
        ofRule(
          run((docs) => {
            client(docs).spec.issuerRef = { name: 'x', kind: 'AWSPCAIssuer', group: 'awspca.cert-manager.io' };
          }),
          'CNPGI024',
        ),
      ).toEqual([]);
    });
  });

  describe('CNPGI025 the tls: certificate required trap', () => {
    const trustLeaf = (docs: Doc[]) => {
      args(docs)[2] = '--client-cert=/client/tls.crt';
    };
    test('client leaf trusted under a CA issuer', () => {
      const f = ofRule(
        run((docs) => {
          caIssued(docs);
          trustLeaf(docs);
        }),
        'CNPGI025',
      );
      expect(summary(f)).toEqual(['CNPGI025 error Deployment/cnpg-system/backup']);
      expect(f[0].message).toContain('`tls: certificate required`');
      expect(f[0].fix).toBe('pass --client-cert=/client/ca.crt (cert-manager writes the CA there)');
    });
    test('client leaf trusted under a SelfSigned issuer is what upstream ships', () => {
      expect(ofRule(run(trustLeaf), 'CNPGI025')).toEqual([]);
    });
    test('ca.crt under a CA issuer is right', () => {
      expect(ofRule(run(caIssued), 'CNPGI025')).toEqual([]);
    });
    /** A root CA issuer signs an intermediate CA, whose issuer signs the leaves. */
    const intermediateIssued = (docs: Doc[], rootKind: 'Issuer' | 'ClusterIssuer' = 'Issuer') => {
      caIssued(docs);
      docs.push(
        {
          apiVersion: 'cert-manager.io/v1',
          kind: 'Certificate',
          metadata: { name: 'backup-root', namespace: 'cnpg-system' },
          spec: { isCA: true, secretName: 'backup-root', commonName: 'root', issuerRef: { name: 'backup-selfsigned' } },
        },
        {
          apiVersion: 'cert-manager.io/v1',
          kind: rootKind,
          metadata: { name: 'backup-root', ...(rootKind === 'Issuer' ? { namespace: 'cnpg-system' } : {}) },
          spec: { ca: { secretName: 'backup-root' } },
        },
      );
      doc(docs, 'Certificate', 'backup-ca').spec.issuerRef = { name: 'backup-root', kind: rootKind };
    };
    test('client leaf trusted under an intermediate CA works (tls.crt is leaf + intermediate)', () => {
      expect(
        ofRule(
          run((docs) => {
            intermediateIssued(docs);
            trustLeaf(docs);
          }),
          'CNPGI025',
        ),
      ).toEqual([]);
      expect(
        ofRule(
          run((docs) => {
            intermediateIssued(docs, 'ClusterIssuer');
            trustLeaf(docs);
          }),
          'CNPGI025',
        ),
      ).toEqual([]);
    });
    test('unknown issuer is a warning', () => {
      const f = ofRule(
        run((docs) => {
          trustLeaf(docs);
          client(docs).spec.issuerRef.name = 'corp';
        }),
        'CNPGI025',
      );
      expect(summary(f)).toEqual(['CNPGI025 warning Deployment/cnpg-system/backup']);
    });
    test('external issuer is a CA', () => {
      const f = ofRule(
        run((docs) => {
          trustLeaf(docs);
          client(docs).spec.issuerRef = { name: 'v', kind: 'VaultIssuer', group: 'example.io' };
        }),
        'CNPGI025',
      );
      expect(summary(f)).toEqual(['CNPGI025 error Deployment/cnpg-system/backup']);
    });
    test('items projection is followed', () => {
      const f = ofRule(
        run((docs) => {
          caIssued(docs);
          args(docs)[2] = '--client-cert=/client/trust.pem';
          plugin(docs).volumes[1].secret.items = [{ key: 'tls.crt', path: 'trust.pem' }];
        }),
        'CNPGI025',
      );
      expect(summary(f)).toEqual(['CNPGI025 error Deployment/cnpg-system/backup']);
    });
  });

  describe('CNPGI026 TLS files', () => {
    test('server cert from the client Secret', () => {
      const f = ofRule(
        run((docs) => {
          args(docs)[0] = '--server-cert=/client/tls.crt';
        }),
        'CNPGI026',
      );
      expect(summary(f)).toEqual(['CNPGI026 error Deployment/cnpg-system/backup']);
      expect(f[0].message).toContain("which is key 'tls.crt' of Secret 'backup-client-tls', but it must be tls.crt of the server Secret 'backup-server-tls'");
    });
    test('client CA from the server Secret', () => {
      const f = ofRule(
        run((docs) => {
          args(docs)[2] = '--client-cert=/server/ca.crt';
        }),
        'CNPGI026',
      );
      expect(summary(f)).toEqual(['CNPGI026 error Deployment/cnpg-system/backup']);
    });
    test('file from the image is a warning', () => {
      const f = ofRule(
        run((docs) => {
          args(docs)[2] = '--client-cert=/etc/ssl/ca.pem';
        }),
        'CNPGI026',
      );
      expect(summary(f)).toEqual(['CNPGI026 warning Deployment/cnpg-system/backup']);
    });
    test('space-separated flags and subPath mounts are understood', () => {
      const f = run((docs) => {
        const c = plugin(docs).containers[0];
        c.args = ['--server-cert', '/tls/server.crt', '--server-key=/server/tls.key', '--client-cert=/client/ca.crt', '--server-address=:9090'];
        c.volumeMounts.push({ name: 'server', mountPath: '/tls/server.crt', subPath: 'tls.crt' });
      });
      expect(ofRule(f, 'CNPGI026')).toEqual([]);
    });
  });

  describe('CNPGI027 extra Secrets', () => {
    test('an extra Secret volume', () => {
      const f = ofRule(
        run((docs) => {
          plugin(docs).volumes.push({ name: 'old', secret: { secretName: 'backup-server-tls-old' } });
          plugin(docs).containers[0].volumeMounts.push({ name: 'old', mountPath: '/old' });
        }),
        'CNPGI027',
      );
      expect(summary(f)).toEqual(['CNPGI027 warning Deployment/cnpg-system/backup']);
    });
    test('an unmounted volume and env Secrets do not count', () => {
      const f = ofRule(
        run((docs) => {
          plugin(docs).volumes.push({ name: 'unused', secret: { secretName: 'x' } });
          plugin(docs).containers[0].env = [{ name: 'K', valueFrom: { secretKeyRef: { name: 'creds', key: 'k' } } }];
        }),
        'CNPGI027',
      );
      expect(f).toEqual([]);
    });
  });
});
