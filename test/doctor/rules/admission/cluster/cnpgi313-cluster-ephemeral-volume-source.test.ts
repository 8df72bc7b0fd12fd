/*
 * CNPGI313 cluster-ephemeral-volume-source: the Cluster webhook's validateEphemeralVolumeSource as the doctor reports it: inputs that trip it
 * (what the doctor says, where), and near misses the webhook accepts.
 */
import { cluster, findingsOf } from '../admission-helpers';

const RULE = 'CNPGI313';

describe('CNPGI313 cluster-ephemeral-volume-source', () => {
  test('trips: both', () => {
    expect(
      findingsOf(
        RULE,
        cluster({
          ephemeralVolumeSource: { volumeClaimTemplate: { spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } } },
          ephemeralVolumesSizeLimit: { temporaryData: '1Gi' },
        }),
      ),
    ).toEqual([
      {
        severity: 'error',
        path: 'spec.ephemeralVolumeSource',
        message:
          'the Cluster webhook refuses ephemeralVolumeSource beside ephemeralVolumesSizeLimit.temporaryData (Duplicate value: "Conflicting settings: provide either ephemeralVolumeSource or ephemeralVolumesSizeLimit.TemporaryData, not both."): both define the volume of the temporary data',
        fix: 'size the volume inside ephemeralVolumeSource and remove ephemeralVolumesSizeLimit.temporaryData, or remove ephemeralVolumeSource',
      },
    ]);
  });

  test.each<[string, Record<string, unknown>, Record<string, unknown>]>([
    [
      'the source alone',
      { ephemeralVolumeSource: { volumeClaimTemplate: { spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } } } },
      {},
    ],
    ['the size limit alone', { ephemeralVolumesSizeLimit: { temporaryData: '1Gi' } }, {}],
    [
      'the source with a shared memory limit',
      {
        ephemeralVolumeSource: { volumeClaimTemplate: { spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } } },
        ephemeralVolumesSizeLimit: { shm: '256Mi' },
      },
      {},
    ],
  ])('passes: %s', (_title, spec, metadata) => {
    expect(findingsOf(RULE, cluster(spec, metadata))).toEqual([]);
  });
});
