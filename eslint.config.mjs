// ESLint flat config: typescript-eslint's recommended rules (syntax only: type-aware linting
// would type-check the 1 MB of generated imports/ again, which `tsc --noEmit` in `npm test`
// already does) and import rules from eslint-plugin-import-x. Formatting is Prettier's
// (`prettier --check` in `npm run lint`), so no stylistic rule is enabled here.
import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/**
 * The layers of src/ (CONTRIBUTING.md, "Layers"): each folder and the folders it may import.
 * Everything else of src/ is out of bounds for it, type-only imports and require() included;
 * test/architecture.test.ts checks that no import circle exists, type-only ones included, and
 * that CONTRIBUTING.md shows this table.
 */
export const LAYERS = {
  manifests: [],
  schema: ['manifests'],
  checks: ['manifests', 'schema'],
  rules: ['manifests', 'schema', 'checks'],
  common: ['manifests', 'schema', 'checks', 'rules'],
  tls: ['manifests', 'schema', 'checks', 'rules', 'common'],
  plugins: ['manifests', 'schema', 'checks', 'rules', 'common', 'tls'],
  postgres: ['manifests', 'schema', 'checks', 'rules', 'common', 'tls', 'plugins'],
  presets: ['manifests', 'schema', 'checks', 'rules', 'common', 'tls', 'plugins', 'postgres'],
  doctor: ['manifests', 'schema', 'checks', 'rules'],
  plan: ['manifests', 'schema', 'checks', 'rules'],
  live: ['manifests'],
  cli: ['manifests', 'schema', 'checks', 'rules', 'doctor', 'plan', 'live'],
};

/** The files of src/ above every layer: the package's entry point and the example app. */
const TOP = ['src/index.ts', 'src/main.ts'];

/** One no-restricted-paths zone per layer: every other place of src/ it may not import from. */
const layerZones = Object.entries(LAYERS).map(([layer, allowed]) => ({
  target: `./src/${layer}`,
  from: [
    ...Object.keys(LAYERS)
      .filter((other) => other !== layer && !allowed.includes(other))
      .map((other) => `./src/${other}`),
    ...TOP.map((f) => `./${f}`),
  ],
  message: `src/${layer} may import only ${allowed.length ? allowed.map((a) => `src/${a}`).join(', ') : 'packages, never the library above it'} (CONTRIBUTING.md, "Layers").`,
}));

export default defineConfig(
  {
    // Generated (imports/, dist/, docs), built (lib/) or machine-local output, and the inputs
    // that tests read byte for byte.
    ignores: ['imports/**', 'lib/**', 'dist/**', 'dist-jsii/**', 'coverage/**', 'bench/.work/**', '.e2e-work/**', 'test/fixtures/**'],
  },
  {
    linterOptions: { reportUnusedDisableDirectives: 'error' },
  },
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    rules: {
      // tsc reports unused locals and parameters too (noUnusedLocals, noUnusedParameters); this
      // covers the .mjs files and keeps the same escape: a leading underscore.
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' },
      ],
    },
  },
  {
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.js', '.mjs', '.cjs', '.json', '.node'] })],
      'import-x/extensions': ['.ts', '.js', '.mjs', '.cjs'],
    },
    rules: {
      // What tsc does not already check: resolution, named/default imports and namespaces are
      // the compiler's (typescript-eslint advises leaving them to it).
      'import-x/no-duplicates': 'error',
      'import-x/no-self-import': 'error',
      'import-x/no-useless-path-segments': 'error',
      'import-x/no-absolute-path': 'error',
      'import-x/no-mutable-exports': 'error',
      'import-x/first': 'error',
      'import-x/newline-after-import': 'error',
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      // The order the sources already use: Node built-ins, packages, then the repository's
      // own modules, each alphabetical, with no blank lines between the groups.
      'import-x/order': [
        'error',
        {
          groups: ['builtin', 'external', ['internal', 'parent', 'sibling', 'index']],
          'newlines-between': 'never',
          alphabetize: { order: 'asc', caseInsensitive: true },
        },
      ],
    },
  },
  {
    // The published library may only import its runtime dependencies and peers; tests,
    // scripts and benchmarks may use the devDependencies too.
    files: ['src/**/*.ts'],
    rules: {
      // A library never prints: the CLI writes through the streams it is given.
      'no-console': 'error',
      'import-x/no-extraneous-dependencies': ['error', { devDependencies: false, optionalDependencies: false, peerDependencies: true }],
      // The layers: a wrong-way arrow (type-only imports and require() included) fails the lint.
      'import-x/no-restricted-paths': ['error', { zones: layerZones }],
    },
  },
  {
    files: ['test/**', 'scripts/**', 'bench/**', '*.config.*'],
    rules: {
      'import-x/no-extraneous-dependencies': ['error', { devDependencies: true, peerDependencies: true }],
    },
  },
  {
    // The schema layer, the doctor's model (its schema part) and admission's CRD defaulting load ajv,
    // the CEL library and the CRD schemas with require() on first use, and the constructs load the
    // admission checks at their first synth-time check (src/postgres/cluster-fidelity.ts) and the
    // YAML parser at the first manifest read (src/manifests/load.ts), so that
    // loading the library does not pay for them (the load-time benchmark); an import would load
    // them eagerly. (The doctor and the plan as a whole load on first use through the compiled
    // entry point: scripts/lazy-exports.mjs.)
    files: [
      'src/schema/**/*.ts',
      'src/doctor/model/schema-issues.ts',
      'src/checks/admission/defaults.ts',
      'src/postgres/cluster-fidelity.ts',
      'src/manifests/load.ts',
      'src/manifests/flux-substitution.ts',
    ],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    // The kubeconfig reader of @kubernetes/client-node is a devDependency that `npm run build`
    // bundles into the compiled module (scripts/bundle-kube-client.mjs), required only when
    // `cnpg-i-doctor cluster` runs: the published package has no dependency on it.
    files: ['src/live/kube-access.ts'],
    rules: {
      '@typescript-eslint/no-require-imports': 'off',
      'import-x/no-extraneous-dependencies': [
        'error',
        { devDependencies: false, optionalDependencies: false, peerDependencies: true, whitelist: ['@kubernetes/client-node'] },
      ],
    },
  },
  {
    // The CEL evaluator is a devDependency that `npm run build` bundles into the compiled module
    // (scripts/bundle-cel.mjs): the published package has no dependency on it.
    files: ['src/schema/cel.ts'],
    rules: {
      'import-x/no-extraneous-dependencies': [
        'error',
        { devDependencies: false, optionalDependencies: false, peerDependencies: true, whitelist: ['@marcbachmann/cel-js'] },
      ],
    },
  },
  {
    // Tests and benchmarks read synthesized manifests as untyped JSON, and require() modules
    // where a test is about what loading them does (lazy loading, jest's module registry); the
    // generator scripts require() ajv's standalone builder the same way.
    files: ['test/**/*.ts', 'bench/**/*.ts', 'scripts/**/*.ts'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-require-imports': 'off',
    },
  },
  {
    files: ['**/*.mjs', '**/*.js', '**/*.cjs'],
    languageOptions: { globals: { ...globals.node } },
  },
  {
    // CommonJS files: the bin, jest's config and its transform.
    files: ['bin/**/*.js', 'jest.config.js', '**/*.cjs'],
    languageOptions: { sourceType: 'commonjs' },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
