// ESLint flat config: typescript-eslint's recommended rules (syntax only: type-aware linting
// would type-check the 1 MB of generated imports/ again, which `tsc --noEmit` in `npm test`
// already does) and import rules from eslint-plugin-import-x. Formatting is Prettier's
// (`prettier --check` in `npm run lint`), so no stylistic rule is enabled here.
import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import globals from 'globals';
import tseslint from 'typescript-eslint';

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
    },
  },
  {
    files: ['test/**', 'scripts/**', 'bench/**', '*.config.*'],
    rules: {
      'import-x/no-extraneous-dependencies': ['error', { devDependencies: true, peerDependencies: true }],
    },
  },
  {
    // The schema layer and the doctor's model (its schema part) load ajv, the CEL library and the CRD
    // schemas with require() on first use, so that loading the library does not pay for them
    // (the load-time benchmark); an import would load them eagerly. src/lazy-api.ts loads the
    // doctor's and the plan's free exports on first use for the same reason, and the Doctor and
    // Plan classes (exported as classes for jsii) load their checks and rules on first use.
    files: ['src/schema/**/*.ts', 'src/doctor/model/schema-issues.ts', 'src/lazy-api.ts', 'src/doctor/synth-validation.ts', 'src/plan/plan-api.ts'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
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
    files: ['**/*.mjs', '**/*.js'],
    languageOptions: { globals: { ...globals.node } },
  },
  {
    // CommonJS files: the bin and jest's config.
    files: ['bin/**/*.js', 'jest.config.js'],
    languageOptions: { sourceType: 'commonjs' },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
