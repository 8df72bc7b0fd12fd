/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  // Type checking is `tsc --noEmit` in `npm test`; here sources are only transpiled, which
  // keeps the generated imports/ (about 1 MB of TypeScript) from being type-checked per file.
  transform: {
    '^.+\\.ts$': ['ts-jest', { diagnostics: false }],
    // the CEL evaluator is an ES module only: rewritten to CommonJS (scripts/jest-esm-transform.cjs)
    '/node_modules/@marcbachmann/cel-js/.+\\.js$': '<rootDir>/scripts/jest-esm-transform.cjs',
  },
  transformIgnorePatterns: ['/node_modules/(?!@marcbachmann/cel-js/)'],
  moduleFileExtensions: ['ts', 'js', 'json'],
  coveragePathIgnorePatterns: ['/node_modules/', '/imports/'],
  testTimeout: 60000,
};
