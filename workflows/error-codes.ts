/**
 * The closed set of error codes Cairn raises, used as `ApplicationFailure.type`. Tests and
 * clients match these codes, never message text. Pure: safe in workflow and activity code.
 */
export const ERROR_CODES = [
  /** The LLM endpoint said 429; retried after its Retry-After. */
  'LLM_RATE_LIMITED',
  /** 5xx, 408, 409, connection failures: retried. */
  'LLM_UNAVAILABLE',
  /** The request took longer than the configured LLM timeout: retried. */
  'LLM_TIMEOUT',
  /** 401 / 403: the key is wrong or lacks access; not retried. */
  'LLM_AUTH',
  /** 400 / 404 / 422 and other 4xx: the request itself is wrong; not retried. */
  'LLM_REJECTED',
  /** The endpoint answered with something that is not a chat completion; retried. */
  'LLM_BAD_RESPONSE',
  /** The agent input breaks the schema (the message lists each `path: message`). */
  'INVALID_INPUT',
  /** The planner produced an invalid plan three times in a row. */
  'PLAN_INVALID',
  /** A step failed and the failure policy (or a human) ended the agent. */
  'STEP_FAILED',
  /** A step used up its rounds without calling finish_step. */
  'STEP_ROUNDS_EXHAUSTED',
  /** An interaction outlived its timeout and the policy said to fail. */
  'INTERACTION_EXPIRED',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];
