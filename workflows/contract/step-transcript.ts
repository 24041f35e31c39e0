/**
 * A step's transcript (docs/contracts.md#step-transcripts): what its model said each round — the
 * text, a reasoning summary when the reply had reasoning, the tool calls with their cut results —
 * kept in the step workflow's memory (and carried across continue-as-new), at most
 * TRANSCRIPT_MAX_BYTES, read with the `transcript` query. Never written to history round by
 * round: a step's history per round stays as flat as before.
 */
import { defineQuery } from '@temporalio/workflow';
import { z } from 'zod';

/** The most a step's transcript holds, in bytes of its rounds' JSON (UTF-8): the oldest rounds go first. */
export const TRANSCRIPT_MAX_BYTES = 64 * 1024;

const count = z.number().int().nonnegative();

/**
 * How a tool call of a round went: `pending` while it runs (or waits for an approval), `ok`,
 * `error` (failed, refused by a loop guard or a policy), `rejected` (a person said no).
 */
export const transcriptOutcomeSchema = z.enum(['pending', 'ok', 'error', 'rejected']);

/** One tool call of a round: its name, its arguments as the model sent them and its result, both cut. */
export const transcriptToolCallSchema = z.object({
  /** The model's id for the call (the live stream's `toolCallId`); absent in transcripts kept before it was recorded. */
  callId: z.string().optional(),
  name: z.string(),
  arguments: z.string(),
  outcome: transcriptOutcomeSchema,
  /** What the model heard back (cut to its first and last characters); absent while pending. */
  result: z.string().optional(),
});
export type TranscriptToolCall = z.infer<typeof transcriptToolCallSchema>;

/** One round: the model's text and reasoning summary (each absent when there was none) and its tool calls. */
export const transcriptRoundSchema = z.object({
  round: count,
  text: z.string().optional(),
  reasoning: z.string().optional(),
  toolCalls: z.array(transcriptToolCallSchema),
});
export type TranscriptRound = z.infer<typeof transcriptRoundSchema>;

/** What a step keeps, and carries to its next run: its rounds, oldest first, and how many older ones were dropped. */
export const transcriptLogSchema = z.object({
  rounds: z.array(transcriptRoundSchema),
  /** Rounds dropped from the front to stay within TRANSCRIPT_MAX_BYTES (the marker); absent when none. */
  droppedRounds: count.optional(),
});
export type TranscriptLog = z.infer<typeof transcriptLogSchema>;

/** What the `transcript` query returns (and `GET /api/agents/:id/steps/:stepId/transcript`). */
export const stepTranscriptSchema = transcriptLogSchema.extend({ stepId: z.string() });
export type StepTranscript = z.infer<typeof stepTranscriptSchema>;

/** A step's transcript, as the step workflow's latest run holds it (also answered by a closed step). */
export const transcriptQuery = defineQuery<StepTranscript>('transcript');
