/**
 * The zod schema of the `answer` signal's and update's payload, in a module of its own: the
 * workflows parse every answer with it (message-payloads.ts) and should not build the whole
 * interaction schema for that; the HTTP API's answer body is this schema too. Pure zod.
 */
import { z } from 'zod';

/** Longest interaction id and `by` an answer may carry. */
const MAX_ID = 200;

/** Payload of the `answer` signal and update; the answer itself is checked against its interaction. */
export const answerInputSchema = z.object({
  interactionId: z.string().min(1, 'must not be empty').max(MAX_ID, `must be at most ${MAX_ID} characters`),
  answer: z.unknown(),
  /** Who answers, for the audit record. */
  by: z.string().max(MAX_ID, `must be at most ${MAX_ID} characters`).optional(),
});
