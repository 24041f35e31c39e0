/**
 * The "flat" verdict of the history benchmark: once a step's conversation is lent by
 * reference instead of travelling inline, each ReAct round should add the same number of
 * history bytes however long the loop has run. Judged from the measured rounds: the mean
 * bytes of the last rounds against the mean of the first rounds after the inline phase.
 */

/** How many rounds each end of the comparison averages. */
export const FLAT_WINDOW = 25;
/** How far the last rounds' mean may stray from the first rounds' mean, as a share. */
export const FLAT_TOLERANCE = 0.1;

/** The comparison behind a "flat" verdict. */
export interface FlatVerdict {
  /** Mean bytes per round of the first `window` rounds after the inline phase. */
  first: number;
  /** Mean bytes per round of the last `window` rounds. */
  last: number;
  /** `last / first`. */
  ratio: number;
  /** Whether `ratio` lies within 1 ± tolerance. */
  met: boolean;
}

const mean = (values: readonly number[]): number => values.reduce((a, b) => a + b, 0) / values.length;

/**
 * Judges `perRound` — the bytes each round added, in order, counting only rounds after the
 * inline phase and within one run (a round cut by continue-as-new has no figure). Undefined
 * when there are too few rounds for two windows that do not overlap: nothing to judge.
 */
export function judgeFlat(
  perRound: readonly number[],
  { window = FLAT_WINDOW, tolerance = FLAT_TOLERANCE }: { window?: number; tolerance?: number } = {},
): FlatVerdict | undefined {
  if (window < 1 || perRound.length < 2 * window) return undefined;
  const first = mean(perRound.slice(0, window));
  const last = mean(perRound.slice(-window));
  const ratio = last / first;
  return { first, last, ratio, met: Math.abs(ratio - 1) <= tolerance };
}
