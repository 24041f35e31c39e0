/**
 * The failure factory: a code from the single list as the failure's type, never retried, and for
 * a refused answer `{ code, field }` as plain JSON in `details[0]` — which `rejectionDetail` reads
 * back only when it agrees with the type.
 */
import { ApplicationFailure } from '@temporalio/common';
import { isErrorCode } from '../../workflows/base/error-codes';
import { answerRejection, rejectionDetail, workflowFailure } from '../../workflows/contract/failures';

test('workflowFailure: the code is the type; non-retryable; details as given', () => {
  const failure = workflowFailure('PLAN_INVALID', 'three bad plans', { strikes: 3 });
  expect(failure).toBeInstanceOf(ApplicationFailure);
  expect(failure).toMatchObject({ type: 'PLAN_INVALID', message: 'three bad plans', nonRetryable: true });
  expect(failure.details).toEqual([{ strikes: 3 }]);
});

test('answerRejection: type = code, message = the rule, details[0] = { code, field }', () => {
  const failure = answerRejection({
    ok: false,
    code: 'INVALID_ANSWER',
    field: 'answer.values.pages',
    error: 'values.pages: must be at most 20',
  });
  expect(failure).toMatchObject({
    type: 'INVALID_ANSWER',
    message: 'values.pages: must be at most 20',
    nonRetryable: true,
  });
  expect(failure.details).toEqual([{ code: 'INVALID_ANSWER', field: 'answer.values.pages' }]);
  expect(JSON.parse(JSON.stringify(failure.details))).toEqual(failure.details); // plain JSON
  expect(rejectionDetail(failure)).toEqual({ code: 'INVALID_ANSWER', field: 'answer.values.pages' });
});

test('rejectionDetail: undefined for other failures, or a detail that disagrees with the type', () => {
  expect(rejectionDetail(workflowFailure('NOT_OPEN', 'no interaction "i9"'))).toBeUndefined();
  expect(rejectionDetail(workflowFailure('STEP_FAILED', 'x', { code: 'STEP_FAILED', field: 'a' }))).toBeUndefined();
  expect(rejectionDetail(workflowFailure('NOT_OPEN', 'x', { code: 'INVALID_ANSWER', field: 'a' }))).toBeUndefined();
  expect(rejectionDetail(workflowFailure('NOT_OPEN', 'x', { code: 'NOT_OPEN' }))).toBeUndefined();
});

test('the codes a refused answer uses are in the single list', () => {
  expect(['NOT_OPEN', 'INVALID_ANSWER', 'CANCELLED'].filter((code) => !isErrorCode(code))).toEqual([]);
  expect(isErrorCode('Error')).toBe(false);
});
