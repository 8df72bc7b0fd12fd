/*
 * The upstream tests of cloudnative-pg v1.30.0 internal/webhook/v1 that the table does not carry,
 * each with the reason. Everything else is a case (cases/*.ts).
 */
import { LeftOut } from './case';

const VOLUME_SNAPSHOT_CRD =
  'The verdict depends on whether the VolumeSnapshot CRD was installed when the operator started (utils.SetVolumeSnapshot in the test, ' +
  'a discovery result in the operator), which no manifest of the object carries. The fact itself: method volumeSnapshot is refused at ' +
  'spec.method when the CRD is absent and accepted when it is present.';

const BYPASS =
  'The test wraps a fake validator (a Go test double that always fails) in the bypassable validator, so the verdict is about the wrapper, ' +
  'not about an object. The facts it shows: `cnpg.io/validation: disabled` accepts the object with one warning whatever the validator says; ' +
  '`enabled` passes the validator through; an unknown value adds one warning and still validates. The annotation parsing itself is ported ' +
  'as common/isValidationEnabled/1-4.';

export const LEFT_OUT: readonly LeftOut[] = [
  {
    upstream: { file: 'backup_webhook_test.go', line: 39, describe: 'Backup webhook validate', it: "doesn't complain if VolumeSnapshot CRD is present" },
    function: 'validate',
    kind: 'Backup',
    reason: 'operator-environment',
    detail: VOLUME_SNAPSHOT_CRD,
  },
  {
    upstream: { file: 'backup_webhook_test.go', line: 50, describe: 'Backup webhook validate', it: 'complains if VolumeSnapshot CRD is not present' },
    function: 'validate',
    kind: 'Backup',
    reason: 'operator-environment',
    detail: VOLUME_SNAPSHOT_CRD,
  },
  {
    upstream: { file: 'scheduledbackup_webhook_test.go', line: 74, describe: 'Validate schedule', it: "doesn't complain if VolumeSnapshot CRD is present" },
    function: 'validate',
    kind: 'ScheduledBackup',
    reason: 'operator-environment',
    detail: VOLUME_SNAPSHOT_CRD,
  },
  {
    upstream: { file: 'scheduledbackup_webhook_test.go', line: 88, describe: 'Validate schedule', it: 'complains if VolumeSnapshot CRD is not present' },
    function: 'validate',
    kind: 'ScheduledBackup',
    reason: 'operator-environment',
    detail: VOLUME_SNAPSHOT_CRD,
  },
  {
    upstream: { file: 'common_test.go', line: 167, describe: 'Bypassable validator > validator callbacks', it: 'validation is disabled' },
    function: 'bypassableValidator',
    kind: 'Cluster',
    reason: 'go-test-double',
    detail: BYPASS,
  },
  {
    upstream: { file: 'common_test.go', line: 168, describe: 'Bypassable validator > validator callbacks', it: 'validation is enabled' },
    function: 'bypassableValidator',
    kind: 'Cluster',
    reason: 'go-test-double',
    detail: BYPASS,
  },
  {
    upstream: { file: 'common_test.go', line: 169, describe: 'Bypassable validator > validator callbacks', it: 'validation value is not expected' },
    function: 'bypassableValidator',
    kind: 'Cluster',
    reason: 'go-test-double',
    detail: BYPASS,
  },
];
