/*
 * The Cluster webhook's checks of the Secrets a Cluster names for its superuser and its
 * certificates (cloudnative-pg v1.30.0 internal/webhook/v1/cluster_webhook.go). The webhook's
 * answer names these fields in lower case (`spec.superusersecret.name`,
 * `spec.certificates.servercasecret`).
 */
import { describeValue } from '../../manifests/errors';
import { Json, asArray, asObject, dig } from '../../manifests/json';
import type { CheckIssue } from '../issue';
import type { AdmissionCheck } from './admission-check';
import { goString } from './go-values';

/** validateSuperuserSecret: a `superuserSecret` stanza names its Secret. */
function superuserSecret(cluster: Json): CheckIssue[] {
  const stanza = asObject(dig(cluster, 'spec', 'superuserSecret'));
  if (!stanza || goString(stanza.name) !== '') return [];
  return [
    {
      severity: 'error',
      path: 'spec.superuserSecret.name',
      webhookPath: 'spec.superusersecret.name',
      message: `the Cluster webhook refuses a superuserSecret without a name ("Super user secret name can't be empty", at spec.superusersecret.name)`,
      fix: "name the Secret (of type kubernetes.io/basic-auth, with username 'postgres' and a password), or remove superuserSecret to let the operator generate one",
    },
  ];
}

/**
 * validateCerts: a user-provided server certificate comes with its CA and without alternative
 * DNS names (the operator does not issue it, so it cannot add them), and a user-provided
 * replication client certificate with the client CA.
 */
function certificates(cluster: Json): CheckIssue[] {
  const certs = asObject(dig(cluster, 'spec', 'certificates'));
  if (!certs) return [];
  const issues: CheckIssue[] = [];
  const serverTLS = goString(certs.serverTLSSecret);
  if (serverTLS !== '') {
    const names = asArray(certs.serverAltDNSNames);
    if (names.length !== 0) {
      issues.push({
        severity: 'error',
        path: 'spec.certificates.serverAltDNSNames',
        webhookPath: 'spec.certificates.serveraltdnsnames',
        message: `the Cluster webhook refuses serverAltDNSNames ${describeValue(names)} beside serverTLSSecret ${describeValue(serverTLS)} ("Server alternative DNS names can't be defined when server TLS secret is provided", at spec.certificates.serveraltdnsnames): the operator adds those names only to a server certificate it issues itself`,
        fix: 'put the names in the certificate of serverTLSSecret and remove serverAltDNSNames, or remove serverTLSSecret and serverCASecret to let the operator issue the certificate',
      });
    }
    if (goString(certs.serverCASecret) === '') {
      issues.push({
        severity: 'error',
        path: 'spec.certificates.serverCASecret',
        webhookPath: 'spec.certificates.servercasecret',
        message: `the Cluster webhook refuses serverTLSSecret ${describeValue(serverTLS)} without serverCASecret ("Server CA secret can't be empty when server TLS secret is provided", at spec.certificates.servercasecret): clients verify the server with that CA`,
        fix: "set serverCASecret to the Secret holding the CA that issued the server certificate (key 'ca.crt')",
      });
    }
  }
  const replicationTLS = goString(certs.replicationTLSSecret);
  if (replicationTLS !== '' && goString(certs.clientCASecret) === '') {
    issues.push({
      severity: 'error',
      path: 'spec.certificates.clientCASecret',
      webhookPath: 'spec.certificates.clientcasecret',
      message: `the Cluster webhook refuses replicationTLSSecret ${describeValue(replicationTLS)} without clientCASecret ("Client CA secret can't be empty when client replication secret is provided", at spec.certificates.clientcasecret): the server verifies the replication client with that CA`,
      fix: "set clientCASecret to the Secret holding the CA that issued the replication certificate (key 'ca.crt')",
    });
  }
  return issues;
}

/** The Secret checks, in the webhook's order. @internal */
export const CLUSTER_SECRET_CHECKS: readonly AdmissionCheck[] = [
  { kind: 'Cluster', upstream: 'validateSuperuserSecret', check: superuserSecret },
  { kind: 'Cluster', upstream: 'validateCerts', check: certificates },
];
