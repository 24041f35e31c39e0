/**
 * The closed set of error codes Cairn raises: the `ApplicationFailure.type` of workflow and
 * activity failures (see `failures.ts`), the code of a client-library error and of an HTTP API
 * error body. Tests and clients match these codes, never message text. Pure: safe in workflow,
 * activity and client code.
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
  /**
   * The conversation (plus the reply's token allowance) is longer than the model's context
   * window, as the endpoint said (llama.cpp "exceeds the available context size", OpenAI
   * `context_length_exceeded`); not retried: the same request would fail the same way.
   */
  'LLM_CONTEXT_EXCEEDED',
  /** The endpoint answered with something that is not a chat completion; retried. */
  'LLM_BAD_RESPONSE',
  /** The agent input breaks the schema (the message lists each `path: message`). */
  'INVALID_INPUT',
  /** The planner produced an invalid plan three times in a row. */
  'PLAN_INVALID',
  /** A step failed and the failure policy (or a human) ended the agent. */
  'STEP_FAILED',
  /** An agent graph's router gave no valid reply after its corrections (the step names the visit). */
  'ROUTE_INVALID',
  /** An agent graph's walk stopped with nothing running and no end node reached. */
  'GRAPH_NO_END',
  /** A step used up its rounds without calling finish_step. */
  'STEP_ROUNDS_EXHAUSTED',
  /** A step ended because too many of its tool calls failed or were refused (`limits.maxToolErrors`). */
  'STEP_TOOL_ERRORS',
  /** An interaction outlived its timeout and the policy said to fail. */
  'INTERACTION_EXPIRED',
  /** A tool failed in a way it marked transient; retried by the tool activity's retry policy. */
  'TOOL_UNAVAILABLE',
  /** A step (or the agent) stopped because it was cancelled; a step outcome, not a thrown failure. */
  'CANCELLED',
  /** An answer names no interaction, or one already answered or expired (HTTP 409). */
  'NOT_OPEN',
  /** An answer breaks its interaction's rules; the failure's details name the field (HTTP 400). */
  'INVALID_ANSWER',
  /** No agent (or HTTP route) by that name (HTTP 404). */
  'NOT_FOUND',
  /** An agent with that id already exists (HTTP 409). */
  'CONFLICT',
  /** The agent has ended (completed, stopped, failed or cancelled): it cannot be paused or resumed (HTTP 409). */
  'AGENT_FINISHED',
  /** The thread has closed (its idle timeout, or it was ended): it takes no message (HTTP 409). */
  'THREAD_CLOSED',
  /**
   * HTTP 409: a message (or a front-door request's `model`) names an agent definition other than
   * the one its thread is bound to for life.
   */
  'THREAD_DEFINITION',
  /**
   * HTTP 503: no worker answered the agent's state query in time (the workers are down, or too
   * busy); nothing changed, try again.
   */
  'AGENT_UNAVAILABLE',
  /** HTTP 401: no credentials, or a token, session or JWT that is wrong, forged or expired. */
  'UNAUTHORIZED',
  /** HTTP 403: the signed-in principal lacks the role the route needs. */
  'FORBIDDEN',
  /** HTTP 400: an answer's `by` names someone other than the signed-in principal. */
  'BY_MISMATCH',
  /**
   * HTTP 409: an approval of a several-person approval that is no further person: one who already
   * approved, one of another sign-in realm than the first, the shared token, auth off, a signal.
   */
  'SAME_APPROVER',
  /** HTTP 403: an approval by someone without the role the approval policy names for it. */
  'ROLE_REQUIRED',
  /** HTTP 413: the request body is over the limit. */
  'PAYLOAD_TOO_LARGE',
  /** HTTP 415: a route that reads a JSON body got another media type (or none). */
  'UNSUPPORTED_MEDIA_TYPE',
  /** HTTP 421: the `Host` names a host the HTTP API does not answer to (DNS rebinding guard). */
  'HOST_NOT_ALLOWED',
  /**
   * HTTP 422 from the codec server: a payload that cannot be decoded — encrypted with a key id not
   * configured (the message names it), altered, truncated, or under the wrong key.
   */
  'PAYLOAD_UNDECODABLE',
  /**
   * HTTP 413 from the codec server: the request's compressed payloads inflate past the decode
   * budget (16 MiB each, 64 MiB for all payloads of one request) — a deflate bomb, refused.
   */
  'DECODE_TOO_LARGE',
  /**
   * A message (signal or update) or an agent's start reached a worker with encryption keys
   * unencrypted: written by someone without the keys, it is refused (workflows/runtime/unencrypted-payload.ts).
   */
  'NOT_ENCRYPTED',
  /**
   * HTTP 429: a stream (the events route, and routes that stream later) past the open streams one
   * principal, or the whole server, may hold (CAIRN_HTTP_MAX_STREAMS_PER_PRINCIPAL / _MAX_STREAMS).
   */
  'TOO_MANY_STREAMS',
  /**
   * A streamed answer's client read so slowly that MAX_QUEUED_FRAMES chunks waited for it: the
   * answer ends with this in `cairn.failure` (the turn goes on in its thread). Not an HTTP status.
   */
  'CLIENT_TOO_SLOW',
  /**
   * A file path that leads outside the agent's folder — absolute, climbing out with `..`, or
   * through a symbolic link that leads out: a file tool's error starts with it, and the files
   * route answers it with HTTP 400.
   */
  'PATH_REFUSED',
  /**
   * A document's parser child passed its memory bound (its cgroup's limit, RLIMIT_AS or its heap
   * limit): `read_file`'s tool error starts with it ("document too large to parse").
   */
  'DOCUMENT_TOO_LARGE',
  /**
   * HTTP 413: an upload is over a limit — bytes per file or per request, or files per request
   * (CAIRN_UPLOAD_MAX_FILE_BYTES / _MAX_REQUEST_BYTES / _MAX_FILES); nothing of it is stored.
   */
  'UPLOAD_TOO_LARGE',
  /** HTTP 415: an uploaded file's type is not one CAIRN_UPLOAD_TYPES accepts; nothing of the request is stored. */
  'UPLOAD_TYPE_REFUSED',
  /** HTTP 400: an uploaded file's name is over 255 UTF-8 bytes; refused before it is read further, nothing stored. */
  'UPLOAD_NAME_TOO_LONG',
  /**
   * Not a refusal: the `reason` of a `send` answered `queued` although it asked to steer — its
   * sender is neither the running turn's sender (same principal id and sign-in realm) nor an
   * admin, so the message runs as its own turn, under its own sender.
   */
  'STEER_NOT_OWNER',
  /**
   * HTTP 409: a thread's message refused because too many wait already — queued or not yet routed —
   * in the thread (MAX_WAITING_PER_THREAD) or from its sender (MAX_WAITING_PER_SENDER); nothing recorded.
   */
  'QUEUE_FULL',
  /** HTTP 429: a principal sent more thread messages in a minute than the server takes (SENDS_PER_MINUTE). */
  'SEND_RATE_LIMITED',
  /** HTTP 500: anything unexpected; the details stay in the server's log. */
  'INTERNAL',
] as const;

/** One of Cairn's error codes. */
export type ErrorCode = (typeof ERROR_CODES)[number];

/** Whether `value` is one of Cairn's error codes (e.g. a failure's `type` read back by a client). */
export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && (ERROR_CODES as readonly string[]).includes(value);
}
