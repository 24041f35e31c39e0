/**
 * Named activity option profiles. LLM calls are slow and rate-limited: long
 * start-to-close, heartbeats so cancellation reaches them, capped exponential retries (a 429
 * overrides the delay with the endpoint's Retry-After).
 */
import type { ActivityOptions, LocalActivityOptions } from '@temporalio/workflow';

export const llmProfile: ActivityOptions = {
  startToCloseTimeout: '5 minutes',
  heartbeatTimeout: '30 seconds',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute', maximumAttempts: 6 },
};

/**
 * Tools: shorter, heartbeating (a dead worker is noticed in seconds), retried a few times —
 * writes that are not idempotent override this with a single attempt.
 */
export const toolProfile: ActivityOptions = {
  startToCloseTimeout: '2 minutes',
  heartbeatTimeout: '5 seconds',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '30 seconds', maximumAttempts: 3 },
};

/**
 * The preview of a write awaiting approval: a file read and a diff, so short and tried twice;
 * without it the approval shows the arguments alone.
 */
export const previewProfile: ActivityOptions = {
  startToCloseTimeout: '15 seconds',
  retry: { initialInterval: '1 second', maximumAttempts: 2 },
};

/**
 * The tool catalogue, read as a local activity: an in-memory lookup, so a short timeout and a
 * few quick retries; a catalogue that still cannot be read fails the agent, as the activity did.
 */
export const catalogueProfile: LocalActivityOptions = {
  startToCloseTimeout: '10 seconds',
  retry: {
    initialInterval: '200 milliseconds',
    backoffCoefficient: 2,
    maximumInterval: '2 seconds',
    maximumAttempts: 3,
  },
};
