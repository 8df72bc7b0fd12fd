/*
 * The Cluster webhook's check of the LDAP authentication settings, `spec.postgresql.ldap`
 * (cloudnative-pg v1.30.0 internal/webhook/v1/cluster_webhook.go validateLDAP), from which the
 * operator writes the LDAP line of pg_hba.conf.
 */
import { Json, asObject, asString, dig } from '../../manifests/json';
import type { CheckIssue } from '../issue';
import type { AdmissionCheck } from './admission-check';
import { webhookText } from './webhook-text';

/** validateLDAP: an `ldap` stanza names a server, and one method (bind, or bind+search). */
function ldap(cluster: Json): CheckIssue[] {
  const stanza = asObject(dig(cluster, 'spec', 'postgresql', 'ldap'));
  if (stanza === undefined) return [];
  const out: CheckIssue[] = [];
  if ((asString(stanza.server) ?? '') === '') {
    out.push({
      severity: 'error',
      path: 'spec.postgresql.ldap',
      message: `the Cluster webhook refuses an ldap stanza without a server (${webhookText('ldap server cannot be empty if any other ldap parameters are specified')})`,
      fix: "name the LDAP server, e.g. server: 'ldap.example.com', or remove the ldap stanza",
    });
  }
  if (asObject(stanza.bindAsAuth) !== undefined && asObject(stanza.bindSearchAuth) !== undefined) {
    out.push({
      severity: 'error',
      path: 'spec.postgresql.ldap',
      message: `the Cluster webhook refuses an ldap stanza with both bindAsAuth and bindSearchAuth (${webhookText('only bind+search or bind method can be specified')})`,
      fix: 'keep bindAsAuth (simple bind with a prefix and suffix) or bindSearchAuth (search, then bind), not both',
    });
  }
  return out;
}

/** The LDAP check. @internal */
export const CLUSTER_LDAP_CHECKS: readonly AdmissionCheck[] = [{ kind: 'Cluster', upstream: 'validateLDAP', check: ldap }];
