/*
 * How a refused synth reads under `cdk8s synth`. cdk8s (2.70.106 App.synth, `validate`) throws
 * one Error listing every validation error as `[<construct path>] <message>`, with `[]` for the
 * App; Node.js then prints the throwing line of cdk8s, the message and two stack traces, and
 * cdk8s-cli (2.207.60 lib/util.js `shell`) adds its own. The one useful part is the list.
 */
import type { ApiObject } from 'cdk8s';
import type { IConstruct } from 'constructs';
import type { Finding } from './finding';

/** The start of the message of cdk8s's validation error (cdk8s 2.70.106 app.ts `validate`). */
const CDK8S_VALIDATION_FAILED = 'Validation failed with the following errors:';

/**
 * Whether this process runs under `cdk8s synth`: cdk8s-cli 2.207.60 lib/util.js synthApp sets
 * `CDK8S_RECORD_CONSTRUCT_METADATA` for the app it runs.
 * @internal
 */
export function underCdk8sCli(env: NodeJS.ProcessEnv = process.env): boolean {
  return env.CDK8S_RECORD_CONSTRUCT_METADATA !== undefined && env.CDK8S_OUTDIR !== undefined;
}

/**
 * Where a finding's object comes from, for the line under it: the construct path of the object
 * the app writes, else the file of the previous output that held it.
 * @internal
 */
export class ObjectPlaces {
  private readonly paths = new Map<string, string>();

  public constructor(
    apiObjects: readonly ApiObject[],
    private readonly sources?: ReadonlyMap<unknown, string>,
    private readonly previous: readonly unknown[] = [],
  ) {
    for (const o of apiObjects) {
      // the construct a user wrote: an L2's ApiObject is its child `Resource`
      const owner = o.node.id === 'Resource' && o.node.scope !== undefined ? o.node.scope : o;
      for (const key of refsOf(o.kind, o.metadata.namespace, o.name)) if (!this.paths.has(key)) this.paths.set(key, owner.node.path);
    }
  }

  /** `construct <path>`, `was in <file>`, or undefined when neither is known. */
  public of(finding: Finding): string | undefined {
    const constructPath = this.paths.get(finding.object);
    if (constructPath !== undefined) return `construct ${constructPath}`;
    if (this.sources === undefined) return undefined;
    for (const raw of this.previous) {
      const m = (raw ?? {}) as { kind?: unknown; metadata?: { name?: unknown; namespace?: unknown } };
      if (typeof m.kind !== 'string' || typeof m.metadata?.name !== 'string') continue;
      const ns = typeof m.metadata.namespace === 'string' ? m.metadata.namespace : undefined;
      if (refsOf(m.kind, ns, m.metadata.name).includes(finding.object)) {
        const file = this.sources.get(raw);
        if (file !== undefined) return `was in ${file}`;
      }
    }
    return undefined;
  }
}

/** The refs a finding may give an object: `Kind/namespace/name` and, without a namespace, `Kind/name` and `Kind/default/name`. */
function refsOf(kind: string, namespace: string | undefined, name: string): string[] {
  return namespace === undefined ? [`${kind}/${name}`, `${kind}/default/${name}`] : [`${kind}/${namespace}/${name}`];
}

/** A refusal's line for a finding: the finding, then where its object is, indented under it. @internal */
export function refusalLine(line: string, place: string | undefined): string {
  return place === undefined ? line : `${line}\n    at ${place}`;
}

const installed = new WeakSet<IConstruct>();

/**
 * Under `cdk8s synth`, makes a refused `app.synth()` print the validation errors once, first, on
 * standard error (without cdk8s's `[]` for the App and without stack traces), and end the
 * process with status 1; cdk8s-cli then adds its one line that the app failed. Elsewhere (tests,
 * an app run directly) `app.synth()` throws as cdk8s does. Installed once per App, by the
 * validations of the doctor and the plan.
 * @internal
 */
export function shortRefusalsUnderCdk8sCli(scope: IConstruct): void {
  const root = scope.node.root;
  if (installed.has(root) || !underCdk8sCli()) return;
  installed.add(root);
  const app = root as unknown as Record<string, unknown>;
  if (typeof app.synth !== 'function') return;
  const own = Object.getOwnPropertyDescriptor(app, 'synth')?.value as ((...a: unknown[]) => unknown) | undefined;
  const original = (): ((...a: unknown[]) => unknown) => own ?? (Object.getPrototypeOf(app) as Record<string, (...a: unknown[]) => unknown>).synth;
  Object.defineProperty(app, 'synth', {
    configurable: true,
    enumerable: false,
    writable: true,
    value: function (this: unknown, ...args: unknown[]): unknown {
      try {
        return original().apply(this, args);
      } catch (e) {
        const message = e instanceof Error ? e.message : '';
        if (!message.startsWith(CDK8S_VALIDATION_FAILED)) throw e;
        const errors = message
          .slice(CDK8S_VALIDATION_FAILED.length)
          .replace(/^\n {2}/, '')
          .split('\n  [')
          .map((item, i) => (i === 0 ? item : `[${item}`))
          .map((item) => item.replace(/^\[\] /, ''));
        process.stderr.write(`synth refused (nothing was written):\n${errors.map((x) => `  ${x}`).join('\n')}\n`);
        process.exit(1);
      }
    },
  });
}
