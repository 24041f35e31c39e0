/**
 * Three projects, chosen by folder:
 * - `unit` (test/unit): plain functions and files; no Temporal server, no workflow bundle.
 *   `npm run test:unit` runs only these, in seconds.
 * - `integration` (test/integration, test/replay): Cairn in the test process against one real
 *   Temporal dev server (test/harness/global-setup.ts) and one workflow bundle, shared by every
 *   test file; each test uses its own task queue and workflow ids.
 * - `scenarios` (test/scenarios): the same set-up, for the long behaviours — limits reached
 *   (budgets, deadlines, expiry, loop guards, rate limits), work over time and restarts (pause,
 *   200-turn threads, history growth, rollovers, key rotation, older releases' workers), spans
 *   and worker profiles. `npm run test:scenarios`; CI runs it after `npm test`.
 * - `e2e` (test/e2e, test/browser): Cairn as separate processes, as users and operators run it —
 *   the `cairn` CLI, worker processes killed and restarted, npm scripts, the production build,
 *   dev servers of their own, the web page in Chromium. Same shared dev server and bundle.
 * `npm test` runs `unit` and `integration`; `npm run test:scenarios` and `npm run test:e2e` the
 * others (CI runs all four).
 * Jest runs a project's global setup only when at least one of its test files is selected, so a
 * run of unit files alone never starts the dev server, and a full run starts it once.
 * @type {import('jest').Config}
 */
const swc = [
  '@swc/jest',
  { jsc: { parser: { syntax: 'typescript' }, target: 'es2022' }, module: { type: 'commonjs' } },
];

/**
 * ES-module-only packages the HTTP server's authentication loads (JWT and OpenID Connect): Node
 * itself requires them, but Jest's CommonJS runtime cannot, so swc compiles them for tests.
 */
const ESM_ONLY = ['jose', 'openid-client', 'oauth4webapi'];

/** What both projects share. */
const common = {
  testEnvironment: 'node',
  testMatch: ['**/*.test.ts'],
  transform: { '^.+\\.ts$': swc, [`/node_modules/(${ESM_ONLY.join('|')})/.+\\.js$`]: swc },
  transformIgnorePatterns: [`/node_modules/(?!(${ESM_ONLY.join('|')})/)`],
};

/** What the projects with a dev server share. */
const withServer = {
  ...common,
  // Unit files never start a worker, so only these projects pay for loading the worker runtime.
  setupFiles: ['<rootDir>/test/harness/quiet-runtime.ts'],
  globalSetup: '<rootDir>/test/harness/global-setup.ts',
  globalTeardown: '<rootDir>/test/harness/global-teardown.ts',
};

module.exports = {
  projects: [
    { ...common, displayName: 'unit', roots: ['<rootDir>/test/unit'] },
    { ...withServer, displayName: 'integration', roots: ['<rootDir>/test/integration', '<rootDir>/test/replay'] },
    { ...withServer, displayName: 'scenarios', roots: ['<rootDir>/test/scenarios'] },
    { ...withServer, displayName: 'e2e', roots: ['<rootDir>/test/e2e', '<rootDir>/test/browser'] },
  ],
  // Global only: jest-circus reads the run's testTimeout and ignores one set in a project.
  testTimeout: 60_000,
  maxWorkers: 2,
  reporters: ['default', '<rootDir>/test/harness/summary-reporter.js'],
};
