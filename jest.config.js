/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  // Type checking is `tsc --noEmit` in `npm test`; here sources are only transpiled, which
  // keeps the generated imports/ (about 1 MB of TypeScript) from being type-checked per file.
  transform: { '^.+\\.ts$': ['ts-jest', { diagnostics: false }] },
  moduleFileExtensions: ['ts', 'js', 'json'],
  coveragePathIgnorePatterns: ['/node_modules/', '/imports/'],
  testTimeout: 60000,
};
