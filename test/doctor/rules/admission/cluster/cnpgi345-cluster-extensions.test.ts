import { clusterFindings } from '../cluster-findings';

const ext = (name: string, extra: object = {}) => ({ name, image: { reference: `ghcr.io/example/${name || 'x'}:1` }, ...extra });
const run = (extensions: unknown[], spec: object = {}) =>
  clusterFindings('CNPGI345', (c) => {
    c.spec.postgresql = { extensions };
    Object.assign(c.spec, spec);
  });

describe('CNPGI345 cluster-extensions', () => {
  test('two extensions that share a volume name', () => {
    expect(run([ext('pg_ivm'), ext('pg-ivm')])).toEqual([
      {
        severity: 'error',
        message:
          'the Cluster webhook refuses the extension \'pg-ivm\' ("extension name results in duplicate volume name "ext-pg-ivm" after sanitization (underscores are converted to hyphens)"): the extension \'pg_ivm\' gets the same image volume',
        fix: "rename one of 'pg_ivm' and 'pg-ivm' so that they differ after replacing '_' with '-'",
        path: 'spec.postgresql.extensions[1].name',
      },
    ]);
  });

  test('names, images and paths', () => {
    expect(run([ext(''), ext('vector'), ext('vector'), { name: 'noimage' }, ext('paths', { bin_path: ['bin', '', 'bin', 'lib/../../x'] })])).toEqual([
      {
        severity: 'error',
        message: 'the Cluster webhook refuses an extension without a name ("value cannot be empty")',
        fix: 'give the extension its name, e.g. pgvector',
        path: 'spec.postgresql.extensions[0].name',
      },
      {
        severity: 'error',
        message: 'the Cluster webhook refuses a second extension named \'vector\' (Duplicate value: "vector")',
        fix: 'list each extension once',
        path: 'spec.postgresql.extensions[2].name',
      },
      {
        severity: 'error',
        message:
          'the Cluster webhook refuses the extension \'noimage\' without an image ("Image reference for extension `noimage` must be set when no image catalog is configured")',
        fix: 'set image.reference to the extension image, or use spec.imageCatalogRef with a catalog that lists the extension',
        path: 'spec.postgresql.extensions[3].image.reference',
      },
      {
        severity: 'error',
        message: 'the Cluster webhook refuses an empty path ("value cannot be empty")',
        fix: 'remove the entry',
        path: 'spec.postgresql.extensions[4].bin_path[1]',
      },
      {
        severity: 'error',
        message: 'the Cluster webhook refuses the path \'bin\' listed twice (Duplicate value: "bin")',
        fix: 'remove the second entry',
        path: 'spec.postgresql.extensions[4].bin_path[2]',
      },
      {
        severity: 'error',
        message:
          'the Cluster webhook refuses the path \'lib/../../x\' ("path must not escape the extension directory"): the paths are relative to the directory the extension image is mounted in',
        fix: "use a path inside the extension image, such as 'lib' or 'share/extension'",
        path: 'spec.postgresql.extensions[4].bin_path[3]',
      },
    ]);
  });

  test('a path whose cleaned form starts with .. (even ..lib)', () => {
    expect(run([ext('x', { dynamic_library_path: ['../lib', '..lib', '/usr/../../lib'] })]).map((f) => f.path)).toEqual([
      'spec.postgresql.extensions[0].dynamic_library_path[0]',
      'spec.postgresql.extensions[0].dynamic_library_path[1]',
    ]);
  });

  test('environment variables', () => {
    expect(
      run([
        ext('geo', {
          env: [
            { name: 'PGDATA', value: '/x' },
            { name: 'PATH', value: '/x' },
            { name: 'GDAL_DATA', value: '${image_rot}/share' },
            { name: 'GDAL_DATA', value: '${image_root}/share' },
          ],
        }),
      ]),
    ).toEqual([
      {
        severity: 'error',
        message:
          'the Cluster webhook refuses the extension environment variable PGDATA ("the usage of this environment variable is reserved for the operator")',
        fix: 'use a name that does not start with PG or CNPG_ and is not POD_NAME, NAMESPACE or CLUSTER_NAME (any case)',
        path: 'spec.postgresql.extensions[0].env[0].name',
      },
      {
        severity: 'error',
        message: 'the Cluster webhook refuses the extension environment variable PATH ("PATH must be configured via spec.postgresql.extensions[0].bin_path")',
        fix: 'list the directories in spec.postgresql.extensions[0].bin_path instead',
        path: 'spec.postgresql.extensions[0].env[1].name',
      },
      {
        severity: 'error',
        message: 'the Cluster webhook refuses the value of GDAL_DATA ("unsupported placeholder(s): ${image_rot}; supported: ${image_root}")',
        fix: 'use ${image_root} (the directory the extension image is mounted in), or write $$ to keep a literal $',
        path: 'spec.postgresql.extensions[0].env[2].value',
      },
      {
        severity: 'error',
        message: 'the Cluster webhook refuses the extension environment variable GDAL_DATA set twice (Duplicate value: "GDAL_DATA")',
        fix: 'set each variable once',
        path: 'spec.postgresql.extensions[0].env[3].name',
      },
    ]);
  });

  test('near misses the webhook accepts', () => {
    expect(run([ext('pg_ivm'), ext('pg_stat'), ext('pg_foo-bar'), ext('pg-foo_baz'), ext('pgstat')])).toEqual([]);
    expect(run([{ name: 'vector' }], { imageCatalogRef: { apiGroup: 'postgresql.cnpg.io', kind: 'ClusterImageCatalog', name: 'pg', major: 17 } })).toEqual([]);
    expect(
      run([
        ext('paths', {
          extension_control_path: ['share', '/usr/share/postgresql/extension'],
          dynamic_library_path: ['lib', 'lib/../lib64', '/..'],
          ld_library_path: ['lib', 'lib64', '.hidden/lib'],
          bin_path: ['bin'],
          env: [
            { name: 'LITERAL', value: '$${not_a_placeholder}' },
            { name: 'MIXED', value: '$${escaped}/${image_root}/lib' },
            { name: 'path', value: 'x' },
            { name: 'MY_PGDATA', value: 'x' },
          ],
        }),
      ]),
    ).toEqual([]);
    expect(run([])).toEqual([]);
  });
});
