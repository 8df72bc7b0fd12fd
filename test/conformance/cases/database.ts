/*
 * cloudnative-pg v1.30.0 internal/webhook/v1/database_webhook_test.go as data:
 * DatabaseCustomValidator.validate (duplicate names of extensions, schemas, FDWs, servers and of
 * their options and usages).
 *
 * The error paths name `usages` where the JSON field is `usage`: upstream builds the path from
 * the Go field name, and the table keeps the path the webhook answers.
 */
import { AdmissionCase, database } from '../case';

export const DATABASE_CASES: readonly AdmissionCase[] = [
  {
    id: 'database/validate/1',
    upstream: { file: 'database_webhook_test.go', line: 89, describe: 'Database validation', it: "doesn't complain when extensions and schemas are null" },
    function: 'validate',
    kind: 'Database',
    input: database({}),
    verdict: { errors: 0 },
  },
  {
    id: 'database/validate/2',
    upstream: {
      file: 'database_webhook_test.go',
      line: 95,
      describe: 'Database validation',
      it: "doesn't complain if there are no duplicate extensions and no duplicate schemas",
    },
    function: 'validate',
    kind: 'Database',
    input: database({ extensions: [{ name: 'postgis', ensure: 'present' }], schemas: [{ name: 'test_schema', ensure: 'present' }] }),
    verdict: { errors: 0 },
  },
  {
    id: 'database/validate/3',
    upstream: { file: 'database_webhook_test.go', line: 110, describe: 'Database validation', it: 'complains if there are duplicate extensions' },
    function: 'validate',
    kind: 'Database',
    input: database({
      extensions: [
        { name: 'postgis', ensure: 'present' },
        { name: 'postgis', ensure: 'present' },
        { name: 'cube', ensure: 'present' },
      ],
    }),
    verdict: {
      errors: 1,
      paths: ['spec.extensions[1].name'],
      details: [{ path: 'spec.extensions[1].name', reason: 'FieldValueDuplicate', value: 'postgis' }],
    },
  },
  {
    id: 'database/validate/4',
    upstream: { file: 'database_webhook_test.go', line: 125, describe: 'Database validation', it: 'complains if there are duplicate schemas' },
    function: 'validate',
    kind: 'Database',
    input: database({
      schemas: [
        { name: 'test_one', ensure: 'present' },
        { name: 'test_two', ensure: 'present' },
        { name: 'test_two', ensure: 'present' },
      ],
    }),
    verdict: {
      errors: 1,
      paths: ['spec.schemas[2].name'],
      details: [{ path: 'spec.schemas[2].name', reason: 'FieldValueDuplicate', value: 'test_two' }],
    },
  },
  {
    id: 'database/validate/5',
    upstream: { file: 'database_webhook_test.go', line: 140, describe: 'Database validation', it: "doesn't complain with distinct FDWs and usage names" },
    function: 'validate',
    kind: 'Database',
    input: database({
      fdws: [
        { name: 'fdw1', ensure: 'present', usage: [{ name: 'usage1' }, { name: 'usage2' }], options: [{ name: 'option1' }, { name: 'option2' }] },
        { name: 'fdw2', ensure: 'present', usage: [{ name: 'usage3' }, { name: 'usage4' }], options: [{ name: 'option3' }, { name: 'option4' }] },
      ],
    }),
    verdict: { errors: 0 },
  },
  {
    id: 'database/validate/6',
    upstream: { file: 'database_webhook_test.go', line: 161, describe: 'Database validation', it: 'complains if there are duplicate FDWs' },
    function: 'validate',
    kind: 'Database',
    input: database({
      fdws: [
        { name: 'postgres_fdw', ensure: 'present' },
        { name: 'mysql_fdw', ensure: 'present' },
        { name: 'postgres_fdw', ensure: 'present' },
      ],
    }),
    verdict: {
      errors: 1,
      paths: ['spec.fdws[2].name'],
      details: [{ path: 'spec.fdws[2].name', reason: 'FieldValueDuplicate', value: 'postgres_fdw' }],
    },
  },
  {
    id: 'database/validate/7',
    upstream: {
      file: 'database_webhook_test.go',
      line: 176,
      describe: 'Database validation',
      it: 'complains if there are duplicate usage names within an FDW',
    },
    function: 'validate',
    kind: 'Database',
    input: database({ fdws: [{ name: 'postgre_fdw', ensure: 'present', usage: [{ name: 'usage1' }, { name: 'usage2' }, { name: 'usage1' }] }] }),
    verdict: {
      errors: 1,
      paths: ['spec.fdws[0].usages[2].name'],
      details: [{ path: 'spec.fdws[0].usages[2].name', reason: 'FieldValueDuplicate', value: 'usage1' }],
    },
  },
  {
    id: 'database/validate/8',
    upstream: {
      file: 'database_webhook_test.go',
      line: 192,
      describe: 'Database validation',
      it: 'complains for duplicate FDW and duplicate usage and option names',
    },
    function: 'validate',
    kind: 'Database',
    input: database({
      fdws: [
        {
          name: 'duplicate_fdw',
          ensure: 'present',
          usage: [{ name: 'dup_usage' }, { name: 'dup_usage' }],
          options: [{ name: 'dup_option' }, { name: 'dup_option' }],
        },
        { name: 'duplicate_fdw', ensure: 'present' },
      ],
    }),
    verdict: {
      errors: 3,
      paths: ['spec.fdws[0].options[1].name', 'spec.fdws[0].usages[1].name', 'spec.fdws[1].name'],
      details: [
        { path: 'spec.fdws[0].options[1].name', reason: 'FieldValueDuplicate', value: 'dup_option' },
        { path: 'spec.fdws[0].usages[1].name', reason: 'FieldValueDuplicate', value: 'dup_usage' },
        { path: 'spec.fdws[1].name', reason: 'FieldValueDuplicate', value: 'duplicate_fdw' },
      ],
    },
  },
  {
    id: 'database/validate/9',
    upstream: { file: 'database_webhook_test.go', line: 220, describe: 'Database validation', it: "doesn't complain with distinct foreign servers" },
    function: 'validate',
    kind: 'Database',
    input: database({
      fdws: [{ name: 'fdw1' }, { name: 'fdw2' }],
      servers: [
        { name: 'server1', ensure: 'present', fdw: 'fdw1' },
        { name: 'server2', ensure: 'present', fdw: 'fdw2' },
      ],
    }),
    verdict: { errors: 0 },
  },
  {
    id: 'database/validate/10',
    upstream: { file: 'database_webhook_test.go', line: 241, describe: 'Database validation', it: 'complains for duplicate foreign servers' },
    function: 'validate',
    kind: 'Database',
    input: database({
      fdws: [{ name: 'fdw1' }],
      servers: [
        { name: 'dup_server', ensure: 'present', fdw: 'fdw1' },
        { name: 'dup_server', ensure: 'present', fdw: 'fdw1' },
      ],
    }),
    verdict: {
      errors: 1,
      paths: ['spec.servers[1].name'],
      details: [{ path: 'spec.servers[1].name', reason: 'FieldValueDuplicate', value: 'dup_server' }],
    },
  },
  {
    id: 'database/validate/11',
    upstream: {
      file: 'database_webhook_test.go',
      line: 256,
      describe: 'Database validation',
      it: 'complains for duplicate options within a single foreign server',
    },
    function: 'validate',
    kind: 'Database',
    input: database({
      fdws: [{ name: 'fdw1' }],
      servers: [{ fdw: 'fdw1', name: 'server1', ensure: 'present', options: [{ name: 'duplicate_option' }, { name: 'duplicate_option' }] }],
    }),
    verdict: {
      errors: 1,
      paths: ['spec.servers[0].options[1].name'],
      details: [{ path: 'spec.servers[0].options[1].name', reason: 'FieldValueDuplicate', value: 'duplicate_option' }],
    },
  },
  {
    id: 'database/validate/12',
    upstream: {
      file: 'database_webhook_test.go',
      line: 274,
      describe: 'Database validation',
      it: 'complains for duplicate usages within a single foreign server',
    },
    function: 'validate',
    kind: 'Database',
    input: database({
      fdws: [{ name: 'fdw1' }],
      servers: [{ fdw: 'fdw1', name: 'server1', ensure: 'present', usage: [{ name: 'duplicate_usage' }, { name: 'duplicate_usage' }] }],
    }),
    verdict: {
      errors: 1,
      paths: ['spec.servers[0].usages[1].name'],
      details: [{ path: 'spec.servers[0].usages[1].name', reason: 'FieldValueDuplicate', value: 'duplicate_usage' }],
    },
  },
  {
    id: 'database/validate/13',
    upstream: {
      file: 'database_webhook_test.go',
      line: 292,
      describe: 'Database validation',
      it: 'complains for a combination of duplicate servers, options, and usages',
    },
    function: 'validate',
    kind: 'Database',
    input: database({
      fdws: [{ name: 'fdw1' }],
      servers: [
        {
          fdw: 'fdw1',
          name: 'server1',
          ensure: 'present',
          options: [{ name: 'dup_option' }, { name: 'dup_option' }],
          usage: [{ name: 'dup_usage' }, { name: 'dup_usage' }],
        },
        { fdw: 'fdw1', name: 'server1', ensure: 'present' },
      ],
    }),
    verdict: {
      errors: 3,
      paths: ['spec.servers[0].options[1].name', 'spec.servers[0].usages[1].name', 'spec.servers[1].name'],
      details: [
        { path: 'spec.servers[0].options[1].name', reason: 'FieldValueDuplicate', value: 'dup_option' },
        { path: 'spec.servers[0].usages[1].name', reason: 'FieldValueDuplicate', value: 'dup_usage' },
        { path: 'spec.servers[1].name', reason: 'FieldValueDuplicate', value: 'server1' },
      ],
    },
  },
];
