/*
 * cloudnative-pg v1.30.0 internal/webhook/v1/cluster_webhook_test.go as data, the instances and
 * what they expose: validateCerts, validateTolerations, validateAntiAffinity, validateEnv,
 * validateExtensions (image-volume extensions), validatePodSelectorRefs,
 * validateServiceAccountConfig, validateManagedRoles, validateManagedServices (and the helper
 * validateServiceTemplate), and the update check validateUnixPermissionIdentifierChange.
 */
import { AdmissionCase, cluster, HelperCase, JsonObject } from '../case';

function extension(name: string, extra: JsonObject = {}, reference = 'extOne'): JsonObject {
  return { name, image: { reference }, ...extra };
}

function withExtensions(...extensions: JsonObject[]): JsonObject {
  return { postgresql: { extensions } };
}

/** The Cluster every validateManagedServices test starts from (upstream BeforeEach): named test. */
const SERVICES_CLUSTER = { name: 'test' };

function additionalService(name: string): JsonObject {
  return { serviceTemplate: { metadata: { name } } };
}

function reservedServiceName(index: number, name: string) {
  const path = `spec.managed.services.additional[${index}]`;
  return { index, path, reason: 'FieldValueInvalid' as const, message: `the service name: '${name}' is reserved for operator use` };
}

export const CLUSTER_POD_HELPER_CASES: readonly HelperCase[] = [
  {
    id: 'cluster/validateServiceTemplate/1',
    upstream: {
      file: 'cluster_webhook_test.go',
      line: 5555,
      describe: 'ServiceTemplate Validation > validateServiceTemplate > when name is required',
      it: 'should return an error if the name is empty',
    },
    function: 'validateServiceTemplate',
    args: { path: 'spec', nameRequired: true, template: { metadata: { name: '' } } },
    expected: { verdict: { errors: 1, details: [{ index: 0, messageContains: ['name is required'] }] } },
  },
  {
    id: 'cluster/validateServiceTemplate/2',
    upstream: {
      file: 'cluster_webhook_test.go',
      line: 5565,
      describe: 'ServiceTemplate Validation > validateServiceTemplate > when name is required',
      it: 'should not return an error if the name is present',
    },
    function: 'validateServiceTemplate',
    args: { path: 'spec', nameRequired: true, template: { metadata: { name: 'valid-name' } } },
    expected: { verdict: { errors: 0 } },
  },
  {
    id: 'cluster/validateServiceTemplate/3',
    upstream: {
      file: 'cluster_webhook_test.go',
      line: 5576,
      describe: 'ServiceTemplate Validation > validateServiceTemplate > when name is not allowed',
      it: 'should return an error if the name is present',
    },
    function: 'validateServiceTemplate',
    args: { path: 'spec', nameRequired: false, template: { metadata: { name: 'invalid-name' } } },
    expected: { verdict: { errors: 1, details: [{ index: 0, messageContains: ['name is not allowed'] }] } },
    note: 'No caller passes nameRequired false at v1.30.0 (validateManagedServices passes true): admission never reaches this branch.',
  },
  {
    id: 'cluster/validateServiceTemplate/4',
    upstream: {
      file: 'cluster_webhook_test.go',
      line: 5586,
      describe: 'ServiceTemplate Validation > validateServiceTemplate > when name is not allowed',
      it: 'should not return an error if the name is empty',
    },
    function: 'validateServiceTemplate',
    args: { path: 'spec', nameRequired: false, template: { metadata: { name: '' } } },
    expected: { verdict: { errors: 0 } },
    note: 'No caller passes nameRequired false at v1.30.0.',
  },
  {
    id: 'cluster/validateServiceTemplate/5',
    upstream: {
      file: 'cluster_webhook_test.go',
      line: 5597,
      describe: 'ServiceTemplate Validation > validateServiceTemplate > when selector is present',
      it: 'should return an error if the selector is present',
    },
    function: 'validateServiceTemplate',
    args: { path: 'spec', nameRequired: true, template: { metadata: { name: 'valid-name' }, spec: { selector: { app: 'test' } } } },
    expected: { verdict: { errors: 1, details: [{ index: 0, messageContains: ['selector field is managed by the operator'] }] } },
  },
  {
    id: 'cluster/validateServiceTemplate/6',
    upstream: {
      file: 'cluster_webhook_test.go',
      line: 5610,
      describe: 'ServiceTemplate Validation > validateServiceTemplate > when selector is present',
      it: 'should not return an error if the selector is absent',
    },
    function: 'validateServiceTemplate',
    args: { path: 'spec', nameRequired: true, template: { metadata: { name: 'valid-name' }, spec: { selector: {} } } },
    expected: { verdict: { errors: 0 } },
  },
];

export const CLUSTER_POD_CASES: readonly AdmissionCase[] = [
  // validateCerts
  {
    id: 'cluster/validateCerts/1',
    upstream: {
      file: 'cluster_webhook_test.go',
      line: 103,
      describe: 'certificates options validation',
      it: "doesn't complain if there isn't a configuration",
    },
    function: 'validateCerts',
    kind: 'Cluster',
    input: cluster(),
    verdict: { errors: 0 },
  },
  {
    id: 'cluster/validateCerts/2',
    upstream: {
      file: 'cluster_webhook_test.go',
      line: 109,
      describe: 'certificates options validation',
      it: "doesn't complain if you specify some valid secret names",
    },
    function: 'validateCerts',
    kind: 'Cluster',
    input: cluster({ certificates: { serverCASecret: 'test-server-ca', serverTLSSecret: 'test-server-tls' } }),
    verdict: { errors: 0 },
  },
  {
    id: 'cluster/validateCerts/3',
    upstream: {
      file: 'cluster_webhook_test.go',
      line: 122,
      describe: 'certificates options validation',
      it: 'does complain if you specify the TLS secret and not the CA',
    },
    function: 'validateCerts',
    kind: 'Cluster',
    input: cluster({ certificates: { serverTLSSecret: 'test-server-tls' } }),
    verdict: { errors: 1 },
  },
  {
    id: 'cluster/validateCerts/4',
    upstream: {
      file: 'cluster_webhook_test.go',
      line: 134,
      describe: 'certificates options validation',
      it: 'does complain if you specify the TLS secret and AltDNSNames is not empty',
    },
    function: 'validateCerts',
    kind: 'Cluster',
    input: cluster({ certificates: { serverCASecret: 'test-server-ca', serverTLSSecret: 'test-server-tls', serverAltDNSNames: ['dns-name'] } }),
    verdict: { errors: 1 },
  },
  // validateTolerations, validateAntiAffinity
  {
    id: 'cluster/validateTolerations/1',
    upstream: { file: 'cluster_webhook_test.go', line: 2771, describe: 'toleration validation', it: "doesn't complain if we provide a proper toleration" },
    function: 'validateTolerations',
    kind: 'Cluster',
    input: cluster({ affinity: { tolerations: [{ key: 'test', operator: 'Exists', effect: 'NoSchedule' }] } }),
    verdict: { errors: 0 },
  },
  {
    id: 'cluster/validateTolerations/2',
    upstream: { file: 'cluster_webhook_test.go', line: 2789, describe: 'toleration validation', it: 'complain when the toleration ' },
    function: 'validateTolerations',
    kind: 'Cluster',
    input: cluster({ affinity: { tolerations: [{ key: '', operator: 'Equal', effect: 'NoSchedule' }] } }),
    verdict: { errors: 'some' },
  },
  {
    id: 'cluster/validateAntiAffinity/1',
    upstream: {
      file: 'cluster_webhook_test.go',
      line: 2814,
      describe: 'validate anti-affinity',
      it: "doesn't complain if we provide an empty affinity section",
    },
    function: 'validateAntiAffinity',
    kind: 'Cluster',
    input: cluster({ affinity: {} }),
    verdict: { errors: 0 },
  },
  {
    id: 'cluster/validateAntiAffinity/2',
    upstream: {
      file: 'cluster_webhook_test.go',
      line: 2823,
      describe: 'validate anti-affinity',
      it: "doesn't complain if we provide a proper PodAntiAffinity with anti-affinity enabled",
    },
    function: 'validateAntiAffinity',
    kind: 'Cluster',
    input: cluster({ affinity: { enablePodAntiAffinity: true, podAntiAffinityType: 'required' } }),
    verdict: { errors: 0 },
  },
  {
    id: 'cluster/validateAntiAffinity/3',
    upstream: {
      file: 'cluster_webhook_test.go',
      line: 2836,
      describe: 'validate anti-affinity',
      it: "doesn't complain if we provide a proper PodAntiAffinity with anti-affinity disabled",
    },
    function: 'validateAntiAffinity',
    kind: 'Cluster',
    input: cluster({ affinity: { enablePodAntiAffinity: false, podAntiAffinityType: 'required' } }),
    verdict: { errors: 0 },
  },
  {
    id: 'cluster/validateAntiAffinity/4',
    upstream: {
      file: 'cluster_webhook_test.go',
      line: 2849,
      describe: 'validate anti-affinity',
      it: "doesn't complain if we provide a proper PodAntiAffinity with anti-affinity enabled",
    },
    function: 'validateAntiAffinity',
    kind: 'Cluster',
    input: cluster({ affinity: { enablePodAntiAffinity: true, podAntiAffinityType: 'preferred' } }),
    verdict: { errors: 0 },
  },
  {
    id: 'cluster/validateAntiAffinity/5',
    upstream: {
      file: 'cluster_webhook_test.go',
      line: 2861,
      describe: 'validate anti-affinity',
      it: "doesn't complain if we provide a proper PodAntiAffinity default with anti-affinity enabled",
    },
    function: 'validateAntiAffinity',
    kind: 'Cluster',
    input: cluster({ affinity: { enablePodAntiAffinity: true } }),
    verdict: { errors: 0 },
    note: 'Upstream sets podAntiAffinityType to the empty string, which JSON leaves out.',
  },
  {
    id: 'cluster/validateAntiAffinity/6',
    upstream: {
      file: 'cluster_webhook_test.go',
      line: 2874,
      describe: 'validate anti-affinity',
      it: 'complains if we provide a wrong PodAntiAffinity with anti-affinity disabled',
    },
    function: 'validateAntiAffinity',
    kind: 'Cluster',
    input: cluster({ affinity: { enablePodAntiAffinity: false, podAntiAffinityType: 'error' } }),
    verdict: { errors: 'some' },
  },
  {
    id: 'cluster/validateAntiAffinity/7',
    upstream: {
      file: 'cluster_webhook_test.go',
      line: 2887,
      describe: 'validate anti-affinity',
      it: 'complains if we provide a wrong PodAntiAffinity with anti-affinity enabled',
    },
    function: 'validateAntiAffinity',
    kind: 'Cluster',
    input: cluster({ affinity: { enablePodAntiAffinity: true, podAntiAffinityType: 'error' } }),
    verdict: { errors: 'some' },
  },
  // validateUnixPermissionIdentifierChange (update)
  {
    id: 'cluster/validateUnixPermissionIdentifierChange/1',
    upstream: {
      file: 'cluster_webhook_test.go',
      line: 2979,
      describe: 'unix permissions identifiers change validation',
      it: 'complains if the PostgresGID is changed',
    },
    function: 'validateUnixPermissionIdentifierChange',
    kind: 'Cluster',
    input: cluster({ postgresGID: 53 }),
    old: cluster({ postgresGID: 26 }),
    verdict: { errors: 'some' },
  },
  {
    id: 'cluster/validateUnixPermissionIdentifierChange/2',
    upstream: {
      file: 'cluster_webhook_test.go',
      line: 2993,
      describe: 'unix permissions identifiers change validation',
      it: 'complains if the PostgresUID is changed',
    },
    function: 'validateUnixPermissionIdentifierChange',
    kind: 'Cluster',
    input: cluster({ postgresGID: 74 }),
    old: cluster({ postgresUID: 26 }),
    verdict: { errors: 'some' },
    note: 'The upstream title names the UID, but its new object sets postgresGID: both identifiers differ between the objects as written (two errors).',
  },
  {
    id: 'cluster/validateUnixPermissionIdentifierChange/3',
    upstream: {
      file: 'cluster_webhook_test.go',
      line: 3007,
      describe: 'unix permissions identifiers change validation',
      it: "should not complain if the values havn't been changed",
    },
    function: 'validateUnixPermissionIdentifierChange',
    kind: 'Cluster',
    input: cluster({ postgresUID: 74, postgresGID: 76 }),
    old: cluster({ postgresUID: 74, postgresGID: 76 }),
    verdict: { errors: 0 },
  },
  // validateEnv
  {
    id: 'cluster/validateEnv/1',
    upstream: {
      file: 'cluster_webhook_test.go',
      line: 4255,
      describe: 'Environment variables validation > a ClusterSpec is given',
      it: 'detects if the environment variable list is correct',
    },
    function: 'validateEnv',
    kind: 'Cluster',
    input: cluster({ env: [{ name: 'TZ', value: 'Europe/Rome' }] }),
    verdict: { errors: 0 },
  },
  {
    id: 'cluster/validateEnv/2',
    upstream: {
      file: 'cluster_webhook_test.go',
      line: 4270,
      describe: 'Environment variables validation > a ClusterSpec is given',
      it: 'detects if the environment variable list contains a reserved variable',
    },
    function: 'validateEnv',
    kind: 'Cluster',
    input: cluster({
      env: [
        { name: 'TZ', value: 'Europe/Rome' },
        { name: 'PGDATA', value: '/tmp' },
      ],
    }),
    verdict: { errors: 1 },
  },
  // validateManagedRoles
  {
    id: 'cluster/validateManagedRoles/1',
    upstream: { file: 'cluster_webhook_test.go', line: 4402, describe: 'Role management validation', it: 'should succeed if there is no management stanza' },
    function: 'validateManagedRoles',
    kind: 'Cluster',
    input: cluster(),
    verdict: { errors: 0 },
  },
  {
    id: 'cluster/validateManagedRoles/2',
    upstream: { file: 'cluster_webhook_test.go', line: 4409, describe: 'Role management validation', it: 'should succeed if the role defined is not reserved' },
    function: 'validateManagedRoles',
    kind: 'Cluster',
    input: cluster({ managed: { roles: [{ name: 'non-conflicting' }] } }),
    verdict: { errors: 0 },
  },
  {
    id: 'cluster/validateManagedRoles/3',
    upstream: {
      file: 'cluster_webhook_test.go',
      line: 4424,
      describe: 'Role management validation',
      it: 'should produce an error on invalid connection limit',
    },
    function: 'validateManagedRoles',
    kind: 'Cluster',
    input: cluster({ managed: { roles: [{ name: 'non-conflicting', connectionLimit: -3 }] } }),
    verdict: { errors: 1 },
  },
  {
    id: 'cluster/validateManagedRoles/4',
    upstream: { file: 'cluster_webhook_test.go', line: 4440, describe: 'Role management validation', it: 'should produce an error if the role is reserved' },
    function: 'validateManagedRoles',
    kind: 'Cluster',
    input: cluster({ managed: { roles: [{ name: 'postgres' }] } }),
    verdict: { errors: 1 },
  },
  {
    id: 'cluster/validateManagedRoles/5',
    upstream: {
      file: 'cluster_webhook_test.go',
      line: 4455,
      describe: 'Role management validation',
      it: 'should produce two errors if the role is reserved and the connection limit is invalid',
    },
    function: 'validateManagedRoles',
    kind: 'Cluster',
    input: cluster({ managed: { roles: [{ name: 'postgres', connectionLimit: -3 }] } }),
    verdict: { errors: 2 },
  },
  {
    id: 'cluster/validateManagedRoles/6',
    upstream: {
      file: 'cluster_webhook_test.go',
      line: 4471,
      describe: 'Role management validation',
      it: 'should produce an error if we define two roles with the same name',
    },
    function: 'validateManagedRoles',
    kind: 'Cluster',
    input: cluster({
      managed: {
        roles: [
          { name: 'my_test', connectionLimit: -1 },
          { name: 'my_test', superuser: true, bypassrls: true, connectionLimit: -1 },
        ],
      },
    }),
    verdict: { errors: 1 },
  },
  {
    id: 'cluster/validateManagedRoles/7',
    upstream: {
      file: 'cluster_webhook_test.go',
      line: 4492,
      describe: 'Role management validation',
      it: 'should produce an error if we have a password secret AND DisablePassword in a role',
    },
    function: 'validateManagedRoles',
    kind: 'Cluster',
    input: cluster({
      managed: {
        roles: [{ name: 'my_test', superuser: true, bypassrls: true, disablePassword: true, passwordSecret: { name: 'myPassword' }, connectionLimit: -1 }],
      },
    }),
    verdict: { errors: 1 },
  },
  // validateManagedServices
  {
    id: 'cluster/validateManagedServices/1',
    upstream: {
      file: 'cluster_webhook_test.go',
      line: 5434,
      describe: 'validateManagedServices > when Managed or Services is nil',
      it: 'should return no errors',
    },
    function: 'validateManagedServices',
    kind: 'Cluster',
    input: cluster({}, SERVICES_CLUSTER),
    verdict: { errors: 0 },
    note: 'Object 1 of 2 of this upstream test: no spec.managed.',
  },
  {
    id: 'cluster/validateManagedServices/2',
    upstream: {
      file: 'cluster_webhook_test.go',
      line: 5434,
      describe: 'validateManagedServices > when Managed or Services is nil',
      it: 'should return no errors',
    },
    function: 'validateManagedServices',
    kind: 'Cluster',
    input: cluster({ managed: {} }, SERVICES_CLUSTER),
    verdict: { errors: 0 },
    note: 'Object 2 of 2: spec.managed without services.',
  },
  {
    id: 'cluster/validateManagedServices/3',
    upstream: {
      file: 'cluster_webhook_test.go',
      line: 5445,
      describe: 'validateManagedServices > when there are no duplicate names',
      it: 'should return no errors',
    },
    function: 'validateManagedServices',
    kind: 'Cluster',
    input: cluster({ managed: { services: { additional: [additionalService('service1'), additionalService('service2')] } } }, SERVICES_CLUSTER),
    verdict: { errors: 0 },
  },
  {
    id: 'cluster/validateManagedServices/4',
    upstream: {
      file: 'cluster_webhook_test.go',
      line: 5463,
      describe: 'validateManagedServices > when there are duplicate names',
      it: 'should return an error',
    },
    function: 'validateManagedServices',
    kind: 'Cluster',
    input: cluster({ managed: { services: { additional: [additionalService('service1'), additionalService('service1')] } } }, SERVICES_CLUSTER),
    verdict: {
      errors: 1,
      paths: ['spec.managed.services.additional'],
      details: [
        {
          index: 0,
          path: 'spec.managed.services.additional',
          reason: 'FieldValueInvalid',
          messageContains: ['contains services with the same .metadata.name'],
        },
      ],
    },
  },
  {
    id: 'cluster/validateManagedServices/5',
    upstream: {
      file: 'cluster_webhook_test.go',
      line: 5485,
      describe: 'validateManagedServices > when service template validation fails',
      it: 'should return an error',
    },
    function: 'validateManagedServices',
    kind: 'Cluster',
    input: cluster({ managed: { services: { additional: [additionalService('')] } } }, SERVICES_CLUSTER),
    verdict: {
      errors: 1,
      paths: ['spec.managed.services.additional[0]'],
      details: [{ index: 0, path: 'spec.managed.services.additional[0]', reason: 'FieldValueInvalid' }],
    },
  },
  {
    id: 'cluster/validateManagedServices/6',
    upstream: {
      file: 'cluster_webhook_test.go',
      line: 5499,
      describe: 'validateManagedServices > when service template validation fails',
      it: 'should not allow reserved service names',
    },
    function: 'validateManagedServices',
    kind: 'Cluster',
    input: cluster(
      {
        managed: {
          services: { additional: [additionalService('test-rw'), additionalService('test-r'), additionalService('test-ro'), additionalService('test-any')] },
        },
      },
      SERVICES_CLUSTER,
    ),
    verdict: {
      errors: 4,
      paths: [
        'spec.managed.services.additional[0]',
        'spec.managed.services.additional[1]',
        'spec.managed.services.additional[2]',
        'spec.managed.services.additional[3]',
      ],
      details: [reservedServiceName(0, 'test-rw'), reservedServiceName(1, 'test-r'), reservedServiceName(2, 'test-ro'), reservedServiceName(3, 'test-any')],
    },
  },
  {
    id: 'cluster/validateManagedServices/7',
    upstream: {
      file: 'cluster_webhook_test.go',
      line: 5522,
      describe: 'validateManagedServices > disabledDefault service validation',
      it: 'should allow the disablement of ro and r service',
    },
    function: 'validateManagedServices',
    kind: 'Cluster',
    input: cluster({ managed: { services: { additional: [], disabledDefaultServices: ['r', 'ro'] } } }, SERVICES_CLUSTER),
    verdict: { errors: 0 },
  },
  {
    id: 'cluster/validateManagedServices/8',
    upstream: {
      file: 'cluster_webhook_test.go',
      line: 5531,
      describe: 'validateManagedServices > disabledDefault service validation',
      it: 'should not allow the disablement of rw service',
    },
    function: 'validateManagedServices',
    kind: 'Cluster',
    input: cluster({ managed: { services: { additional: [], disabledDefaultServices: ['rw'] } } }, SERVICES_CLUSTER),
    verdict: {
      errors: 1,
      paths: ['spec.managed.services.disabledDefaultServices'],
      details: [{ index: 0, path: 'spec.managed.services.disabledDefaultServices', reason: 'FieldValueInvalid' }],
    },
  },
  // validateExtensions
  {
    id: 'cluster/validateExtensions/1',
    upstream: { file: 'cluster_webhook_test.go', line: 5775, describe: 'validateExtensions', it: 'returns no error when extensions are not specified' },
    function: 'validateExtensions',
    kind: 'Cluster',
    input: cluster(),
    verdict: { errors: 0 },
  },
  {
    id: 'cluster/validateExtensions/2',
    upstream: { file: 'cluster_webhook_test.go', line: 5780, describe: 'validateExtensions', it: 'returns no error if the specified extensions are unique' },
    function: 'validateExtensions',
    kind: 'Cluster',
    input: cluster(withExtensions(extension('extOne'), extension('extTwo'))),
    verdict: { errors: 0 },
  },
  {
    id: 'cluster/validateExtensions/3',
    upstream: { file: 'cluster_webhook_test.go', line: 5805, describe: 'validateExtensions', it: 'returns an error per duplicate extension name' },
    function: 'validateExtensions',
    kind: 'Cluster',
    input: cluster(withExtensions(extension('extOne'), extension('extTwo'), extension('extTwo', {}, 'extTwo:1'), extension('extOne', {}, 'extOne:1'))),
    verdict: {
      errors: 2,
      details: [
        { index: 0, reason: 'FieldValueDuplicate', value: 'extTwo' },
        { index: 1, reason: 'FieldValueDuplicate', value: 'extOne' },
      ],
    },
  },
  {
    id: 'cluster/validateExtensions/4',
    upstream: {
      file: 'cluster_webhook_test.go',
      line: 5847,
      describe: 'validateExtensions',
      it: 'returns multiple errors for both invalid ExtensionControlPath and DynamicLibraryPath',
    },
    function: 'validateExtensions',
    kind: 'Cluster',
    input: cluster(withExtensions(extension('extOne', { extension_control_path: ['/valid/path', ''], dynamic_library_path: ['', '/valid/lib/path'] }))),
    verdict: {
      errors: 2,
      details: [
        { index: 0, pathContains: 'extensions[0].extension_control_path[1]' },
        { index: 1, pathContains: 'extensions[0].dynamic_library_path[0]' },
      ],
    },
  },
  {
    id: 'cluster/validateExtensions/5',
    upstream: {
      file: 'cluster_webhook_test.go',
      line: 5877,
      describe: 'validateExtensions',
      it: 'returns no error when ExtensionControlPath and DynamicLibraryPath are valid',
    },
    function: 'validateExtensions',
    kind: 'Cluster',
    input: cluster(
      withExtensions(
        extension('extOne', {
          extension_control_path: ['/usr/share/postgresql/extension', '/opt/custom/extensions'],
          dynamic_library_path: ['/usr/lib/postgresql/lib', '/opt/custom/lib'],
        }),
      ),
    ),
    verdict: { errors: 0 },
  },
  {
    id: 'cluster/validateExtensions/6',
    upstream: { file: 'cluster_webhook_test.go', line: 5904, describe: 'validateExtensions', it: 'returns no error when LdLibraryPath and BinPath are valid' },
    function: 'validateExtensions',
    kind: 'Cluster',
    input: cluster(withExtensions(extension('extOne', { ld_library_path: ['/opt/custom/lib'], bin_path: ['/opt/custom/bin'] }))),
    verdict: { errors: 0 },
  },
  {
    id: 'cluster/validateExtensions/7',
    upstream: { file: 'cluster_webhook_test.go', line: 5929, describe: 'validateExtensions', it: 'returns errors for duplicate ExtensionControlPath entries' },
    function: 'validateExtensions',
    kind: 'Cluster',
    input: cluster(
      withExtensions(
        extension('extOne', { extension_control_path: ['/usr/share/postgresql/extension', '/opt/custom/extensions', '/usr/share/postgresql/extension'] }),
      ),
    ),
    verdict: {
      errors: 1,
      details: [{ index: 0, reason: 'FieldValueDuplicate', pathContains: 'extensions[0].extension_control_path[2]', value: '/usr/share/postgresql/extension' }],
    },
  },
  {
    id: 'cluster/validateExtensions/8',
    upstream: { file: 'cluster_webhook_test.go', line: 5957, describe: 'validateExtensions', it: 'returns errors for duplicate DynamicLibraryPath entries' },
    function: 'validateExtensions',
    kind: 'Cluster',
    input: cluster(withExtensions(extension('extOne', { dynamic_library_path: ['/usr/lib/postgresql/lib', '/opt/custom/lib', '/usr/lib/postgresql/lib'] }))),
    verdict: {
      errors: 1,
      details: [{ index: 0, reason: 'FieldValueDuplicate', pathContains: 'extensions[0].dynamic_library_path[2]', value: '/usr/lib/postgresql/lib' }],
    },
  },
  {
    id: 'cluster/validateExtensions/9',
    upstream: { file: 'cluster_webhook_test.go', line: 5985, describe: 'validateExtensions', it: 'returns errors for duplicate LdLibraryPath entries' },
    function: 'validateExtensions',
    kind: 'Cluster',
    input: cluster(withExtensions(extension('extOne', { ld_library_path: ['/usr/lib/postgresql/lib', '/opt/custom/lib', '/usr/lib/postgresql/lib'] }))),
    verdict: {
      errors: 1,
      details: [{ index: 0, reason: 'FieldValueDuplicate', pathContains: 'extensions[0].ld_library_path[2]', value: '/usr/lib/postgresql/lib' }],
    },
  },
  {
    id: 'cluster/validateExtensions/10',
    upstream: { file: 'cluster_webhook_test.go', line: 6013, describe: 'validateExtensions', it: 'returns an error for empty LdLibraryPath entries' },
    function: 'validateExtensions',
    kind: 'Cluster',
    input: cluster(withExtensions(extension('extOne', { ld_library_path: ['/valid/path', ''] }))),
    verdict: { errors: 1, details: [{ index: 0, pathContains: 'extensions[0].ld_library_path[1]' }] },
  },
  {
    id: 'cluster/validateExtensions/11',
    upstream: { file: 'cluster_webhook_test.go', line: 6038, describe: 'validateExtensions', it: 'returns errors for duplicate BinPath entries' },
    function: 'validateExtensions',
    kind: 'Cluster',
    input: cluster(withExtensions(extension('extOne', { bin_path: ['/usr/local/bin', '/opt/custom/bin', '/usr/local/bin'] }))),
    verdict: { errors: 1, details: [{ index: 0, reason: 'FieldValueDuplicate', pathContains: 'extensions[0].bin_path[2]', value: '/usr/local/bin' }] },
  },
  {
    id: 'cluster/validateExtensions/12',
    upstream: { file: 'cluster_webhook_test.go', line: 6066, describe: 'validateExtensions', it: 'returns an error for empty BinPath entries' },
    function: 'validateExtensions',
    kind: 'Cluster',
    input: cluster(withExtensions(extension('extOne', { bin_path: ['/valid/path', ''] }))),
    verdict: { errors: 1, details: [{ index: 0, pathContains: 'extensions[0].bin_path[1]' }] },
  },
  {
    id: 'cluster/validateExtensions/13',
    upstream: { file: 'cluster_webhook_test.go', line: 6091, describe: 'validateExtensions', it: 'returns an error for path traversal in path lists' },
    function: 'validateExtensions',
    kind: 'Cluster',
    input: cluster(
      withExtensions(
        extension('extOne', {
          extension_control_path: ['../../etc'],
          dynamic_library_path: ['../escape'],
          ld_library_path: ['lib/../../../secret'],
          bin_path: ['../bin'],
        }),
      ),
    ),
    verdict: {
      errors: 4,
      details: [
        { index: 0, pathContains: 'extension_control_path[0]' },
        { index: 1, pathContains: 'dynamic_library_path[0]' },
        { index: 2, pathContains: 'ld_library_path[0]' },
        { index: 3, pathContains: 'bin_path[0]' },
      ],
    },
  },
  {
    id: 'cluster/validateExtensions/14',
    upstream: {
      file: 'cluster_webhook_test.go',
      line: 6127,
      describe: 'validateExtensions',
      it: 'returns errors for duplicates in both LdLibraryPath and BinPath',
    },
    function: 'validateExtensions',
    kind: 'Cluster',
    input: cluster(
      withExtensions(
        extension('extOne', {
          ld_library_path: ['/usr/lib/postgresql/lib', '/usr/lib/postgresql/lib'],
          bin_path: ['/usr/lib/postgresql/bin', '/usr/lib/postgresql/bin'],
        }),
      ),
    ),
    verdict: {
      errors: 2,
      details: [
        { index: 0, reason: 'FieldValueDuplicate', value: '/usr/lib/postgresql/lib' },
        { index: 1, reason: 'FieldValueDuplicate', value: '/usr/lib/postgresql/bin' },
      ],
    },
  },
  {
    id: 'cluster/validateExtensions/15',
    upstream: {
      file: 'cluster_webhook_test.go',
      line: 6161,
      describe: 'validateExtensions',
      it: 'returns errors for duplicates in both ExtensionControlPath and DynamicLibraryPath',
    },
    function: 'validateExtensions',
    kind: 'Cluster',
    input: cluster(
      withExtensions(
        extension('extOne', {
          extension_control_path: ['/usr/share/postgresql/extension', '/usr/share/postgresql/extension'],
          dynamic_library_path: ['/usr/lib/postgresql/lib', '/usr/lib/postgresql/lib'],
        }),
      ),
    ),
    verdict: {
      errors: 2,
      details: [
        { index: 0, reason: 'FieldValueDuplicate', value: '/usr/share/postgresql/extension' },
        { index: 1, reason: 'FieldValueDuplicate', value: '/usr/lib/postgresql/lib' },
      ],
    },
  },
  {
    id: 'cluster/validateExtensions/16',
    upstream: { file: 'cluster_webhook_test.go', line: 6195, describe: 'validateExtensions', it: 'returns an error for forbidden env entries' },
    function: 'validateExtensions',
    kind: 'Cluster',
    input: cluster(
      withExtensions(
        extension('extOne', {
          env: [
            { name: 'PATH', value: '/my/binary/path' },
            { name: 'LD_LIBRARY_PATH', value: '/my/library/path' },
          ],
        }),
      ),
    ),
    verdict: {
      errors: 2,
      paths: ['spec.postgresql.extensions[0].env[0].name', 'spec.postgresql.extensions[0].env[1].name'],
      details: [
        { index: 0, reason: 'FieldValueForbidden', path: 'spec.postgresql.extensions[0].env[0].name' },
        { index: 1, reason: 'FieldValueForbidden', path: 'spec.postgresql.extensions[0].env[1].name' },
      ],
    },
  },
  {
    id: 'cluster/validateExtensions/17',
    upstream: { file: 'cluster_webhook_test.go', line: 6231, describe: 'validateExtensions', it: 'returns an error for reserved env entries' },
    function: 'validateExtensions',
    kind: 'Cluster',
    input: cluster(
      withExtensions(
        extension('extOne', {
          env: [
            { name: 'PGDATA', value: '/some/path' },
            { name: 'CNPG_SECRET', value: 'some_value' },
          ],
        }),
      ),
    ),
    verdict: {
      errors: 2,
      paths: ['spec.postgresql.extensions[0].env[0].name', 'spec.postgresql.extensions[0].env[1].name'],
      details: [
        { index: 0, reason: 'FieldValueInvalid', path: 'spec.postgresql.extensions[0].env[0].name', value: 'PGDATA' },
        { index: 1, reason: 'FieldValueInvalid', path: 'spec.postgresql.extensions[0].env[1].name', value: 'CNPG_SECRET' },
      ],
    },
  },
  {
    id: 'cluster/validateExtensions/18',
    upstream: { file: 'cluster_webhook_test.go', line: 6269, describe: 'validateExtensions', it: 'returns an error for duplicate env entries' },
    function: 'validateExtensions',
    kind: 'Cluster',
    input: cluster(
      withExtensions(
        extension('extOne', {
          env: [
            { name: 'FOO', value: 'foo' },
            { name: 'FOO', value: 'bar' },
          ],
        }),
      ),
    ),
    verdict: {
      errors: 1,
      paths: ['spec.postgresql.extensions[0].env[1].name'],
      details: [{ index: 0, reason: 'FieldValueDuplicate', path: 'spec.postgresql.extensions[0].env[1].name', value: 'FOO' }],
    },
  },
  {
    id: 'cluster/validateExtensions/19',
    upstream: { file: 'cluster_webhook_test.go', line: 6303, describe: 'validateExtensions', it: 'returns an error for unknown placeholders in env values' },
    function: 'validateExtensions',
    kind: 'Cluster',
    input: cluster(
      withExtensions(
        extension('extOne', {
          env: [
            { name: 'GOOD', value: '${image_root}/lib' },
            { name: 'BAD', value: '${image_rot}/lib' },
          ],
        }),
      ),
    ),
    verdict: {
      errors: 1,
      paths: ['spec.postgresql.extensions[0].env[1].value'],
      details: [{ index: 0, reason: 'FieldValueInvalid', path: 'spec.postgresql.extensions[0].env[1].value' }],
    },
  },
  {
    id: 'cluster/validateExtensions/20',
    upstream: { file: 'cluster_webhook_test.go', line: 6336, describe: 'validateExtensions', it: 'accepts escaped placeholders in env values' },
    function: 'validateExtensions',
    kind: 'Cluster',
    input: cluster(
      withExtensions(
        extension('extOne', {
          env: [
            { name: 'LITERAL', value: '$${not_a_placeholder}' },
            { name: 'MIXED', value: '$${escaped}/${image_root}/lib' },
          ],
        }),
      ),
    ),
    verdict: { errors: 0 },
  },
  {
    id: 'cluster/validateExtensions/21',
    upstream: {
      file: 'cluster_webhook_test.go',
      line: 6366,
      describe: 'validateExtensions',
      it: 'returns an error when extension names collide after underscore sanitization',
    },
    function: 'validateExtensions',
    kind: 'Cluster',
    input: cluster(withExtensions(extension('pg_ivm', {}, 'pg_ivm:latest'), extension('pg-ivm', {}, 'pg-ivm:latest'))),
    verdict: {
      errors: 1,
      details: [{ index: 0, reason: 'FieldValueInvalid', pathContains: 'extensions[1].name', value: 'pg-ivm', messageContains: ['duplicate volume name'] }],
    },
  },
  {
    id: 'cluster/validateExtensions/22',
    upstream: {
      file: 'cluster_webhook_test.go',
      line: 6396,
      describe: 'validateExtensions',
      it: "returns no error when extension names with underscores don't collide",
    },
    function: 'validateExtensions',
    kind: 'Cluster',
    input: cluster(withExtensions(extension('pg_ivm', {}, 'pg_ivm:latest'), extension('pg_stat', {}, 'pg_stat:latest'))),
    verdict: { errors: 0 },
  },
  {
    id: 'cluster/validateExtensions/23',
    upstream: {
      file: 'cluster_webhook_test.go',
      line: 6421,
      describe: 'validateExtensions',
      it: 'returns no error when extension names have mixed underscores and hyphens without collisions',
    },
    function: 'validateExtensions',
    kind: 'Cluster',
    input: cluster(withExtensions(extension('pg_foo-bar', {}, 'pg_foo-bar:latest'), extension('pg-foo_baz', {}, 'pg-foo_baz:latest'))),
    verdict: { errors: 0 },
  },
  {
    id: 'cluster/validateExtensions/24',
    upstream: {
      file: 'cluster_webhook_test.go',
      line: 6446,
      describe: 'validateExtensions',
      it: 'returns an error when three extensions collide after sanitization',
    },
    function: 'validateExtensions',
    kind: 'Cluster',
    input: cluster(
      withExtensions(extension('pgstat', {}, 'pgstat:latest'), extension('pg_stat', {}, 'pg_stat:latest'), extension('pg-stat', {}, 'pg-stat:latest')),
    ),
    verdict: { errors: 1, details: [{ index: 0, reason: 'FieldValueInvalid', pathContains: 'extensions[2].name', value: 'pg-stat' }] },
    note: 'Despite the title, only pg_stat and pg-stat collide (both become ext-pg-stat); pgstat stays ext-pgstat.',
  },
  // validatePodSelectorRefs
  {
    id: 'cluster/validatePodSelectorRefs/1',
    upstream: { file: 'cluster_webhook_test.go', line: 6854, describe: 'podSelectorRefs validation', it: 'accepts a valid configuration' },
    function: 'validatePodSelectorRefs',
    kind: 'Cluster',
    input: cluster({
      podSelectorRefs: [{ name: 'app-pods', selector: { matchLabels: { app: 'myapp' } } }],
      postgresql: { pg_hba: ['hostssl mydb myuser ${podselector:app-pods} scram-sha-256'] },
    }),
    verdict: { errors: 0 },
  },
  {
    id: 'cluster/validatePodSelectorRefs/2',
    upstream: { file: 'cluster_webhook_test.go', line: 6876, describe: 'podSelectorRefs validation', it: 'accepts an empty configuration' },
    function: 'validatePodSelectorRefs',
    kind: 'Cluster',
    input: cluster(),
    verdict: { errors: 0 },
  },
  {
    id: 'cluster/validatePodSelectorRefs/3',
    upstream: { file: 'cluster_webhook_test.go', line: 6882, describe: 'podSelectorRefs validation', it: 'rejects undefined pod selector in pg_hba' },
    function: 'validatePodSelectorRefs',
    kind: 'Cluster',
    input: cluster({ postgresql: { pg_hba: ['hostssl mydb myuser ${podselector:undefined-ref} scram-sha-256'] } }),
    verdict: { errors: 1, details: [{ index: 0, reason: 'FieldValueInvalid', messageContains: ['undefined-ref'] }] },
  },
  {
    id: 'cluster/validatePodSelectorRefs/4',
    upstream: { file: 'cluster_webhook_test.go', line: 6898, describe: 'podSelectorRefs validation', it: 'rejects duplicate podSelectorRefs names' },
    function: 'validatePodSelectorRefs',
    kind: 'Cluster',
    input: cluster({
      podSelectorRefs: [
        { name: 'app-pods', selector: { matchLabels: { app: 'myapp' } } },
        { name: 'app-pods', selector: { matchLabels: { app: 'other' } } },
      ],
    }),
    verdict: { errors: 1, details: [{ index: 0, reason: 'FieldValueDuplicate' }] },
  },
  {
    id: 'cluster/validatePodSelectorRefs/5',
    upstream: { file: 'cluster_webhook_test.go', line: 6922, describe: 'podSelectorRefs validation', it: 'rejects invalid label selector' },
    function: 'validatePodSelectorRefs',
    kind: 'Cluster',
    input: cluster({ podSelectorRefs: [{ name: 'bad-selector', selector: { matchExpressions: [{ key: 'app', operator: 'InvalidOperator' }] } }] }),
    verdict: { errors: 'some' },
  },
  {
    id: 'cluster/validatePodSelectorRefs/6',
    upstream: {
      file: 'cluster_webhook_test.go',
      line: 6944,
      describe: 'podSelectorRefs validation',
      it: 'rejects multiple podselector references in a single pg_hba line',
    },
    function: 'validatePodSelectorRefs',
    kind: 'Cluster',
    input: cluster({
      podSelectorRefs: [
        { name: 'app1', selector: { matchLabels: { app: 'one' } } },
        { name: 'app2', selector: { matchLabels: { app: 'two' } } },
      ],
      postgresql: { pg_hba: ['host all all ${podselector:app1} ${podselector:app2} md5'] },
    }),
    verdict: { errors: 1, details: [{ index: 0, reason: 'FieldValueInvalid' }] },
  },
  {
    id: 'cluster/validatePodSelectorRefs/7',
    upstream: { file: 'cluster_webhook_test.go', line: 6973, describe: 'podSelectorRefs validation', it: 'accepts defined but unreferenced selectors' },
    function: 'validatePodSelectorRefs',
    kind: 'Cluster',
    input: cluster({
      podSelectorRefs: [{ name: 'app-pods', selector: { matchLabels: { app: 'myapp' } } }],
      postgresql: { pg_hba: ['host all all 10.0.0.0/8 md5'] },
    }),
    verdict: { errors: 0 },
  },
  // validateServiceAccountConfig
  {
    id: 'cluster/validateServiceAccountConfig/1',
    upstream: {
      file: 'cluster_webhook_test.go',
      line: 7002,
      describe: 'ServiceAccount configuration validation',
      it: 'accepts cluster without serviceAccountName or serviceAccountTemplate',
    },
    function: 'validateServiceAccountConfig',
    kind: 'Cluster',
    input: cluster(),
    verdict: { errors: 0 },
  },
  {
    id: 'cluster/validateServiceAccountConfig/2',
    upstream: {
      file: 'cluster_webhook_test.go',
      line: 7010,
      describe: 'ServiceAccount configuration validation',
      it: 'accepts cluster with only serviceAccountName specified',
    },
    function: 'validateServiceAccountConfig',
    kind: 'Cluster',
    input: cluster({ serviceAccountName: 'shared-sa' }),
    verdict: { errors: 0 },
  },
  {
    id: 'cluster/validateServiceAccountConfig/3',
    upstream: {
      file: 'cluster_webhook_test.go',
      line: 7020,
      describe: 'ServiceAccount configuration validation',
      it: 'accepts cluster with only serviceAccountTemplate specified',
    },
    function: 'validateServiceAccountConfig',
    kind: 'Cluster',
    input: cluster({ serviceAccountTemplate: {} }),
    verdict: { errors: 0 },
  },
  {
    id: 'cluster/validateServiceAccountConfig/4',
    upstream: {
      file: 'cluster_webhook_test.go',
      line: 7030,
      describe: 'ServiceAccount configuration validation',
      it: 'rejects cluster with both serviceAccountName and serviceAccountTemplate',
    },
    function: 'validateServiceAccountConfig',
    kind: 'Cluster',
    input: cluster({ serviceAccountName: 'shared-sa', serviceAccountTemplate: {} }),
    verdict: {
      errors: 1,
      paths: ['spec.serviceAccountName'],
      details: [{ index: 0, path: 'spec.serviceAccountName', messageContains: ['mutually exclusive'] }],
    },
  },
];
