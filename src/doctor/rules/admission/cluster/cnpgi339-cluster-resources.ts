/*
 * CNPGI339: the Cluster webhook's check of resources.
 */
import type { RuleDefinition } from '../../../../rules/rule';
import type { DoctorModel } from '../../../model/doctor-model';
import { reportAdmission } from '../admission-inputs';

/** A Cluster's `spec.resources` requests more cpu, memory or ephemeral storage than its limit (a zero limit is none), requests huge pages other than their limit or without a cpu or memory request or limit, or requests less memory than `shared_buffers` (and no huge pages quantity holds it). */
export const rule: RuleDefinition<DoctorModel> = {
  id: 'CNPGI339',
  name: 'cluster-resources',
  severities: [{ severity: 'error', when: 'always' }],
  what: "A Cluster's `spec.resources` requests more cpu, memory or ephemeral storage than its limit (a zero limit is none), requests huge pages other than their limit or without a cpu or memory request or limit, or requests less memory than `shared_buffers` (and no huge pages quantity holds it).",
  why: 'The Cluster webhook refuses the Cluster (cloudnative-pg v1.30.0 internal/webhook/v1/cluster_webhook.go validateResources, validateHugePagesResources, hasEnoughMemoryForSharedBuffers, parsePostgresQuantityValue).',
  fix: 'Request at most the limit, the huge pages exactly their limit, and more memory than `shared_buffers`.',
  kinds: ['postgresql.cnpg.io/Cluster'],
  check: reportAdmission('Cluster', 'validateResources'),
};
