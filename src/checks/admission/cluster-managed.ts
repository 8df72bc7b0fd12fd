/*
 * The Cluster webhook's checks of what the operator manages inside and around PostgreSQL:
 * Services, roles, and the managed extension pg_failover_slots (cloudnative-pg v1.30.0
 * internal/webhook/v1/cluster_webhook.go validateManagedServices, validateServiceTemplate,
 * validateManagedRoles, validateManagedExtensions, validatePgFailoverSlots).
 */
import { Json, asArray, asObject, asString, dig } from '../../manifests/json';
import type { CheckIssue } from '../issue';
import type { AdmissionCheck } from './admission-check';
import { parsePostgresConfigBoolean } from './parse-postgres-config-boolean';

/** The Services the operator makes for every Cluster, by suffix of the Cluster name. */
const DEFAULT_SERVICE_SUFFIXES = ['-rw', '-ro', '-r', '-any'];

/**
 * validateManagedServices: the read-write Service stays; an additional Service needs a name
 * that is none of the operator's and is not repeated, and no selector of its own.
 */
function managedServices(cluster: Json): CheckIssue[] {
  const services = asObject(dig(cluster, 'spec', 'managed', 'services'));
  if (services === undefined) return [];
  const out: CheckIssue[] = [];
  const name = asString(dig(cluster, 'metadata', 'name')) ?? '';
  if (asArray(services.disabledDefaultServices).includes('rw')) {
    out.push({
      severity: 'error',
      path: 'spec.managed.services.disabledDefaultServices',
      message: `the Cluster webhook refuses to disable the rw Service ("service of type RW cannot be disabled."): applications and the operator reach the primary through ${name}-rw`,
      fix: 'remove rw from disabledDefaultServices (ro and r can be disabled)',
    });
  }
  const reserved = DEFAULT_SERVICE_SUFFIXES.map((s) => `${name}${s}`);
  const names: string[] = [];
  asArray(services.additional).forEach((a, i) => {
    const template = asObject(asObject(a)?.serviceTemplate) ?? {};
    const service = asString(dig(template, 'metadata', 'name')) ?? '';
    names.push(service);
    const path = `spec.managed.services.additional[${i}]`;
    if (reserved.includes(service)) {
      out.push({
        severity: 'error',
        path,
        message: `the Cluster webhook refuses the additional Service '${service}' ("the service name: '${service}' is reserved for operator use"): the operator makes ${reserved.join(', ')} for this Cluster`,
        fix: 'give the Service another name, or change a default Service through spec.managed.services (updateStrategy, disabledDefaultServices)',
      });
    }
    out.push(...serviceTemplateIssues(path, template));
  });
  const repeated = [...new Set(names.filter((n, i) => names.indexOf(n) !== i))];
  if (repeated.length > 0) {
    out.push({
      severity: 'error',
      path: 'spec.managed.services.additional',
      message: `the Cluster webhook refuses additional Services with the same name ${repeated.map((n) => `'${n}'`).join(', ')} ("contains services with the same .metadata.name")`,
      fix: 'give each additional Service its own name',
    });
  }
  return out;
}

/**
 * validateServiceTemplate: a Service template without a selector, with a name when
 * `nameRequired` (as validateManagedServices calls it, the only caller at v1.30.0) and without
 * one otherwise.
 * @internal
 */
export function serviceTemplateIssues(path: string, template: Json, nameRequired = true): CheckIssue[] {
  const out: CheckIssue[] = [];
  const service = asString(dig(template, 'metadata', 'name')) ?? '';
  const selector = asObject(dig(template, 'spec', 'selector'));
  if (selector !== undefined && Object.keys(selector).length > 0) {
    out.push({
      severity: 'error',
      path,
      message: `the Cluster webhook refuses the selector of the additional Service '${service}' ("selector field is managed by the operator"): the operator selects the instances by the Service's selectorType`,
      fix: 'remove serviceTemplate.spec.selector and set selectorType (rw, ro, r) instead',
    });
  }
  if (service === '' && nameRequired) {
    out.push({
      severity: 'error',
      path,
      message: 'the Cluster webhook refuses an additional Service without a name ("name is required")',
      fix: 'set serviceTemplate.metadata.name',
    });
  }
  if (service !== '' && !nameRequired) {
    out.push({
      severity: 'error',
      path,
      message: `the Cluster webhook refuses the name '${service}' on this Service template ("name is not allowed"): the operator names the Service`,
      fix: 'remove serviceTemplate.metadata.name',
    });
  }
  return out;
}

/** Role names the operator keeps: its own and PostgreSQL's (cloudnative-pg v1.30.0 pkg/postgres/roles.go IsRoleReserved). */
function isRoleReserved(name: string): boolean {
  return name === 'postgres' || name === 'streaming_replica' || name.startsWith('cnpg_') || name.startsWith('pg_');
}

/**
 * validateManagedRoles: each managed role is declared once, with a connection limit of -1 or
 * more, a name that is not reserved, and a password or none but not both.
 */
function managedRoles(cluster: Json): CheckIssue[] {
  if (asObject(dig(cluster, 'spec', 'managed')) === undefined) return [];
  const out: CheckIssue[] = [];
  const seen = new Set<string>();
  asArray(dig(cluster, 'spec', 'managed', 'roles')).forEach((r, i) => {
    const role = asObject(r) ?? {};
    const name = asString(role.name) ?? '';
    const at = `spec.managed.roles[${i}]`;
    const issue = (field: string, message: string, fix: string) =>
      out.push({ severity: 'error', path: `${at}.${field}`, webhookPath: 'spec.managed.roles', message, fix });
    if (seen.has(name)) {
      issue('name', `the Cluster webhook refuses the role '${name}' declared twice ("Role name is duplicate of another")`, 'declare each role once');
    }
    seen.add(name);
    const limit = role.connectionLimit;
    if (typeof limit === 'number' && limit < 0 && limit !== -1) {
      issue(
        'connectionLimit',
        `the Cluster webhook refuses the connection limit ${limit} of role '${name}' ("Connection limit should be positive, unless defaulting to -1")`,
        'use -1 (no limit) or a number of connections of 0 or more',
      );
    }
    if (isRoleReserved(name)) {
      issue(
        'name',
        `the Cluster webhook refuses the managed role '${name}' ("This role is reserved for operator use"): the operator owns postgres and streaming_replica, and the cnpg_ and pg_ prefixes`,
        'manage a role of your own name; the operator keeps the superuser (spec.superuserSecret) and the replication user itself',
      );
    }
    if (role.disablePassword === true && role.passwordSecret !== undefined && role.passwordSecret !== null) {
      issue(
        'passwordSecret',
        `the Cluster webhook refuses the role '${name}' ("This role both sets and disables a password"): disablePassword and passwordSecret contradict each other`,
        'remove passwordSecret to leave the role without a password, or remove disablePassword',
      );
    }
  });
  return out;
}

/**
 * validateManagedExtensions judges nothing itself: it returns what validatePgFailoverSlots (the
 * one managed extension it checks, below) finds.
 */
function managedExtensions(): CheckIssue[] {
  return [];
}

/**
 * validatePgFailoverSlots: a parameter of pg_failover_slots (`pg_failover_slots.*`) needs
 * `hot_standby_feedback` on and the high availability replication slots enabled.
 */
function pgFailoverSlots(cluster: Json): CheckIssue[] {
  const parameters = asObject(dig(cluster, 'spec', 'postgresql', 'parameters')) ?? {};
  const used = Object.keys(parameters).find((k) => k.startsWith('pg_failover_slots.'));
  if (used === undefined) return [];
  const out: CheckIssue[] = [];
  const feedback = parameters.hot_standby_feedback;
  if (parsePostgresConfigBoolean(typeof feedback === 'string' ? feedback : '') !== true) {
    out.push({
      severity: 'error',
      path: 'spec.postgresql.parameters.hot_standby_feedback',
      message: `the Cluster webhook refuses pg_failover_slots (${used} is set) while hot_standby_feedback is ${typeof feedback === 'string' ? `'${feedback}'` : 'not set'} ("\`hot_standby_feedback\` must be enabled to use  extension"): standbys must report their oldest snapshot for the slots to be safe to fail over to`,
      fix: "set hot_standby_feedback: 'on'",
    });
  }
  const slots = dig(cluster, 'spec', 'replicationSlots');
  if (asObject(slots) === undefined) {
    out.push({
      severity: 'error',
      path: 'spec.replicationSlots',
      message: 'the Cluster webhook refuses pg_failover_slots without spec.replicationSlots ("replicationSlots must be enabled")',
      fix: 'set spec.replicationSlots.highAvailability.enabled: true',
    });
    return out;
  }
  const ha = asObject(dig(slots, 'highAvailability'));
  if (ha === undefined || ha.enabled === false) {
    out.push({
      severity: 'error',
      path: 'spec.replicationSlots.highAvailability',
      message:
        'the Cluster webhook refuses pg_failover_slots without the high availability replication slots ("High Availability replication slots must be enabled"): the extension copies the slots to the standbys',
      fix: 'set spec.replicationSlots.highAvailability.enabled: true',
    });
  }
  return out;
}

/** The managed-object checks, in the webhook's order. @internal */
export const CLUSTER_MANAGED_CHECKS: readonly AdmissionCheck[] = [
  { kind: 'Cluster', upstream: 'validateManagedServices', check: managedServices },
  { kind: 'Cluster', upstream: 'validateManagedRoles', check: managedRoles },
  { kind: 'Cluster', upstream: 'validateManagedExtensions', check: managedExtensions },
  { kind: 'Cluster', upstream: 'validatePgFailoverSlots', check: pgFailoverSlots },
];
