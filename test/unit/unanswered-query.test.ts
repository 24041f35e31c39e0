/** Which client errors mean "no worker answered in time" (AGENT_UNAVAILABLE) and which do not. */
import { status } from '@grpc/grpc-js';
import { ServiceError, WorkflowUpdateFailedError, WorkflowUpdateRPCTimeoutOrCancelledError } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import { isUnansweredQuery, unknownToRelease } from '../../client/unanswered-query';

/** A query's failure as the client throws it: a ServiceError around the gRPC error. */
const queryFailed = (code: number, details: string) =>
  new ServiceError('Failed to query Workflow', {
    cause: Object.assign(new Error(`${code} ${details}`), { code, details, metadata: {} }),
  });

test('deadline, cancelled-at-deadline, no poller and unavailable are unanswered; the rest is not', () => {
  expect(isUnansweredQuery(queryFailed(status.DEADLINE_EXCEEDED, 'Deadline exceeded'))).toBe(true);
  expect(isUnansweredQuery(queryFailed(status.CANCELLED, 'Call cancelled'))).toBe(true);
  expect(isUnansweredQuery(queryFailed(status.FAILED_PRECONDITION, 'no poller seen'))).toBe(true);
  expect(isUnansweredQuery(queryFailed(status.UNAVAILABLE, 'connection refused'))).toBe(true);
  expect(isUnansweredQuery(queryFailed(status.NOT_FOUND, 'workflow not found'))).toBe(false);
  expect(isUnansweredQuery(queryFailed(status.INVALID_ARGUMENT, 'bad query'))).toBe(false);
  expect(isUnansweredQuery(new Error('plain'))).toBe(false);
});

test('an update past its deadline is unanswered', () => {
  const timedOut = new WorkflowUpdateRPCTimeoutOrCancelledError('Timeout waiting for Workflow Update', {
    cause: new Error('deadline'),
  });
  expect(isUnansweredQuery(timedOut)).toBe(true);
});

test('an update an older release has no handler for is told apart from Cairn’s coded rejections', () => {
  const failed = (cause: ApplicationFailure) => new WorkflowUpdateFailedError('Workflow Update failed', cause);
  // What the SDK answers for an update the workflow registered no handler for.
  expect(unknownToRelease(failed(ApplicationFailure.nonRetryable('No registered handler for update: pause')))).toBe(
    true,
  );
  expect(unknownToRelease(failed(ApplicationFailure.create({ type: 'AGENT_FINISHED', message: 'ended' })))).toBe(false);
  expect(unknownToRelease(new Error('plain'))).toBe(false);
});
