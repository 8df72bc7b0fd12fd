/*
 * A small Kubernetes API server for the live doctor's tests: real TLS (the certificates of
 * test/fixtures/live), bearer-token or client-certificate authentication, LIST of the kinds it
 * is given with limit/continue paging, 401, 403 and 404 as the real one answers them. It counts
 * every request, so that a test can assert the number of calls.
 */
import * as fs from 'fs';
import * as https from 'https';
import type { AddressInfo } from 'net';
import * as path from 'path';
import type { KubeAccess } from '../../src/live/kube-access';

export const FIXTURES = path.join(__dirname, '..', 'fixtures', 'live');
export const fixture = (name: string) => fs.readFileSync(path.join(FIXTURES, name), 'utf8');

export interface FakeOptions {
  /** The objects served, each with apiVersion and kind. */
  readonly objects: readonly Record<string, unknown>[];
  /** Accepted bearer tokens. @default ['good-token'] */
  readonly tokens?: readonly string[];
  /** Accept a client certificate issued by the fixture CA. @default true */
  readonly clientCertificates?: boolean;
  /** Resources (`pods`, `secrets`) whose LIST answers 403. */
  readonly forbidden?: readonly string[];
  /** API groups not served (404), e.g. `cert-manager.io`. */
  readonly notServed?: readonly string[];
}

export interface FakeApiServer {
  readonly url: string;
  /** Every request path, in order. */
  readonly requests: string[];
  close(): Promise<void>;
}

const PLURAL: Record<string, string> = {
  Deployment: 'deployments',
  Service: 'services',
  EndpointSlice: 'endpointslices',
  Secret: 'secrets',
  ConfigMap: 'configmaps',
  Pod: 'pods',
  Certificate: 'certificates',
  Issuer: 'issuers',
  ClusterIssuer: 'clusterissuers',
  Cluster: 'clusters',
  Backup: 'backups',
  ScheduledBackup: 'scheduledbackups',
  Pooler: 'poolers',
  Database: 'databases',
  ObjectStore: 'objectstores',
};

const LIST_PATH = /^\/(?:api\/(v1)|apis\/([^/]+)\/([^/]+))(?:\/namespaces\/([^/]+))?\/([a-z]+)$/;

function groupOf(apiVersion: string): { group: string; version: string } {
  const i = apiVersion.indexOf('/');
  return i < 0 ? { group: '', version: apiVersion } : { group: apiVersion.slice(0, i), version: apiVersion.slice(i + 1) };
}

/** Starts the fake server on a free port of 127.0.0.1. */
export async function startFakeApiServer(options: FakeOptions): Promise<FakeApiServer> {
  const requests: string[] = [];
  const tokens = options.tokens ?? ['good-token'];
  const server = https.createServer(
    {
      cert: fixture('server.crt'),
      key: fixture('server.key'),
      ca: fixture('ca.crt'),
      requestCert: options.clientCertificates !== false,
      rejectUnauthorized: false,
    },
    (req, res) => {
      const url = new URL(req.url ?? '/', 'https://x');
      requests.push(url.pathname);
      const send = (status: number, body: unknown) => {
        res.writeHead(status, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      const auth = req.headers.authorization ?? '';
      const socket = req.socket as import('tls').TLSSocket;
      const certOk = options.clientCertificates !== false && socket.authorized === true && Object.keys(socket.getPeerCertificate()).length > 0;
      if (!certOk && !tokens.some((t) => auth === `Bearer ${t}`)) {
        send(401, { kind: 'Status', apiVersion: 'v1', status: 'Failure', message: 'Unauthorized', reason: 'Unauthorized', code: 401 });
        return;
      }
      const m = LIST_PATH.exec(url.pathname);
      if (req.method !== 'GET' || !m) {
        send(404, { kind: 'Status', status: 'Failure', message: 'the server could not find the requested resource', reason: 'NotFound', code: 404 });
        return;
      }
      const [, coreVersion, group = '', version = coreVersion, namespace, resource] = m;
      if ((options.notServed ?? []).includes(group)) {
        send(404, { kind: 'Status', status: 'Failure', message: 'the server could not find the requested resource', reason: 'NotFound', code: 404 });
        return;
      }
      if ((options.forbidden ?? []).includes(resource)) {
        const user = certOk ? 'doctor-user' : 'system:serviceaccount:default:doctor';
        send(403, {
          kind: 'Status',
          status: 'Failure',
          message: `${resource} is forbidden: User "${user}" cannot list resource "${resource}" in API group "${group}"${namespace ? ` in the namespace "${namespace}"` : ' at the cluster scope'}`,
          reason: 'Forbidden',
          code: 403,
        });
        return;
      }
      const items = options.objects.filter((o) => {
        const gv = groupOf(String(o.apiVersion));
        const meta = (o.metadata ?? {}) as { namespace?: string };
        return gv.group === group && gv.version === version && PLURAL[String(o.kind)] === resource && (namespace === undefined || meta.namespace === namespace);
      });
      const limit = Number(url.searchParams.get('limit') ?? '0') || items.length || 1;
      const start = Number(url.searchParams.get('continue') ?? '0');
      const page = items.slice(start, start + limit).map((o) => {
        const { apiVersion: _a, kind: _k, ...rest } = o;
        const meta = (rest.metadata ?? {}) as Record<string, unknown>;
        // what the API server adds to every object: the live doctor must drop it
        return {
          ...rest,
          metadata: {
            ...meta,
            uid: `uid-${String(meta.name)}`,
            resourceVersion: '42',
            creationTimestamp: '2026-12-01T00:00:00Z',
            managedFields: [{ manager: 'kubectl' }],
          },
        };
      });
      const next = start + limit < items.length ? String(start + limit) : undefined;
      send(200, {
        kind: `${resource}List`,
        apiVersion: group ? `${group}/${version}` : version,
        metadata: { resourceVersion: '42', ...(next ? { continue: next } : {}) },
        items: page,
      });
    },
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `https://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A KubeAccess to the fake server with a bearer token, as the kubeconfig reader would give it. */
export function tokenAccess(url: string, token = 'good-token'): KubeAccess {
  const agent = new https.Agent({ ca: fixture('ca.crt') });
  return {
    server: url,
    context: 'test',
    user: 'tester',
    source: 'the test',
    requestOptions: async () => ({ agent, headers: { Authorization: `Bearer ${token}` } }),
  };
}
