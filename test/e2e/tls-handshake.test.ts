/**
 * End to end: a real mTLS handshake between an operator peer and a plugin peer, both in Go,
 * over the certificates and files that the synthesized manifests describe.
 *
 * For each TLS mode of StandalonePlugin: synthesize; issue what the Certificates ask for, the way
 * cert-manager would, into the Secrets they name; start the plugin with the Deployment's own args,
 * only remapped from its Secret mounts to the Secret dirs; dial it as the operator does (client
 * pair from the pluginClientSecret, roots from the pluginServerSecret's tls.crt, server name from
 * pluginServerName or the short Service name). Then break it as users do and check the error.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { Chart, Testing } from 'cdk8s';
import * as YAML from 'yaml';
import { IssuerRef, PluginManifest, PluginTls, PrivateKeyAlgorithm, ScaleToZeroPlugin, StandalonePlugin, StandalonePluginProps } from '../../src';
import { describeWithShared, sharedPath } from '../shared';
import { buildPeers, dialAsOperator, ExternalCaIssuer, findGo, issue, IssuedCertificate, startPlugin } from './go-peers';
import { hostArgs, Manifest, PluginWiring, readPluginWiring, serverAddressPort } from './plugin-wiring';

const REQUIRED = process.env.CI === 'true' || process.env.CNPG_I_REQUIRE_SHARED === '1';
const toolchain = findGo();
if (!toolchain && REQUIRED) {
  throw new Error('the TLS e2e needs Go (CNPG_I_E2E_GO, go on PATH, or Debian golang-1.23-go) and is required in CI (CI=true or CNPG_I_REQUIRE_SHARED=1)');
}
if (!toolchain) console.warn('skipping the TLS e2e: no Go toolchain (CNPG_I_E2E_GO, go on PATH, or Debian golang-1.23-go)');
const describeGo = toolchain ? describe : describe.skip;

const HELLO_WORLD = sharedPath('reference', 'cnpg-i-hello-world-kubernetes');
const BARMAN_MANIFEST = sharedPath('reference', 'plugin-barman-cloud-v0.14.0-manifest.yaml');
const SCALE_TO_ZERO_MANIFEST = sharedPath('reference', 'cnpg-i-scale-to-zero-v0.1.9-manifest.yaml');

const NAMESPACE = 'cnpg-system';
const PLUGIN_NAME = 'cnpg-i-hello-world.cloudnative-pg.io';

let work: string;
let bin: string;

function synth(props: Partial<StandalonePluginProps>, chartId = 'e2e', pluginId = 'hello'): Manifest[] {
  const chart = new Chart(Testing.app(), chartId, { namespace: NAMESPACE });
  new StandalonePlugin(chart, pluginId, {
    pluginName: PLUGIN_NAME,
    image: 'ghcr.io/cloudnative-pg/cnpg-i-hello-world:v0.1.0',
    args: ['plugin'],
    ...props,
  });
  return Testing.synth(chart) as Manifest[];
}

/** hello-world's kustomize folder rendered as kustomize would: every object in NAMESPACE. */
function helloWorld(): Manifest[] {
  return fs
    .readdirSync(HELLO_WORLD)
    .filter((f) => f.endsWith('.yaml') && f !== 'kustomization.yaml')
    .sort()
    .flatMap((f) => YAML.parseAllDocuments(fs.readFileSync(path.join(HELLO_WORLD, f), 'utf8')).map((d) => d.toJSON() as Manifest))
    .filter((o) => o && o.kind)
    .map((o) => ({ ...o, metadata: { ...o.metadata, namespace: o.metadata.namespace ?? NAMESPACE } }));
}

function certManagerObjects(objects: Manifest[]): Manifest[] {
  return objects.filter((o) => o.apiVersion.startsWith('cert-manager.io/'));
}

/** A CA that exists outside the manifests (the user's own), as a self-signed CA Certificate. */
function ownCa(name: string, commonName: string): Manifest[] {
  return [
    { apiVersion: 'cert-manager.io/v1', kind: 'Issuer', metadata: { name: `${name}-bootstrap` }, spec: { selfSigned: {} } },
    {
      apiVersion: 'cert-manager.io/v1',
      kind: 'Certificate',
      metadata: { name },
      spec: {
        secretName: name,
        commonName,
        isCA: true,
        usages: ['cert sign', 'crl sign'],
        privateKey: { algorithm: 'ECDSA', size: 384 },
        duration: '87600h',
        issuerRef: { name: `${name}-bootstrap`, kind: 'Issuer' },
      },
    },
  ];
}

let caseNo = 0;
function newSecretsDir(): string {
  return path.join(work, `case-${++caseNo}`, 'secrets');
}

interface Handshake {
  readonly wiring: PluginWiring;
  readonly ok: boolean;
  readonly error?: string;
  readonly pluginName?: string;
  readonly tlsVersion?: string;
  readonly alpn?: string;
  readonly pluginLog: string;
  /** What the issuer issued, when issueAndShake issued it. */
  readonly issued?: IssuedCertificate[];
}

/**
 * Starts the plugin from the wiring's container args and dials it as the operator would.
 * `waitForPluginLog` waits for a line the plugin logs after the handshake (its own view).
 */
async function handshake(wiring: PluginWiring, secretsDir: string, waitForPluginLog?: string): Promise<Handshake> {
  const args = hostArgs(wiring, secretsDir, '127.0.0.1:0');
  const plugin = await startPlugin(bin, args, wiring.pluginName);
  try {
    const res = await dialAsOperator(bin, {
      serverSecretDir: path.join(secretsDir, wiring.serverSecretName),
      clientSecretDir: path.join(secretsDir, wiring.clientSecretName),
      serverName: wiring.serverName,
      port: plugin.port,
    });
    if (waitForPluginLog) await plugin.waitForLog(waitForPluginLog);
    return { wiring, ...res, pluginLog: plugin.log() };
  } finally {
    await plugin.stop();
  }
}

/** Issues the synthesized Certificates (plus `extra` objects) and shakes hands. */
async function issueAndShake(
  objects: Manifest[],
  opts: { extra?: Manifest[]; caIssuers?: ExternalCaIssuer[]; mutate?: (certs: Manifest[]) => Manifest[]; waitForPluginLog?: string } = {},
): Promise<Handshake> {
  const wiring = readPluginWiring(objects);
  const secretsDir = newSecretsDir();
  let certs = [...certManagerObjects(objects), ...(opts.extra ?? [])];
  if (opts.mutate) certs = opts.mutate(certs);
  const issued = await issue(bin, { namespace: wiring.namespace, secretsDir, objects: certs, caIssuers: opts.caIssuers });
  return { ...(await handshake(wiring, secretsDir, opts.waitForPluginLog)), issued };
}

/** Replaces the spec fields of the one Certificate whose secretName is `secretName`. */
function patchCertificate(secretName: string, patch: Record<string, unknown>): (certs: Manifest[]) => Manifest[] {
  return (certs) => {
    const hits = certs.filter((c) => c.kind === 'Certificate' && c.spec.secretName === secretName);
    expect(hits).toHaveLength(1);
    return certs.map((c) => (c === hits[0] ? { ...c, spec: { ...c.spec, ...patch } } : c));
  };
}

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** What the operator peer reports when the plugin rejects it for lack of a certificate. */
function certificateRequiredError(): RegExp {
  // Go 1.21+ servers send the TLS 1.3 alert certificate_required; older ones send bad_certificate.
  return toolchain && toolchain.minor >= 21 ? /^error reading server preface: remote error: tls: certificate required$/ : /remote error: tls: bad certificate/;
}

describeGo('TLS handshake between Go operator and plugin peers', () => {
  beforeAll(() => {
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'cdk8s-cnpg-i-e2e-'));
    bin = buildPeers(toolchain!, work);
  }, 120_000);

  afterAll(() => {
    if (work) fs.rmSync(work, { recursive: true, force: true });
  });

  describe('every TLS mode of StandalonePlugin shakes hands', () => {
    test('selfSigned(): one self-signed certificate per side, the plugin trusts the client ca.crt', async () => {
      const objects = synth({});
      const hs = await issueAndShake(objects, { waitForPluginLog: 'GetPluginMetadata from client certificate' });
      expect(hs.error).toBeUndefined();
      expect(hs).toMatchObject({ ok: true, pluginName: PLUGIN_NAME, tlsVersion: 'TLS 1.3', alpn: 'h2' });
      // Without the annotation the operator verifies the short Service name.
      expect(hs.wiring.service.metadata.annotations?.['cnpg.io/pluginServerName']).toBeUndefined();
      expect(hs.wiring.serverName).toBe(hs.wiring.service.metadata.name);
      // What was issued follows the Certificates: SANs, key, 90 days, one SelfSigned Issuer.
      const svc = hs.wiring.service.metadata.name;
      const server = hs.issued!.find((c) => c.secretName === hs.wiring.serverSecretName)!;
      expect(server.dnsNames).toEqual([svc, `${svc}.${NAMESPACE}`, `${svc}.${NAMESPACE}.svc`, `${svc}.${NAMESPACE}.svc.cluster.local`]);
      expect(server.keyType).toBe('ECDSA-256');
      expect(Date.parse(server.notAfter) - Date.parse(server.notBefore)).toBe(2160 * 3600 * 1000);
      expect(new Set(hs.issued!.map((c) => c.issuer)).size).toBe(1);
      expect(hs.issued!.map((c) => c.secretName).sort()).toEqual([hs.wiring.clientSecretName, hs.wiring.serverSecretName].sort());
    });

    test('the ports agree: annotation = Service port = targetPort = containerPort = --server-address', () => {
      const wiring = readPluginWiring(synth({ port: 9443 }));
      const svcPort = wiring.service.spec.ports.find((p: any) => p.port === wiring.port);
      expect(wiring.port).toBe(9443);
      expect(svcPort?.targetPort).toBe(9443);
      expect(wiring.containerPorts).toContain(9443);
      expect(serverAddressPort(wiring)).toBe(9443);
    });

    test('selfSigned() with serverName: the operator verifies the pluginServerName annotation', async () => {
      const objects = synth({
        serverName: 'hello.plugins.example.internal',
        tls: PluginTls.selfSigned({ privateKeyAlgorithm: PrivateKeyAlgorithm.RSA, privateKeySize: 2048 }),
      });
      const hs = await issueAndShake(objects);
      expect(hs.wiring.serverName).toBe('hello.plugins.example.internal');
      expect(hs.error).toBeUndefined();
      expect(hs.ok).toBe(true);
    });

    test('privateCa(): leaves issued by a CA of their own, the plugin trusts the CA (client ca.crt)', async () => {
      const objects = synth({ tls: PluginTls.privateCa() });
      const hs = await issueAndShake(objects, { waitForPluginLog: 'GetPluginMetadata from client certificate' });
      expect(hs.error).toBeUndefined();
      expect(hs).toMatchObject({ ok: true, tlsVersion: 'TLS 1.3', alpn: 'h2' });
    });

    test('privateCa() with a 63-character Service name (common names cut at 64)', async () => {
      const serviceName = `p${'x'.repeat(61)}y`;
      const objects = synth({
        serviceName,
        serverName: 'plugin.example.internal',
        tls: PluginTls.privateCa({ privateKeyAlgorithm: PrivateKeyAlgorithm.ED25519 }),
      });
      const hs = await issueAndShake(objects);
      expect(hs.wiring.service.metadata.name).toBe(serviceName);
      expect(hs.error).toBeUndefined();
      expect(hs.ok).toBe(true);
    });

    test("fromIssuer(IssuerRef.issuer('corp-ca')): leaves from the user's namespaced CA Issuer", async () => {
      const objects = synth({ tls: PluginTls.fromIssuer(IssuerRef.issuer('corp-ca')) });
      expect(certManagerObjects(objects).map((o) => o.kind)).toEqual(['Certificate', 'Certificate']);
      const hs = await issueAndShake(objects, {
        extra: ownCa('corp-ca-keypair', 'Corp CA'),
        caIssuers: [{ kind: 'Issuer', name: 'corp-ca', secretName: 'corp-ca-keypair' }],
      });
      expect(hs.error).toBeUndefined();
      expect(hs.ok).toBe(true);
    });

    test("fromIssuer(IssuerRef.clusterIssuer('corp-root')) with Ed25519 keys", async () => {
      const objects = synth({ tls: PluginTls.fromIssuer(IssuerRef.clusterIssuer('corp-root'), { privateKeyAlgorithm: PrivateKeyAlgorithm.ED25519 }) });
      const hs = await issueAndShake(objects, {
        extra: ownCa('corp-root-keypair', 'Corp Root'),
        caIssuers: [{ kind: 'ClusterIssuer', name: 'corp-root', secretName: 'corp-root-keypair' }],
      });
      expect(hs.error).toBeUndefined();
      expect(hs.ok).toBe(true);
    });

    test('fromIssuer(IssuerRef.external(...)): an external CA issuer', async () => {
      const ref = IssuerRef.external({ group: 'awspca.cert-manager.io', kind: 'AWSPCAClusterIssuer', name: 'pca' });
      const objects = synth({ tls: PluginTls.fromIssuer(ref) });
      const hs = await issueAndShake(objects, {
        extra: ownCa('pca-keypair', 'Private CA'),
        caIssuers: [{ group: 'awspca.cert-manager.io', kind: 'AWSPCAClusterIssuer', name: 'pca', secretName: 'pca-keypair' }],
      });
      expect(hs.error).toBeUndefined();
      expect(hs.ok).toBe(true);
    });

    test.each([
      ['ca.crt', undefined],
      ['a custom clientCaKey', 'client-ca.pem'],
    ])('fromSecrets() with Secrets made outside the chart (%s)', async (_label, clientCaKey) => {
      const objects = synth({ tls: PluginTls.fromSecrets({ clientSecretName: 'hello-client-tls', serverSecretName: 'hello-server-tls', clientCaKey }) });
      expect(certManagerObjects(objects)).toEqual([]);
      const wiring = readPluginWiring(objects);
      expect(wiring.clientSecretName).toBe('hello-client-tls');
      expect(wiring.serverSecretName).toBe('hello-server-tls');
      // The test plays the user who made these Secrets with their own CA.
      const secretsDir = newSecretsDir();
      const leaf = (name: string, spec: Record<string, unknown>): Manifest => ({
        apiVersion: 'cert-manager.io/v1',
        kind: 'Certificate',
        metadata: { name },
        spec: { secretName: name, privateKey: { algorithm: 'ECDSA' }, issuerRef: { name: 'own-ca', kind: 'Issuer' }, ...spec },
      });
      await issue(bin, {
        namespace: NAMESPACE,
        secretsDir,
        objects: [
          ...ownCa('own-ca-keypair', 'Own CA'),
          { apiVersion: 'cert-manager.io/v1', kind: 'Issuer', metadata: { name: 'own-ca' }, spec: { ca: { secretName: 'own-ca-keypair' } } },
          leaf('hello-server-tls', { dnsNames: [wiring.serverName], usages: ['server auth'] }),
          leaf('hello-client-tls', { commonName: 'cnpg-operator', usages: ['client auth'] }),
        ],
      });
      if (clientCaKey) {
        fs.renameSync(path.join(secretsDir, 'hello-client-tls', 'ca.crt'), path.join(secretsDir, 'hello-client-tls', clientCaKey));
        expect(wiring.containerArgs).toContain(`--client-cert=/client/${clientCaKey}`);
      }
      const hs = await handshake(wiring, secretsDir);
      expect(hs.error).toBeUndefined();
      expect(hs.ok).toBe(true);
    });
  });

  describe('broken variants fail with the error the operator would log', () => {
    test('wrong SAN: the server certificate does not name what the operator verifies', async () => {
      const objects = synth({});
      const wiring = readPluginWiring(objects);
      const fqdn = `${wiring.service.metadata.name}.${NAMESPACE}.svc`;
      const hs = await issueAndShake(objects, {
        // What a hand-written Certificate often has: the FQDN only, or the name in the CN only.
        mutate: patchCertificate(wiring.serverSecretName, { dnsNames: [fqdn], commonName: wiring.serverName }),
        waitForPluginLog: 'TLS handshake error',
      });
      expect(hs.ok).toBe(false);
      // Go 1.20+ prefix it with `tls: failed to verify certificate: `; the x509 part is stable.
      expect(hs.error).toMatch(new RegExp(`x509: certificate is valid for ${escape(fqdn)}, not ${escape(wiring.serverName)}$`));
      if (toolchain!.minor >= 20) expect(hs.error).toBe(`tls: failed to verify certificate: x509: certificate is valid for ${fqdn}, not ${wiring.serverName}`);
      expect(hs.pluginLog).toContain('remote error: tls: bad certificate');
    });

    test('privateCa() leaves with the plugin trusting the client tls.crt: tls: certificate required', async () => {
      const objects = synth({ tls: PluginTls.privateCa() });
      const wiring = readPluginWiring(objects);
      // The upstream layout (--client-cert=/client/tls.crt) under a CA issuer.
      const upstreamLayout: PluginWiring = {
        ...wiring,
        containerArgs: wiring.containerArgs.map((a) => (a === '--client-cert=/client/ca.crt' ? '--client-cert=/client/tls.crt' : a)),
      };
      expect(upstreamLayout.containerArgs).toContain('--client-cert=/client/tls.crt');
      const secretsDir = newSecretsDir();
      await issue(bin, { namespace: NAMESPACE, secretsDir, objects: certManagerObjects(objects) });
      const hs = await handshake(upstreamLayout, secretsDir, "client didn't provide a certificate");
      expect(hs.ok).toBe(false);
      // The plugin's side is the same on every Go version.
      expect(hs.pluginLog).toMatch(/http: TLS handshake error from 127\.0\.0\.1:\d+: tls: client didn't provide a certificate/);
      expect(hs.error).toMatch(certificateRequiredError());
    });

    test('a client certificate without client auth usage is refused by the plugin', async () => {
      const objects = synth({});
      const wiring = readPluginWiring(objects);
      const hs = await issueAndShake(objects, {
        mutate: patchCertificate(wiring.clientSecretName, { usages: ['digital signature', 'server auth'] }),
        waitForPluginLog: 'TLS handshake error',
      });
      expect(hs.ok).toBe(false);
      // `tls: failed to verify certificate:` since Go 1.20, `... client certificate:` before.
      expect(hs.pluginLog).toMatch(
        /TLS handshake error from .*: tls: failed to verify (client )?certificate: x509: certificate specifies an incompatible key usage/,
      );
      expect(hs.error).toBe('error reading server preface: remote error: tls: bad certificate');
    });

    test('a Certificate without any subject or SAN is rejected before anything is issued', async () => {
      const objects = synth({});
      const wiring = readPluginWiring(objects);
      await expect(
        issueAndShake(objects, { mutate: patchCertificate(wiring.clientSecretName, { commonName: undefined, dnsNames: undefined }) }),
      ).rejects.toThrow('at least one of commonName');
    });
  });

  describe("the presets shake hands in a namespace of the user's choice", () => {
    test('ScaleToZeroPlugin in databases-system: the operator verifies the Service name there', async () => {
      const chart = new Chart(Testing.app(), 'e2e', { namespace: 'databases-system' });
      new ScaleToZeroPlugin(chart, 'scale-to-zero');
      const objects = Testing.synth(chart) as Manifest[];
      const hs = await issueAndShake(objects);
      expect(hs.error).toBeUndefined();
      expect(hs.ok).toBe(true);
      expect(hs.wiring.namespace).toBe('databases-system');
      expect(hs.wiring.pluginName).toBe(ScaleToZeroPlugin.PLUGIN_NAME);
      const svc = hs.wiring.service.metadata.name;
      const server = hs.issued!.find((c) => c.secretName === hs.wiring.serverSecretName)!;
      expect(server.dnsNames).toContain(`${svc}.databases-system.svc`);
    });
  });

  describeWithShared('release manifests adopted with PluginManifest into databases-system (../shared/reference)', () => {
    /** The pinned images each manifest is adopted with: the upstream files name development builds. */
    function pinnedImages(file: string): { image: string; sidecarImage?: string } {
      if (file === BARMAN_MANIFEST) {
        return { image: 'ghcr.io/cloudnative-pg/plugin-barman-cloud:v0.14.0', sidecarImage: 'ghcr.io/cloudnative-pg/plugin-barman-cloud-sidecar:v0.14.0' };
      }
      if (file === SCALE_TO_ZERO_MANIFEST) {
        return { image: 'ghcr.io/xataio/cnpg-i-scale-to-zero:v0.1.9', sidecarImage: 'ghcr.io/xataio/cnpg-i-scale-to-zero-sidecar:v0.1.9' };
      }
      return { image: 'ghcr.io/cloudnative-pg/cnpg-i-hello-world:v0.1.0' };
    }

    function adopt(file: string, tls?: PluginTls): Manifest[] {
      const chart = new Chart(Testing.app(), 'e2e', { namespace: 'databases-system' });
      new PluginManifest(chart, 'plugin', { path: file, tls, ...pinnedImages(file) });
      return Testing.synth(chart) as Manifest[];
    }

    test.each([
      ['plugin-barman-cloud v0.14.0', BARMAN_MANIFEST, 'barman-cloud.cloudnative-pg.io'],
      ['cnpg-i-scale-to-zero v0.1.9', SCALE_TO_ZERO_MANIFEST, 'cnpg-i-scale-to-zero.xata.io'],
    ])('%s as released: its own self-signed certificates, re-homed', async (_name, file, pluginName) => {
      const hs = await issueAndShake(adopt(file));
      expect(hs.error).toBeUndefined();
      expect(hs).toMatchObject({ ok: true, pluginName, tlsVersion: 'TLS 1.3' });
      expect(hs.wiring.namespace).toBe('databases-system');
      expect(hs.wiring.containerArgs).toContain('--client-cert=/client/tls.crt');
    });

    test("hello-world's kustomize folder, rendered: the released layout shakes hands in databases-system", async () => {
      const dir = path.join(work, 'hello-world-rendered');
      fs.mkdirSync(dir, { recursive: true });
      const rendered = helloWorld();
      fs.writeFileSync(path.join(dir, 'all.yaml'), rendered.map((o) => YAML.stringify(o)).join('---\n'));
      const hs = await issueAndShake(adopt(dir));
      expect(hs.error).toBeUndefined();
      expect(hs).toMatchObject({ ok: true, pluginName: PLUGIN_NAME });
      expect(hs.wiring.namespace).toBe('databases-system');
    });

    test('plugin-barman-cloud v0.14.0 with PluginTls.privateCa(): the plugin now trusts the CA', async () => {
      const hs = await issueAndShake(adopt(BARMAN_MANIFEST, PluginTls.privateCa()), { waitForPluginLog: 'GetPluginMetadata from client certificate' });
      expect(hs.error).toBeUndefined();
      expect(hs).toMatchObject({ ok: true, pluginName: 'barman-cloud.cloudnative-pg.io' });
      expect(hs.wiring.containerArgs).toContain('--client-cert=/client/ca.crt');
      const server = hs.issued!.find((c) => c.secretName === hs.wiring.serverSecretName)!;
      expect(server.dnsNames).toContain('barman-cloud.databases-system.svc');
    });
  });

  describeWithShared('the upstream hello-world manifests (../shared/reference)', () => {
    test('shake hands as released: self-signed leaves, the plugin trusts the client tls.crt', async () => {
      const objects = helloWorld();
      const hs = await issueAndShake(objects);
      expect(hs.wiring.containerArgs).toContain('--client-cert=/client/tls.crt');
      expect(hs.error).toBeUndefined();
      expect(hs.ok).toBe(true);
    });

    test('the same layout under a CA issuer fails with tls: certificate required', async () => {
      const objects = helloWorld();
      const hs = await issueAndShake(objects, {
        extra: ownCa('hello-ca-keypair', 'Hello CA'),
        caIssuers: [{ kind: 'Issuer', name: 'hello-ca', secretName: 'hello-ca-keypair' }],
        mutate: (certs) =>
          certs.map((c) =>
            c.kind === 'Certificate' && c.spec.secretName !== 'hello-ca-keypair'
              ? { ...c, spec: { ...c.spec, issuerRef: { name: 'hello-ca', kind: 'Issuer' } } }
              : c,
          ),
        waitForPluginLog: "client didn't provide a certificate",
      });
      expect(hs.ok).toBe(false);
      expect(hs.error).toMatch(certificateRequiredError());
    });
  });
});
