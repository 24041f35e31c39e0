/**
 * What the global setup hands to every test file: the dev server's address and the path of
 * the workflow bundle built once for the run. Passed through the environment because jest
 * runs test files in separate processes.
 */
export interface RunInfo {
  temporalAddress: string;
  workflowBundlePath: string;
  temporalCli: string;
}

const KEY = 'CAIRN_TEST_RUN_INFO';

/** Stores the run info for test processes started after the global setup. */
export function publishRunInfo(info: RunInfo): void {
  process.env[KEY] = JSON.stringify(info);
}

/** Reads the run info; fails clearly when a test runs without the global setup. */
export function runInfo(): RunInfo {
  const raw = process.env[KEY];
  if (!raw) throw new Error(`${KEY} is not set: run tests through jest so test/harness/global-setup.ts runs`);
  return JSON.parse(raw) as RunInfo;
}
