/*
 * cloudnative-pg v1.30.0 internal/webhook/v1/common_test.go as data: isValidationEnabled, the
 * parser of the `cnpg.io/validation` annotation that every bypassable validator (Cluster, Backup,
 * Pooler, Database; the ScheduledBackup webhook is registered without the bypass) reads first.
 * `fails` is the error isValidationEnabled returns, which the wrapper turns into a warning.
 */
import { cluster, HelperCase } from '../case';

export const COMMON_CASES: readonly HelperCase[] = [
  {
    id: 'common/isValidationEnabled/1',
    upstream: {
      file: 'common_test.go',
      line: 47,
      describe: 'Validation webhook validation parser',
      it: 'ensures that with no annotations the validation checking is enabled',
    },
    function: 'isValidationEnabled',
    args: { obj: cluster() },
    expected: { returns: true, fails: false },
  },
  {
    id: 'common/isValidationEnabled/2',
    upstream: {
      file: 'common_test.go',
      line: 52,
      describe: 'Validation webhook validation parser',
      it: 'ensures that with validation can be explicitly enabled',
    },
    function: 'isValidationEnabled',
    args: { obj: cluster({}, { annotations: { 'cnpg.io/validation': 'enabled' } }) },
    expected: { returns: true, fails: false },
  },
  {
    id: 'common/isValidationEnabled/3',
    upstream: {
      file: 'common_test.go',
      line: 57,
      describe: 'Validation webhook validation parser',
      it: 'ensures that with validation can be explicitly disabled',
    },
    function: 'isValidationEnabled',
    args: { obj: cluster({}, { annotations: { 'cnpg.io/validation': 'disabled' } }) },
    expected: { returns: false, fails: false },
  },
  {
    id: 'common/isValidationEnabled/4',
    upstream: {
      file: 'common_test.go',
      line: 62,
      describe: 'Validation webhook validation parser',
      it: 'ensures that with validation is enabled when the annotation value is unknown',
    },
    function: 'isValidationEnabled',
    args: { obj: cluster({}, { annotations: { 'cnpg.io/validation': 'idontknow' } }) },
    expected: { returns: true, fails: true },
  },
];
