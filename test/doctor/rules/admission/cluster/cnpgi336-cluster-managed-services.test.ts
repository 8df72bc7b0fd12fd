import { serviceTemplateIssues } from '../../../../../src/checks/admission/cluster-managed';
import { CLUSTER_POD_HELPER_CASES } from '../../../../conformance/cases/cluster-pod';
import { clusterFindings } from '../cluster-findings';

const run = (services: unknown) => clusterFindings('CNPGI336', (c) => (c.spec.managed = { services }));
const additional = (name: string, spec: object = {}) => ({ selectorType: 'rw', serviceTemplate: { metadata: { name }, spec } });

describe('CNPGI336 cluster-managed-services', () => {
  test('the rw Service cannot be disabled', () => {
    expect(run({ disabledDefaultServices: ['ro', 'rw'] })).toEqual([
      {
        severity: 'error',
        message:
          'the Cluster webhook refuses to disable the rw Service ("service of type RW cannot be disabled."): applications and the operator reach the primary through pg-rw',
        fix: 'remove rw from disabledDefaultServices (ro and r can be disabled)',
        path: 'spec.managed.services.disabledDefaultServices',
      },
    ]);
  });

  test("an additional Service named as one of the operator's", () => {
    expect(run({ additional: [additional('pg-any')] })).toEqual([
      {
        severity: 'error',
        message:
          "the Cluster webhook refuses the additional Service 'pg-any' (\"the service name: 'pg-any' is reserved for operator use\"): the operator makes pg-rw, pg-ro, pg-r, pg-any for this Cluster",
        fix: 'give the Service another name, or change a default Service through spec.managed.services (updateStrategy, disabledDefaultServices)',
        path: 'spec.managed.services.additional[0]',
      },
    ]);
  });

  test('a selector of its own, no name, a repeated name', () => {
    expect(run({ additional: [additional('reports', { selector: { app: 'x' } }), additional(''), additional('reports')] })).toEqual([
      {
        severity: 'error',
        message:
          "the Cluster webhook refuses the selector of the additional Service 'reports' (\"selector field is managed by the operator\"): the operator selects the instances by the Service's selectorType",
        fix: 'remove serviceTemplate.spec.selector and set selectorType (rw, ro, r) instead',
        path: 'spec.managed.services.additional[0]',
      },
      {
        severity: 'error',
        message: 'the Cluster webhook refuses an additional Service without a name ("name is required")',
        fix: 'set serviceTemplate.metadata.name',
        path: 'spec.managed.services.additional[1]',
      },
      {
        severity: 'error',
        message: 'the Cluster webhook refuses additional Services with the same name \'reports\' ("contains services with the same .metadata.name")',
        fix: 'give each additional Service its own name',
        path: 'spec.managed.services.additional',
      },
    ]);
  });

  test('near misses the webhook accepts', () => {
    expect(run({ disabledDefaultServices: ['ro', 'r'] })).toEqual([]);
    expect(run({ additional: [additional('pg-rw-extra'), additional('other-rw'), additional('reports', { selector: {} })] })).toEqual([]);
    expect(run({})).toEqual([]);
    expect(clusterFindings('CNPGI336', (c) => (c.spec.managed = { roles: [] }))).toEqual([]);
    // Another Cluster's Service names are free.
    expect(clusterFindings('CNPGI336', (c) => (c.spec.managed = { services: { additional: [additional('db-rw')] } }))).toEqual([]);
  });

  test('the service template check agrees with its upstream tests (the mode validateManagedServices calls)', () => {
    const cases = CLUSTER_POD_HELPER_CASES.filter((c) => c.function === 'validateServiceTemplate' && c.args.nameRequired === true);
    expect(cases).toHaveLength(4);
    for (const c of cases) {
      const issues = serviceTemplateIssues(c.args.path as string, c.args.template as Record<string, unknown>);
      const verdict = c.expected.verdict!;
      expect([c.id, issues.length]).toEqual([c.id, verdict.errors]);
      for (const d of verdict.details ?? []) for (const text of d.messageContains ?? []) expect(issues[d.index!].message).toContain(text);
    }
  });
});
