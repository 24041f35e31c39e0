/**
 * One jest run = one real Temporal dev server (test/harness/global-setup.ts) and one workflow
 * bundle, shared by every test file; each test uses its own task queue and workflow ids.
 * @type {import('jest').Config}
 */
const swc = [
  '@swc/jest',
  { jsc: { parser: { syntax: 'typescript' }, target: 'es2022' }, module: { type: 'commonjs' } },
];

module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  transform: { '^.+\\.ts$': swc },
  globalSetup: '<rootDir>/test/harness/global-setup.ts',
  globalTeardown: '<rootDir>/test/harness/global-teardown.ts',
  setupFiles: ['<rootDir>/test/harness/quiet-runtime.ts'],
  testTimeout: 60_000,
  maxWorkers: 2,
  reporters: ['default', '<rootDir>/test/harness/summary-reporter.js'],
};
