/** Time helpers for the chaos suite: a pause (for kill moments and the tool's windows) and elapsed seconds. */

/** Resolves after `ms` milliseconds. */
export const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Seconds since `started` (a `performance.now()` value), as `+12.3 s`. */
export const since = (started: number): string => `+${((performance.now() - started) / 1000).toFixed(1)} s`;
