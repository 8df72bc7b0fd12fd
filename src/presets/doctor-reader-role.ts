import * as kplus from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import { clusterScoped } from '../common/metadata';
import { Kind } from '../common/prop-kinds';
import { PropSpec, checkProps, checkValue } from '../common/props';
import { invalid } from '../manifests/errors';
import { isDnsLabel, isDnsSubdomain } from '../manifests/k8s-names';
import { DOCTOR_CLUSTER_ROLE_NAME, doctorClusterRoleRules } from '../manifests/live-kinds';
import { addSchemaGuard } from '../schema/guard';

const RBAC_GROUP = 'rbac.authorization.k8s.io';

/**
 * Who may run `cnpg-i-doctor cluster` with the permissions of a {@link DoctorReaderRole}: one
 * subject of its ClusterRoleBinding. Users and groups are the ones the API server's
 * authenticator names (a kubeconfig's client certificate CN and O, an OIDC claim); a
 * ServiceAccount is named with its namespace, which the API server requires of it (kubernetes
 * v1.36.3 pkg/apis/rbac/validation/validation.go ValidateRoleBindingSubject).
 */
export class DoctorReaderSubject {
  /** How a value of this class is made, for the message that refuses another value. @internal */
  public static readonly _factories =
    "DoctorReaderSubject.user('alice@example.com'), DoctorReaderSubject.group('platform-oncall') or DoctorReaderSubject.serviceAccount('cnpg-i-doctor', 'monitoring')";

  /** A user, as the authenticator names it (e.g. an OIDC email). */
  public static user(name: string): DoctorReaderSubject {
    checkValue('DoctorReaderSubject.user', 'name', name, Kind.string("name the user as the API server's authenticator does, e.g. 'alice@example.com'"));
    return new DoctorReaderSubject({ kind: 'User', name, apiGroup: RBAC_GROUP });
  }

  /** A group, as the authenticator names it. */
  public static group(name: string): DoctorReaderSubject {
    checkValue('DoctorReaderSubject.group', 'name', name, Kind.string("name the group as the API server's authenticator does, e.g. 'platform-oncall'"));
    return new DoctorReaderSubject({ kind: 'Group', name, apiGroup: RBAC_GROUP });
  }

  /** A ServiceAccount (a CI job or an in-cluster CronJob that runs the doctor), with its namespace. */
  public static serviceAccount(name: string, namespace: string): DoctorReaderSubject {
    const where = 'DoctorReaderSubject.serviceAccount';
    if (typeof name !== 'string' || !isDnsSubdomain(name)) {
      invalid(where, 'name', name, 'is not a ServiceAccount name (a lower-case DNS subdomain)', "use the ServiceAccount's metadata.name, e.g. 'cnpg-i-doctor'");
    }
    if (typeof namespace !== 'string' || !isDnsLabel(namespace)) {
      invalid(
        where,
        'namespace',
        namespace,
        'is not a namespace name (a lower-case DNS label): the API server requires the namespace of a ServiceAccount subject',
        "pass the ServiceAccount's namespace, e.g. 'monitoring'",
      );
    }
    return new DoctorReaderSubject({ kind: 'ServiceAccount', name, namespace });
  }

  private constructor(
    /** @internal */ public readonly _subject: { readonly kind: string; readonly name: string; readonly apiGroup?: string; readonly namespace?: string },
  ) {}
}

/** Props of {@link DoctorReaderRole}. */
export interface DoctorReaderRoleProps {
  /**
   * The `metadata.name` of the ClusterRole, and of its ClusterRoleBinding when `subjects` are given.
   * @default 'cnpg-i-doctor-reader', the name `cnpg-i-doctor cluster --print-cluster-role` prints
   */
  readonly name?: string;
  /**
   * Who is granted the role: a ClusterRoleBinding is written when there is at least one.
   * @default - none: only the ClusterRole, for a binding made elsewhere
   */
  readonly subjects?: DoctorReaderSubject[];
}

const PROPS_SPEC: PropSpec<DoctorReaderRoleProps> = {
  // RBAC names are path segments (no '/', '%', '.' or '..'), which the schema guard judges at synth
  name: Kind.string("use a name such as 'cnpg-i-doctor-reader'"),
  subjects: Kind.each(Kind.factory(DoctorReaderSubject)),
};

/**
 * The read-only access `cnpg-i-doctor cluster` needs, as objects of the app: a ClusterRole that
 * grants `list` on exactly the kinds the live doctor reads (and nothing else: no `get` of single
 * objects, no `watch`, no write), derived from the same list as the command's
 * `--print-cluster-role`, and, with `subjects`, the ClusterRoleBinding that grants it.
 *
 * The role lists Secrets, because the doctor checks the plugin certificates it finds in them; the
 * doctor drops every Secret value but `tls.crt`, `ca.crt` and `tls.key` as it reads them, but
 * the API server sends them all: grant it to the people and jobs that may read Secrets anyway.
 */
export class DoctorReaderRole extends Construct {
  /** The ClusterRole's name. */
  public readonly name: string;
  /** The ClusterRole. */
  public readonly clusterRole: kplus.k8s.KubeClusterRole;
  /** The ClusterRoleBinding, when `subjects` were given. */
  public readonly clusterRoleBinding?: kplus.k8s.KubeClusterRoleBinding;

  public constructor(scope: Construct, id: string, props: DoctorReaderRoleProps = {}) {
    super(scope, id);
    const p = checkProps(this, 'props', props, PROPS_SPEC, { example: "{} or { subjects: [DoctorReaderSubject.group('platform-oncall')] }" });
    this.name = p.name ?? DOCTOR_CLUSTER_ROLE_NAME;
    const labels = { 'app.kubernetes.io/name': 'cnpg-i-doctor' };
    this.clusterRole = clusterScoped(
      new kplus.k8s.KubeClusterRole(this, 'ClusterRole', { metadata: { name: this.name, labels }, rules: doctorClusterRoleRules() }),
    );
    addSchemaGuard(this, this.clusterRole);
    const subjects = p.subjects ?? [];
    if (subjects.length > 0) {
      this.clusterRoleBinding = clusterScoped(
        new kplus.k8s.KubeClusterRoleBinding(this, 'ClusterRoleBinding', {
          metadata: { name: this.name, labels },
          roleRef: { apiGroup: RBAC_GROUP, kind: 'ClusterRole', name: this.name },
          subjects: subjects.map((s) => ({ ...s._subject })),
        }),
      );
      addSchemaGuard(this, this.clusterRoleBinding);
    }
  }
}
