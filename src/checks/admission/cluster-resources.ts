/*
 * The Cluster webhook's check of the instances' resources (cloudnative-pg v1.30.0
 * internal/webhook/v1/cluster_webhook.go validateResources, validateHugePagesResources,
 * hasEnoughMemoryForSharedBuffers).
 */
import { describeValue } from '../../manifests/errors';
import { Json, asObject, dig } from '../../manifests/json';
import { QuantityValue, compareQuantities, parseQuantity } from '../../manifests/quantity';
import type { CheckIssue } from '../issue';
import type { AdmissionCheck } from './admission-check';
import { parsePostgresQuantityValue } from './postgres-size';

const HUGE_PAGES = 'hugepages-';

/** A quantity of a resource list, zero when absent or not a quantity (the API server refuses that first). */
function quantity(list: Json, name: string): QuantityValue {
  return parseQuantity(list[name]) ?? { num: 0n, den: 1n };
}

const isZero = (q: QuantityValue) => q.num === 0n;

/**
 * validateResources: for cpu, memory and ephemeral storage, a request no larger than its limit
 * (a zero or missing side is no bound); huge pages requested as much as their limit and only
 * beside a cpu or memory request or limit; and a memory request (when set) that holds
 * `shared_buffers`, unless some huge pages quantity does.
 */
function resources(cluster: Json): CheckIssue[] {
  const requests = asObject(dig(cluster, 'spec', 'resources', 'requests')) ?? {};
  const limits = asObject(dig(cluster, 'spec', 'resources', 'limits')) ?? {};
  // Without requests or limits there is nothing to compare (shared_buffers needs a memory request).
  if (Object.keys(requests).length === 0 && Object.keys(limits).length === 0) return [];
  const out: CheckIssue[] = [];
  const above = (name: string, detail: string, webhookName = name) => {
    const request = quantity(requests, name);
    const limit = quantity(limits, name);
    if (isZero(request) || isZero(limit) || compareQuantities(request, limit) <= 0) return;
    out.push({
      severity: 'error',
      path: `spec.resources.requests.${name}`,
      ...(webhookName !== name ? { webhookPath: `spec.resources.requests.${webhookName}` } : {}),
      message: `the Cluster webhook refuses the ${name} request ${describeValue(requests[name])} above the limit ${describeValue(limits[name])} ("${detail}")`,
      fix: `lower the ${name} request to at most ${describeValue(limits[name])}, or raise the limit`,
    });
  };
  above('cpu', 'CPU request is greater than the limit');
  above('memory', 'Memory request is greater than the limit');

  // Huge pages: every limit, then each request not already limited (a request that differs from its limit is an error).
  const hugePages = new Map<string, QuantityValue>();
  for (const name of Object.keys(limits)) if (name.startsWith(HUGE_PAGES)) hugePages.set(name, quantity(limits, name));
  for (const name of Object.keys(requests).sort()) {
    if (!name.startsWith(HUGE_PAGES)) continue;
    const limit = hugePages.get(name);
    if (limit === undefined) {
      hugePages.set(name, quantity(requests, name));
    } else if (compareQuantities(limit, quantity(requests, name)) !== 0) {
      out.push({
        severity: 'error',
        path: `spec.resources.requests.${name}`,
        message: `the Cluster webhook refuses the ${name} request ${describeValue(requests[name])} that differs from its limit ${describeValue(limits[name])} ("HugePages requests must equal the limits")`,
        fix: `make the ${name} request and limit equal`,
      });
    }
  }
  const cpuOrMemory = ['cpu', 'memory'].some((n) => !isZero(quantity(requests, n)) || !isZero(quantity(limits, n)));
  if (hugePages.size > 0 && !cpuOrMemory) {
    out.push({
      severity: 'error',
      path: 'spec.resources',
      message: `the Cluster webhook refuses huge pages (${[...hugePages.keys()].sort().join(', ')}) without a cpu or memory request or limit ("HugePages require cpu or memory")`,
      fix: 'request memory (and cpu) for the instances beside the huge pages',
    });
  }

  const raw = dig(cluster, 'spec', 'postgresql', 'parameters', 'shared_buffers');
  const sharedBuffers = typeof raw === 'string' ? parsePostgresQuantityValue(raw)?.value : undefined;
  const memory = quantity(requests, 'memory');
  if (
    sharedBuffers !== undefined &&
    !isZero(memory) &&
    compareQuantities(sharedBuffers, memory) > 0 &&
    ![...hugePages.values()].some((q) => compareQuantities(sharedBuffers, q) <= 0)
  ) {
    out.push({
      severity: 'error',
      path: 'spec.resources.requests.memory',
      webhookPath: 'spec.resources.requests',
      message: `the Cluster webhook refuses the memory request ${describeValue(requests.memory)} below shared_buffers ${describeValue(raw)} ("Memory request is lower than PostgreSQL \`shared_buffers\` value"): PostgreSQL allocates shared_buffers at start`,
      fix: `request more memory than shared_buffers (${describeValue(raw)}), or lower shared_buffers (a quarter of the memory is usual)`,
    });
  }

  above('ephemeral-storage', 'Ephemeral storage request is greater than the limit', 'storage');
  return out;
}

/** The resources check. @internal */
export const CLUSTER_RESOURCE_CHECKS: readonly AdmissionCheck[] = [{ kind: 'Cluster', upstream: 'validateResources', check: resources }];
