/**
 * A state query no worker answered: Temporal ends it with DEADLINE_EXCEEDED or CANCELLED (the
 * worker did not take it before the client's deadline), FAILED_PRECONDITION ("no poller seen": no worker at all) or
 * UNAVAILABLE. The client library turns these into `AGENT_UNAVAILABLE`, a condition to retry —
 * the agent itself is unaffected — rather than an internal error.
 */
import { status } from '@grpc/grpc-js';
import {
  isGrpcServiceError,
  ServiceError,
  WorkflowUpdateFailedError,
  WorkflowUpdateRPCTimeoutOrCancelledError,
} from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import { isErrorCode } from '../workflows/base/error-codes';

/** How long a state query may wait for a worker before it counts as unanswered. */
export const DEFAULT_QUERY_TIMEOUT_MS = 10_000;

const UNANSWERED: ReadonlySet<number> = new Set([
  // The client's own deadline (withDeadline) can end the call as CANCELLED ("Call cancelled")
  // rather than DEADLINE_EXCEEDED, depending on which side notices first.
  status.CANCELLED,
  status.DEADLINE_EXCEEDED,
  status.FAILED_PRECONDITION,
  status.UNAVAILABLE,
]);

/**
 * Whether `err` (as a query or an update through the Temporal client throws it) means no worker
 * answered; an update past its deadline throws WorkflowUpdateRPCTimeoutOrCancelledError.
 */
export function isUnansweredQuery(err: unknown): boolean {
  if (err instanceof WorkflowUpdateRPCTimeoutOrCancelledError) return true;
  const grpc = err instanceof ServiceError ? err.cause : err;
  return isGrpcServiceError(grpc) && UNANSWERED.has(grpc.code);
}

/**
 * An update the agent's code does not know: an agent still pinned to a release before the
 * update existed rejects it with an uncoded failure (the SDK's "no registered handler"), while
 * Cairn's own rejections always carry an error code. The caller may then fall back to a signal.
 */
export function unknownToRelease(err: unknown): boolean {
  return (
    err instanceof WorkflowUpdateFailedError && err.cause instanceof ApplicationFailure && !isErrorCode(err.cause.type)
  );
}
