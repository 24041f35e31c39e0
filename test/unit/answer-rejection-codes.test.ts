/**
 * One list of the codes an answer is refused with (workflows/model/interactions/answer-rejection.ts):
 * the failure detail's schema and the client library read it, so a refusal by role reaches a
 * client as ROLE_REQUIRED (the client's own list once lacked it).
 */
import { ApplicationFailure, WorkflowUpdateFailedError } from '@temporalio/client';
import { answerRejected } from '../../client/agents/answer-rejected';
import { answerRejection, rejectionDetail } from '../../workflows/contract/failures';
import { ANSWER_REJECTION_CODES } from '../../workflows/model/interactions/answer-rejection';

test('every rejection code round-trips through the failure and reaches the client with its field', () => {
  for (const code of ANSWER_REJECTION_CODES) {
    const failure = answerRejection({ ok: false, code, field: 'answer', error: `refused: ${code}` });
    expect(rejectionDetail(failure)).toEqual({ code, field: 'answer' });
    const update = new WorkflowUpdateFailedError('refused', failure);
    expect(answerRejected(update)).toMatchObject({ code, field: 'answer' });
  }
});

test('a coded failure without a detail still reaches the client as its code, for every rejection code', () => {
  for (const code of ANSWER_REJECTION_CODES) {
    const bare = ApplicationFailure.create({ type: code, message: 'raced', nonRetryable: true });
    expect(answerRejected(new WorkflowUpdateFailedError('refused', bare))).toMatchObject({ code });
  }
  const other = ApplicationFailure.create({ type: 'INTERNAL', message: 'x', nonRetryable: true });
  expect(answerRejected(new WorkflowUpdateFailedError('failed', other))).toBeUndefined();
});
