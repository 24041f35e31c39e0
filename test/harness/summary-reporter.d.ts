/** The plain functions of summary-reporter.js (the reporter jest loads), for its unit test. */

/** Minimum tests passed per project, from CAIRN_MIN_TESTS (`unit=750,integration=300`). */
export function minimums(text: string | undefined): Record<string, number>;

/** One line per project named in `wanted` that passed fewer tests than its minimum or none ran. */
export function shortfalls(wanted: Record<string, number>, passedBy: Record<string, number>): string[];

/** Tests passed per project, from jest's aggregated results. */
export function passedByProject(results: {
  testResults: readonly { displayName?: { name: string }; numPassingTests: number }[];
}): Record<string, number>;
