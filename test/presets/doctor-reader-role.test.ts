import { Chart, Testing } from 'cdk8s';
import * as YAML from 'yaml';
import { DoctorReaderRole, DoctorReaderSubject } from '../../src';
import { runCluster } from '../../src/cli/cluster';
import { runCli } from '../cli/run-cli';
import { expectValidationError, synth } from '../util';

const chartIn = (namespace?: string) => new Chart(Testing.app(), 'ops', namespace === undefined ? {} : { namespace });

describe('DoctorReaderRole', () => {
  test("the ClusterRole is the one 'cnpg-i-doctor cluster --print-cluster-role' prints, byte for byte as YAML", async () => {
    const chart = chartIn('monitoring');
    new DoctorReaderRole(chart, 'doctor');
    const [role, ...rest] = synth(chart);
    expect(rest).toEqual([]);
    const printed = await runCli((argv, io) => runCluster(argv, io), ['--print-cluster-role']);
    expect(printed.code).toBe(0);
    expect(YAML.stringify(role)).toBe(printed.out);
    // cluster-scoped: the chart's namespace is not written
    expect(role.metadata).toEqual({ name: 'cnpg-i-doctor-reader', labels: { 'app.kubernetes.io/name': 'cnpg-i-doctor' } });
    // read-only: list, and nothing else, on every rule
    expect(role.rules.flatMap((r: { verbs: string[] }) => r.verbs)).toEqual(role.rules.map(() => 'list'));
    expect(role.rules.flatMap((r: { resources: string[] }) => r.resources)).toContain('secrets');
  });

  test('subjects: a ClusterRoleBinding of the same name, users and groups in the RBAC group, a ServiceAccount with its namespace', () => {
    const chart = chartIn('monitoring');
    const doctor = new DoctorReaderRole(chart, 'doctor', {
      name: 'system:cnpg-i-doctor',
      subjects: [
        DoctorReaderSubject.user('alice@example.com'),
        DoctorReaderSubject.group('platform-oncall'),
        DoctorReaderSubject.serviceAccount('doctor', 'ci'),
      ],
    });
    const [role, binding] = synth(chart);
    expect(role.metadata.name).toBe('system:cnpg-i-doctor');
    expect(binding).toEqual({
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRoleBinding',
      metadata: { name: 'system:cnpg-i-doctor', labels: { 'app.kubernetes.io/name': 'cnpg-i-doctor' } },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'system:cnpg-i-doctor' },
      subjects: [
        { kind: 'User', name: 'alice@example.com', apiGroup: 'rbac.authorization.k8s.io' },
        { kind: 'Group', name: 'platform-oncall', apiGroup: 'rbac.authorization.k8s.io' },
        { kind: 'ServiceAccount', name: 'doctor', namespace: 'ci' },
      ],
    });
    expect(doctor.clusterRoleBinding).toBeDefined();
  });

  test('bad input is refused with the fix', () => {
    expectValidationError(
      () => DoctorReaderSubject.serviceAccount('doctor', undefined as any),
      "DoctorReaderSubject.serviceAccount: namespace is not a namespace name (a lower-case DNS label): the API server requires the namespace of a ServiceAccount subject; pass the ServiceAccount's namespace, e.g. 'monitoring'",
    );
    expectValidationError(
      () => DoctorReaderSubject.serviceAccount('Doctor', 'ci'),
      "DoctorReaderSubject.serviceAccount: name 'Doctor' is not a ServiceAccount name (a lower-case DNS subdomain); use the ServiceAccount's metadata.name, e.g. 'cnpg-i-doctor'",
    );
    expect(() => DoctorReaderSubject.user('')).toThrow(/DoctorReaderSubject.user: name '' must not be empty/);
    expect(() => new DoctorReaderRole(chartIn(), 'doctor', { subjects: [{ kind: 'User', name: 'alice' } as any] })).toThrow(
      /ops\/doctor: subjects\[0\] .*DoctorReaderSubject.user\('alice@example.com'\)/,
    );
    expect(() => new DoctorReaderRole(chartIn(), 'doctor', { nmae: 'x' } as any)).toThrow(
      /ops\/doctor: props.nmae 'x' is not a declared key of props; did you mean 'name'\?/,
    );
  });

  test("a name the API server refuses (a '/') is the schema guard's at synth", () => {
    const chart = chartIn();
    new DoctorReaderRole(chart, 'doctor', { name: 'cnpg/doctor' });
    expect(() => Testing.synth(chart)).toThrow(/metadata\.name/);
  });
});
