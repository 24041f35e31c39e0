/**
 * The zod schemas of interactions — questions to a human — and their answers, as the agent
 * state keeps them; interaction-types.ts derives the TypeScript types from them. Each kind's
 * question and answer come from its module (kinds/, listed in kinds/registry.ts); this adds
 * what the state keeps around a question. They describe the stored shape: the rules an incoming
 * answer or an `ask_user` call must meet are checked by validate-answer.ts and ask-schema.ts.
 * Pure zod: the workflow sandbox, the HTTP API (its OpenAPI document) and tests share it.
 */
import { z } from 'zod';
import { actorSchema, PERSONAL_SIGN_INS } from './answer-input-schema';
import { answerSchema, specsWith } from './kinds/registry';

export { answerInputSchema } from './answer-input-schema';
export { askRequestSchema, formFieldSchema } from './ask-request-schema';
export { answerSchema, answerSchemas, interactionSpecSchema } from './kinds/registry';
export { approvalRequestSchema } from './kinds/tool-approval';

/** Where an interaction is: waiting for a person, answered (the audit record), or timed out. */
export const INTERACTION_STATUSES = ['open', 'answered', 'expired'] as const;

/** What the state adds to the question: id, status, times and, once answered, the audit record. */
const record = {
  id: z.string(),
  status: z.enum(INTERACTION_STATUSES),
  /** The step that asked; absent for the agent's own questions. */
  stepId: z.string().optional(),
  /** Workflow time (ms since epoch) it was opened. */
  createdAt: z.number(),
  expiresAt: z.number().optional(),
  /**
   * The role an answer needs (besides admin): the agent's `answerRoles` for this kind, or an
   * approval policy's `@role`; absent: `approver` (answer-roles.ts).
   */
  role: z.string().optional(),
  /**
   * A question (`ask.*`) with no role named, of an agent one person signed in started: who they
   * are and how they signed in. They answer it without the default role, signed in the same way
   * (the same realm), as they wrote its task (answer-roles.ts).
   */
  askedOf: z.object({ id: z.string(), authenticatedBy: z.enum(PERSONAL_SIGN_INS) }).optional(),
  answer: answerSchema.optional(),
  by: z.string().optional(),
  /** Who answered and how (absent on records made before it was kept, and on expiry answers). */
  actor: actorSchema.optional(),
  answeredAt: z.number().optional(),
  /** The approvals given so far of an approval that needs several people, each with who and when. */
  approvals: z.array(z.object({ actor: actorSchema, at: z.number() })).optional(),
};

/** An interaction as kept in agent state: its question and the record around it. */
export const interactionSchema = z.discriminatedUnion('kind', specsWith(record));
