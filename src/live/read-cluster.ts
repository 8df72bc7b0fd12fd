/*
 * Reads a running cluster for the doctor: one LIST per kind (per namespace, or cluster-wide),
 * paged by the API server's `limit`/`continue`, never one request per object, and nothing but
 * GET. What could not be read (a kind the server does not serve, a list it forbids) is noted
 * and the rest is still read, so that partial permissions give partial results.
 */
import * as http from 'http';
import * as https from 'https';
import type { Json } from '../manifests/json';
import { LIVE_KINDS, LiveKind } from '../manifests/live-kinds';
import { KubeAccess, LiveAccessError, firstLine } from './kube-access';

/** The Secret keys whose values the live doctor keeps: the certificate and key material it checks. */
export const SECRET_KEYS_READ: readonly string[] = ['tls.crt', 'ca.crt', 'tls.key'];

/**
 * What stands for the value of any other Secret key: the key is kept (rules check that a key
 * exists), its value never leaves the reader. Base64 of `(not read)`.
 */
export const SECRET_VALUE_NOT_READ = Buffer.from('(not read)').toString('base64');

/** The metadata fields the API server sets, dropped from every live object before the doctor reads it. */
const SERVER_SET_METADATA = ['uid', 'resourceVersion', 'managedFields', 'creationTimestamp', 'generation', 'selfLink'];

/** Something that could not be read; the doctor's results are partial where there are any. */
export interface LiveGap {
  readonly kind: string;
  /** The namespace, or undefined for a cluster-wide list. */
  readonly namespace?: string;
  readonly reason: 'forbidden' | 'not-served';
  /** One line: what was tried and what to do. */
  readonly message: string;
}

/** What was read. */
export interface LiveRead {
  /** The objects, with `apiVersion` and `kind` set and the server-set metadata removed. */
  readonly objects: Json[];
  /** What could not be read. */
  readonly gaps: LiveGap[];
  /** How many HTTP requests were made (LIST pages). */
  readonly requests: number;
  /** Requests by kind. */
  readonly requestsByKind: ReadonlyMap<string, number>;
}

/** Options of `readLiveCluster`. */
export interface LiveReadOptions {
  /** Namespaces to read; cluster-wide when empty. */
  readonly namespaces: readonly string[];
  /** Objects per LIST page. @default 500 */
  readonly pageSize?: number;
  /** List only the namespaced kinds (the cluster-scoped ones were read already). @default false */
  readonly namespacedOnly?: boolean;
}

interface Response {
  readonly status: number;
  readonly body: string;
}

function get(url: string, options: Awaited<ReturnType<KubeAccess['requestOptions']>>): Promise<Response> {
  return new Promise((resolve, reject) => {
    const u = new URL(url);
    const lib = u.protocol === 'http:' ? http : https;
    const req = lib.request(
      u,
      {
        method: 'GET',
        headers: { Accept: 'application/json', ...options.headers },
        agent: options.agent,
        rejectUnauthorized: options.rejectUnauthorized,
        servername: options.servername,
        timeout: 30000,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error('no answer within 30 seconds')));
    req.on('error', reject);
    req.end();
  });
}

function pathOf(k: LiveKind, namespace: string | undefined): string {
  const base = k.group === '' ? `/api/${k.version}` : `/apis/${k.group}/${k.version}`;
  return namespace !== undefined && k.namespaced ? `${base}/namespaces/${encodeURIComponent(namespace)}/${k.resource}` : `${base}/${k.resource}`;
}

function apiVersionOf(k: LiveKind): string {
  return k.group === '' ? k.version : `${k.group}/${k.version}`;
}

/** The Status message of an error response, if it is one. */
function statusMessage(body: string): string | undefined {
  try {
    const s = JSON.parse(body) as { message?: unknown };
    return typeof s.message === 'string' ? s.message : undefined;
  } catch {
    return undefined;
  }
}

/** An object as the doctor reads it: kind set, server-set metadata dropped, Secret values outside the read keys replaced. */
export function liveObject(k: LiveKind, item: Json): Json {
  const o: Json = { apiVersion: apiVersionOf(k), kind: k.kind, ...item };
  const meta = { ...((o.metadata as Json | undefined) ?? {}) };
  for (const f of SERVER_SET_METADATA) delete meta[f];
  o.metadata = meta;
  if (k.kind === 'Secret') {
    const data = (o.data as Record<string, unknown> | undefined) ?? {};
    const kept: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(data)) kept[key] = SECRET_KEYS_READ.includes(key) ? value : SECRET_VALUE_NOT_READ;
    o.data = kept;
    delete o.stringData;
  }
  return o;
}

/**
 * Lists every kind of `LIVE_KINDS` (per namespace when `namespaces` are given). Throws a
 * `LiveAccessError` when the server cannot be reached or refuses the credentials (401); a kind
 * that is forbidden (403) or not served (404) is a gap, and the rest is read.
 */
export async function readLiveCluster(access: KubeAccess, options: LiveReadOptions): Promise<LiveRead> {
  const objects: Json[] = [];
  const gaps: LiveGap[] = [];
  const requestsByKind = new Map<string, number>();
  let requests = 0;
  const pageSize = options.pageSize ?? 500;
  const reqOptions = await access.requestOptions();
  const scopes = (k: LiveKind): Array<string | undefined> => (k.namespaced && options.namespaces.length > 0 ? [...options.namespaces] : [undefined]);
  for (const k of LIVE_KINDS) {
    if (options.namespacedOnly && !k.namespaced) continue;
    for (const namespace of scopes(k)) {
      let cont: string | undefined;
      const where = namespace !== undefined ? `in namespace ${namespace}` : 'cluster-wide';
      do {
        const query = new URLSearchParams({ limit: String(pageSize) });
        if (cont) query.set('continue', cont);
        const url = `${access.server}${pathOf(k, namespace)}?${query}`;
        let res: Response;
        try {
          requests++;
          requestsByKind.set(k.kind, (requestsByKind.get(k.kind) ?? 0) + 1);
          res = await get(url, reqOptions);
        } catch (e) {
          const code = (e as NodeJS.ErrnoException).code;
          throw new LiveAccessError(
            `cannot reach the API server ${access.server} (context '${access.context}' of ${access.source}): ${code ?? firstLine(e)}; check that the cluster runs and the address is right (kubectl --context ${access.context} get --raw /version), or pass --context NAME`,
          );
        }
        if (res.status === 401) {
          throw new LiveAccessError(
            `the API server ${access.server} refused the credentials of user '${access.user}' (context '${access.context}'): 401 Unauthorized on GET ${pathOf(k, namespace)}; renew the token or certificate in ${access.source}`,
          );
        }
        if (res.status === 403) {
          gaps.push({
            kind: k.kind,
            namespace,
            reason: 'forbidden',
            message: `cannot list ${k.resource}.${k.group || 'core'} ${where}: 403 Forbidden for user '${access.user}' (${statusMessage(res.body) ?? 'no reason given'}); the rules that read ${k.kind} objects are partial; grant the ClusterRole of 'cnpg-i-doctor cluster --print-cluster-role'`,
          });
          break;
        }
        if (res.status === 404) {
          gaps.push({
            kind: k.kind,
            namespace,
            reason: 'not-served',
            message: `${apiVersionOf(k)} ${k.resource} is not served by ${access.server} (404 on GET ${pathOf(k, namespace)}): its CRD is not installed, so no ${k.kind} was read; install it or ignore this if the cluster does not use it`,
          });
          break;
        }
        if (res.status !== 200) {
          throw new LiveAccessError(
            `GET ${pathOf(k, namespace)} on ${access.server} answered ${res.status}: ${statusMessage(res.body) ?? firstLine(res.body)}; retry, or check the API server's health`,
          );
        }
        let list: { items?: Json[]; metadata?: { continue?: string } };
        try {
          list = JSON.parse(res.body) as typeof list;
        } catch {
          throw new LiveAccessError(`GET ${pathOf(k, namespace)} on ${access.server} did not answer JSON; is ${access.server} a Kubernetes API server?`);
        }
        for (const item of list.items ?? []) objects.push(liveObject(k, item));
        cont = list.metadata?.continue || undefined;
      } while (cont);
      // a kind not served is not served in any namespace: one line is enough
      if (gaps.length > 0 && gaps[gaps.length - 1].kind === k.kind && gaps[gaps.length - 1].reason === 'not-served') break;
    }
  }
  return { objects, gaps, requests, requestsByKind };
}
