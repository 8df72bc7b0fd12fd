/*
 * How `cnpg-i-doctor cluster` reaches an API server: the kubeconfig is read by the official
 * Kubernetes client for Node (`@kubernetes/client-node`), which resolves contexts, client
 * certificates, tokens and exec credential plugins as kubectl does. The client is required here,
 * on first use only, so that neither the library nor the manifest doctor ever loads it; the
 * published package carries its KubeConfig as one bundled file (scripts/bundle-kube-client.mjs).
 */
import type { Agent } from 'https';

/** Where to send requests and how to authenticate them, resolved from a kubeconfig. */
export interface KubeAccess {
  /** The API server's base URL, e.g. `https://127.0.0.1:6443`. */
  readonly server: string;
  /** The kubeconfig context used. */
  readonly context: string;
  /** The kubeconfig user of that context. */
  readonly user: string;
  /** Where the kubeconfig came from (a file, `$KUBECONFIG`, or in-cluster). */
  readonly source: string;
  /** Per-request options: the TLS agent (CA, client certificate) and headers (a bearer token). */
  readonly requestOptions: () => Promise<{ agent?: Agent; headers: Record<string, string>; rejectUnauthorized?: boolean; servername?: string }>;
}

/** A failure to use the cluster, said in one line (what was tried, what to do). */
export class LiveAccessError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'LiveAccessError';
  }
}

/** The options that choose a kubeconfig and a context. */
export interface KubeAccessOptions {
  /** A kubeconfig file. @default - `$KUBECONFIG`, else `~/.kube/config`, else in-cluster */
  readonly kubeconfig?: string;
  /** A context of the kubeconfig. @default - its current context */
  readonly context?: string;
}

interface ClientNode {
  KubeConfig: new () => {
    loadFromFile(file: string): void;
    loadFromDefault(): void;
    getContexts(): Array<{ name: string; user: string; cluster: string }>;
    getCurrentContext(): string;
    setCurrentContext(name: string): void;
    getCurrentCluster(): { server: string; tlsServerName?: string } | null;
    getCurrentUser(): { name: string } | null;
    applyToHTTPSOptions(opts: Record<string, unknown>): Promise<void>;
  };
}

/** Reads the kubeconfig and resolves the context; throws a `LiveAccessError` saying what is wrong. */
export function resolveKubeAccess(options: KubeAccessOptions): KubeAccess {
  // Required here, not imported at the top: only this command needs it. `npm run build` points
  // this require at the bundle of the client's KubeConfig (scripts/bundle-kube-client.mjs).
  const k8s = require('@kubernetes/client-node') as ClientNode;
  const kc = new k8s.KubeConfig();
  const source =
    options.kubeconfig ?? (process.env.KUBECONFIG ? `$KUBECONFIG (${process.env.KUBECONFIG})` : 'the default kubeconfig (~/.kube/config, else in-cluster)');
  try {
    if (options.kubeconfig !== undefined) kc.loadFromFile(options.kubeconfig);
    else kc.loadFromDefault();
  } catch (e) {
    throw new LiveAccessError(`cannot read the kubeconfig ${source}: ${firstLine(e)}; pass --kubeconfig FILE with a readable kubeconfig`);
  }
  if (options.context !== undefined) {
    const names = kc.getContexts().map((c) => c.name);
    if (!names.includes(options.context)) {
      throw new LiveAccessError(
        `--context ${options.context}: the kubeconfig ${source} has no such context; it has ${names.length > 0 ? names.map((n) => `'${n}'`).join(', ') : 'none'}`,
      );
    }
    kc.setCurrentContext(options.context);
  }
  const context = kc.getCurrentContext();
  const cluster = kc.getCurrentCluster();
  if (!cluster || !cluster.server) {
    throw new LiveAccessError(`the kubeconfig ${source} names no cluster server for context '${context}'; pass --context NAME or --kubeconfig FILE`);
  }
  const user = kc.getCurrentUser()?.name ?? '(none)';
  return {
    server: cluster.server.replace(/\/+$/, ''),
    context,
    user,
    source,
    requestOptions: async () => {
      const o: Record<string, unknown> = {};
      try {
        await kc.applyToHTTPSOptions(o);
      } catch (e) {
        throw new LiveAccessError(
          `cannot get the credentials of user '${user}' (context '${context}'): ${firstLine(e)}; check the user's exec plugin or token in ${source}`,
        );
      }
      return {
        agent: o.agent as Agent | undefined,
        headers: { ...((o.headers as Record<string, string> | undefined) ?? {}) },
        ...(o.rejectUnauthorized === false ? { rejectUnauthorized: false } : {}),
        ...(cluster.tlsServerName ? { servername: cluster.tlsServerName } : {}),
      };
    },
  };
}

/** The first line of an error's message. */
export function firstLine(e: unknown): string {
  const text = e instanceof Error ? e.message : String(e);
  return text.split('\n')[0];
}
