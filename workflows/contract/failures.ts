/**
 * The one way Cairn builds a failure: an `ApplicationFailure` whose `type` is a code from the
 * single list (error-codes.ts), so clients, the HTTP API and tests match the code, never the
 * message. An answer's rejection also carries `{ code, field }` as its first detail (plain JSON),
 * which is how the client library learns the offending field of a refused update. Pure: safe in
 * workflow, activity and client code.
 */
import { ApplicationFailure } from '@temporalio/common';
import { z } from 'zod';
import { ERROR_CODES, type ErrorCode } from '../base/error-codes';
import { ANSWER_REJECTION_CODES, type AnswerRejection } from '../model/interactions/answer-rejection';
import { tokenUsageSchema, type TokenUsage } from '../model/state/step-run-schema';

/**
 * A non-retryable failure with a code from the list.
 * @param details plain JSON values, delivered to whoever catches the failure.
 */
export function workflowFailure(code: ErrorCode, message: string, ...details: unknown[]): ApplicationFailure {
  return ApplicationFailure.create({ type: code, message, nonRetryable: true, details });
}

/** The structured detail an answer's rejection carries: its code and the offending field. */
export const rejectionDetailSchema = z.object({
  code: z.enum(ANSWER_REJECTION_CODES),
  field: z.string(),
});

/** The structured detail an answer's rejection carries: its code and the offending field. */
export type RejectionDetail = z.infer<typeof rejectionDetailSchema>;

/**
 * The failure an `answer` update's validator throws: type = the rejection's code, message = its
 * text, `details[0]` = `{ code, field }`.
 */
export function answerRejection(rejection: AnswerRejection): ApplicationFailure {
  const detail: RejectionDetail = { code: rejection.code, field: rejection.field };
  return workflowFailure(rejection.code, rejection.error, detail);
}

/**
 * Reads back the `{ code, field }` detail of a failure built by `answerRejection` (after it crossed
 * the wire); `undefined` for any other failure.
 */
export function rejectionDetail(failure: ApplicationFailure): RejectionDetail | undefined {
  const parsed = rejectionDetailSchema.safeParse(failure.details?.[0]);
  return parsed.success && parsed.data.code === failure.type ? parsed.data : undefined;
}

/**
 * The detail a `STEP_FAILED` failure carries: the step that failed and its own code (`LLM_AUTH`,
 * `STEP_ROUNDS_EXHAUSTED`, …; `STEP_FAILED` when it failed for no coded reason).
 */
export const stepFailedDetailSchema = z.object({ stepId: z.string(), code: z.enum(ERROR_CODES) });
export type StepFailedDetail = z.infer<typeof stepFailedDetailSchema>;

/** The failure that ends an agent because a step failed: `STEP_FAILED`, `details[0]` = `{ stepId, code }`. */
export function stepFailed(detail: StepFailedDetail, message: string): ApplicationFailure {
  return workflowFailure('STEP_FAILED', message, detail);
}

/** Reads back the `{ stepId, code }` detail of a failure built by `stepFailed`; `undefined` for any other. */
export function stepFailedDetail(failure: ApplicationFailure): StepFailedDetail | undefined {
  if (failure.type !== 'STEP_FAILED') return undefined;
  const parsed = stepFailedDetailSchema.safeParse(failure.details?.[0]);
  return parsed.success ? parsed.data : undefined;
}

/**
 * The detail a failed thread turn's failure carries after any other: what it spent, `{ usage }` —
 * so the thread counts it against its budget (a failure has no result to carry it).
 */
export const spentDetailSchema = z.object({ usage: tokenUsageSchema });

/** What a failed agent spent, read back from its failure's details; `undefined` when it carries none. */
export function spentDetail(failure: ApplicationFailure): TokenUsage | undefined {
  for (const detail of failure.details ?? []) {
    const parsed = spentDetailSchema.safeParse(detail);
    if (parsed.success) return parsed.data.usage;
  }
  return undefined;
}
