/**
 * The conformance table (test/conformance) against the real judge: each create case is sent to
 * the real API server (CloudNativePG v1.30.0's webhooks, the pinned CRDs) as a dry-run create,
 * and the library's model of the API server (`./model.ts`: the schema guard and `admit`, what the
 * doctor's admission rules report) must decide the same: refused or not, and for a refusal at
 * least one field in common. A disagreement fails with both messages.
 */
import { AdmissionCase } from '../conformance/case';
import { ADMISSION_CASES } from '../conformance/table';
import { AdmissionResult, describeWithControlPlane, KubeObject } from './control-plane';
import { bothMessages, modelVerdict, realFields } from './model';

/**
 * Cases not sent, by reason. An update case judges a change against a stored object, which a
 * create does not have (the update checks, `validateClusterChanges`, stay with the table's own
 * runner, test/conformance/conformance.test.ts).
 */
function exclusion(c: AdmissionCase): string | undefined {
  return c.old ? 'update: judged against a stored object, which a dry-run create has none of' : undefined;
}

/**
 * Refusals where both refuse but name different fields, each with why. Listed exactly: a case
 * that starts to agree fails the test too, so that the list stays true.
 */
const KNOWN_FIELD_DIFFERENCES: Readonly<Record<string, string>> = {
  'cluster/validateBootstrapRecoveryDataSource/1':
    "the API server's schema refuses `volumeSnapshots.storage.apiGroup: null` (a string field) before any webhook runs; the library's schema guard reads the null as absent and reports the webhook's findings instead",
};

/** Objects as created: the status is dropped (the CRDs have the status subresource, so a create ignores it). */
function createdObject(c: AdmissionCase): KubeObject {
  const { status: _dropped, ...rest } = c.input;
  return JSON.parse(JSON.stringify(rest)) as KubeObject;
}

describeWithControlPlane('the conformance table against the real API server', (cp) => {
  const sent = ADMISSION_CASES.filter((c) => exclusion(c) === undefined);
  let real: AdmissionResult[] = [];

  beforeAll(async () => {
    real = await cp().dryRunAll(sent.map(createdObject), 'conformance');
  }, 600_000);

  test('every excluded case has its reason', () => {
    const excluded = ADMISSION_CASES.filter((c) => exclusion(c) !== undefined);
    expect(excluded.every((c) => c.old !== undefined)).toBe(true);
    expect(sent.length + excluded.length).toBe(ADMISSION_CASES.length);
  });

  test('the library refuses exactly what the real API server refuses, on the same field', () => {
    const disagreements: string[] = [];
    const fieldDifferences: string[] = [];
    let refused = 0;
    sent.forEach((c, i) => {
      const r = real[i];
      const model = modelVerdict(createdObject(c));
      if (!r.allowed) refused++;
      if (model.refused === r.allowed) {
        disagreements.push(`${c.id} (${c.upstream.file}:${c.upstream.line}):\n${bothMessages(r, model)}`);
        return;
      }
      if (!model.refused) return;
      const fields = realFields(r);
      if (!fields.some((f) => model.fields.includes(f))) {
        fieldDifferences.push(c.id);
        if (KNOWN_FIELD_DIFFERENCES[c.id] === undefined)
          disagreements.push(`${c.id}: real fields ${JSON.stringify(fields)}, library fields ${JSON.stringify(model.fields)}\n${bothMessages(r, model)}`);
      }
    });
    process.stderr.write(
      `conformance vs real: ${sent.length} cases dry-run (${refused} refused), ${sent.length - disagreements.length} agree, ` +
        `${fieldDifferences.length} known field differences, ${ADMISSION_CASES.length - sent.length} update cases excluded\n`,
    );
    expect(disagreements).toEqual([]);
    expect(fieldDifferences.sort()).toEqual(Object.keys(KNOWN_FIELD_DIFFERENCES).sort());
  });
});
