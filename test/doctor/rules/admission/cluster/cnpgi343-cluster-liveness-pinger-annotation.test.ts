import { annotate, clusterFindings } from '../cluster-findings';

const run = (value: string) => clusterFindings('CNPGI343', (c) => annotate(c, 'alpha.cnpg.io/livenessPinger', value));
const FIX = 'write JSON such as {"enabled": true, "requestTimeout": 1000, "connectionTimeout": 1000}, or configure spec.probes.liveness.isolationCheck instead';
const PATH = 'metadata.annotations.alpha.cnpg.io/livenessPinger';

describe('CNPGI343 cluster-liveness-pinger-annotation', () => {
  test('no enabled field', () => {
    expect(run('{"requestTimeout": 5000}')).toEqual([
      {
        severity: 'error',
        message:
          'the Cluster webhook refuses alpha.cnpg.io/livenessPinger ("error decoding liveness pinger config: pinger config is missing the enabled field"): the configuration must say whether the isolation check is enabled',
        fix: FIX,
        path: PATH,
      },
    ]);
    expect(run('{"enabled": null}')).toHaveLength(1);
    expect(run('null')).toHaveLength(1);
  });

  test('not JSON, or a field of the wrong type', () => {
    expect(run('enabled')).toEqual([
      {
        severity: 'error',
        message:
          'the Cluster webhook refuses alpha.cnpg.io/livenessPinger ("error decoding liveness pinger config: while unmarshalling pinger config: " and the JSON error): the value is not JSON',
        fix: FIX,
        path: PATH,
      },
    ]);
    expect(run('{"enabled": true, "requestTimeout": 1.5}')).toEqual([
      {
        severity: 'error',
        message:
          'the Cluster webhook refuses alpha.cnpg.io/livenessPinger ("error decoding liveness pinger config: while unmarshalling pinger config: json: cannot unmarshal number 1.5 into Go struct field IsolationCheckConfiguration.requestTimeout of type int"): enabled is a boolean, requestTimeout and connectionTimeout whole milliseconds',
        fix: FIX,
        path: PATH,
      },
    ]);
    expect(run('{"enabled": "true"}')).toHaveLength(1);
    expect(run('[{"enabled": true}]')).toHaveLength(1);
  });

  test('near misses the webhook accepts', () => {
    expect(run('{"connectionTimeout": 1000, "requestTimeout": 5000, "enabled": true}')).toEqual([]);
    expect(run('{"enabled": false}')).toEqual([]);
    expect(run('{"Enabled": true, "other": "x"}')).toEqual([]);
    expect(run(' {"enabled": true, "requestTimeout": -1} ')).toEqual([]);
  });
});
