import { clusterFindings } from '../cluster-findings';

const b64 = (s: string) => Buffer.from(s).toString('base64');
const CONTENT = {
  latestCheckpointTimelineID: '3',
  redoWalFile: '0000000300000000000000F3',
  databaseSystemIdentifier: '7385418232066089017',
  latestCheckpointREDOLocation: '0/F3000028',
  timeOfLatestCheckpoint: 'Mon 06 May 2024 10:11:12 AM UTC',
  operatorVersion: '1.30.0',
};
const TOKEN = b64(JSON.stringify(CONTENT));
const run = (replica: object) =>
  clusterFindings('CNPGI342', (c) => {
    c.spec.replica = { source: 'origin', ...replica };
  });
const FIX = "use the token exactly as the demoted cluster's status.demotionToken shows it";

describe('CNPGI342 cluster-promotion-token', () => {
  test('a token with an empty field', () => {
    expect(run({ primary: 'pg', promotionToken: b64(JSON.stringify({ ...CONTENT, redoWalFile: '' })) })).toEqual([
      {
        severity: 'error',
        message:
          'the Cluster webhook refuses this promotion token ("Invalid promotionToken content: invalid promotion token (REDOWALFile is empty)"): the token lacks redoWalFile',
        fix: FIX,
        path: 'spec.replica.promotionToken',
      },
    ]);
  });

  test('not base64, not JSON, a field of the wrong type', () => {
    expect(run({ enabled: false, promotionToken: 'this-is-a-wrong-token' })).toEqual([
      {
        severity: 'error',
        message:
          'the Cluster webhook refuses this promotion token ("Invalid promotionToken format: invalid promotion token (Base64 decoding failed): " and the decoder\'s error): the token is not standard, padded base64',
        fix: FIX,
        path: 'spec.replica.promotionToken',
      },
    ]);
    expect(run({ enabled: false, promotionToken: b64('{"a":') })[0].message).toContain(
      '(JSON decoding failed): " and the decoder\'s error): the decoded token is not JSON',
    );
    expect(run({ enabled: false, promotionToken: b64(JSON.stringify({ ...CONTENT, latestCheckpointTimelineID: 3 })) })[0].message).toBe(
      'the Cluster webhook refuses this promotion token ("Invalid promotionToken format: invalid promotion token (JSON decoding failed): json: cannot unmarshal number into Go struct field PgControldataTokenContent.latestCheckpointTimelineID of type string"): every field of the token is a string',
    );
    // Unpadded base64 is refused.
    expect(run({ enabled: false, promotionToken: TOKEN.replace(/=+$/, '') + (TOKEN.endsWith('=') ? '' : 'x') })).toHaveLength(1);
  });

  test('on a replica, or with minApplyDelay', () => {
    expect(run({ primary: 'other', promotionToken: TOKEN })).toEqual([
      {
        severity: 'error',
        message:
          'the Cluster webhook refuses a promotion token on a replica cluster ("promotionToken is only allowed for primary clusters"): the token is for the cluster being promoted',
        fix: 'promote the cluster together with the token (spec.replica.primary naming this cluster, or spec.replica.enabled: false), or remove the token',
        path: 'spec.replica.promotionToken',
      },
    ]);
    expect(run({ primary: 'pg', promotionToken: TOKEN, minApplyDelay: '1h' })).toEqual([
      {
        severity: 'error',
        message:
          'the Cluster webhook refuses minApplyDelay beside a promotion token ("minApplyDelay cannot be applied with a promotion token"): the promotion waits for the standby to replay the WAL up to the token, which the delay holds back',
        fix: 'remove spec.replica.minApplyDelay for the promotion',
        path: 'spec.replica.minApplyDelay',
      },
    ]);
  });

  test('near misses the webhook accepts', () => {
    expect(run({ primary: 'pg', promotionToken: TOKEN })).toEqual([]);
    expect(run({ enabled: false, promotionToken: TOKEN })).toEqual([]);
    expect(run({ primary: 'other', self: 'other', promotionToken: TOKEN })).toEqual([]);
    // Keys match by case, unknown ones are ignored, newlines in the base64 too.
    const upper = b64(JSON.stringify({ ...Object.fromEntries(Object.entries(CONTENT).map(([k, v]) => [k.toUpperCase(), v])), extra: 1 }));
    expect(run({ primary: 'pg', promotionToken: upper.replace(/(.{20})/g, '$1\n') })).toEqual([]);
    expect(run({ primary: 'other', promotionToken: '' })).toEqual([]);
    expect(run({ primary: 'other', minApplyDelay: '1h' })).toEqual([]);
  });
});
