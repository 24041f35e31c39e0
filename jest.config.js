/**
 * Two projects, chosen by folder:
 * - `unit` (test/unit): plain functions and files; no Temporal server, no workflow bundle.
 *   `npm run test:unit` runs only these, in seconds.
 * - `integration` (test/integration, test/replay, test/browser): one real Temporal dev server
 *   (test/harness/global-setup.ts) and one workflow bundle, shared by every test file; each test
 *   uses its own task queue and workflow ids.
 * Jest runs a project's global setup only when at least one of its test files is selected, so a
 * run of unit files alone never starts the dev server, and a full run starts it once.
 * @type {import('jest').Config}
 */
const swc = [
  '@swc/jest',
  { jsc: { parser: { syntax: 'typescript' }, target: 'es2022' }, module: { type: 'commonjs' } },
];

/** What both projects share. */
const common = {
  testEnvironment: 'node',
  testMatch: ['**/*.test.ts'],
  transform: { '^.+\\.ts$': swc },
};

module.exports = {
  projects: [
    { ...common, displayName: 'unit', roots: ['<rootDir>/test/unit'] },
    {
      ...common,
      displayName: 'integration',
      roots: ['<rootDir>/test/integration', '<rootDir>/test/replay', '<rootDir>/test/browser'],
      // Unit files never start a worker, so only this project pays for loading the worker runtime.
      setupFiles: ['<rootDir>/test/harness/quiet-runtime.ts'],
      globalSetup: '<rootDir>/test/harness/global-setup.ts',
      globalTeardown: '<rootDir>/test/harness/global-teardown.ts',
    },
  ],
  // Global only: jest-circus reads the run's testTimeout and ignores one set in a project.
  testTimeout: 60_000,
  maxWorkers: 2,
  reporters: ['default', '<rootDir>/test/harness/summary-reporter.js'],
};
