/**
 * Interactions — questions to a human — and their answers, as plain JSON types derived from
 * their zod schemas (interaction-schema.ts, the kinds' modules), so the types and the checked
 * shape cannot drift. Several may be open at once; answered ones stay as an audit record.
 */
import type { z } from 'zod';
import type { answerInputSchema } from './answer-input-schema';
import type { answerSchema, interactionSchema, interactionSpecSchema } from './interaction-schema';
import type { approvalRequestSchema } from './kinds/tool-approval';
import type { AnswerRejection } from './answer-rejection';

export type { AskRequest, FormField } from './ask-request-schema';

/** What a `tool.approval` shows. */
export type ApprovalRequest = z.infer<typeof approvalRequestSchema>;

/** The question part of an interaction, by kind. */
export type InteractionSpec = z.infer<typeof interactionSpecSchema>;

export type InteractionKind = InteractionSpec['kind'];

/** Answers, one shape per interaction kind (each kind's module in kinds/). */
export type Answer = z.infer<typeof answerSchema>;

/** An interaction as kept in agent state. */
export type Interaction = z.infer<typeof interactionSchema>;

/** Payload of the `answer` signal and update. */
export type AnswerInput = z.infer<typeof answerInputSchema>;

/** Result of validating an answer: the normalised answer, or the coded rejection. */
export type AnswerCheck = { ok: true; answer: Answer } | AnswerRejection;
