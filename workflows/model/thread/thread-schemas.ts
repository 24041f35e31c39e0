/**
 * The payloads of a thread's contract (thread-contract.ts defines its messages): its input, the
 * `send` body and answer, the `thread` view, the steer message, and the ids of threads' messages
 * and turns — zod schemas, their types and pure functions only, so that workflows share one copy
 * of them (workflows/shared-modules.ts) instead of building them again for every thread they
 * start or bring back into their cache.
 */
import { z } from 'zod';
import type { ErrorCode } from '../../base/error-codes';
import { actorSchema } from '../interactions/answer-input-schema';
import { modelSettingsSchema } from '../llm/llm-types';
import { definitionRefSchema, threadAgentSchema } from '../agent/definition-snapshot';
import { principalSchema } from '../principal';
import { tokenUsageSchema } from '../state/step-run-schema';
import { earlierApprovalSchema } from '../tools/approval-reuse';

/** Workflow type of a conversation (contract). */
export const THREAD_WORKFLOW_TYPE = 'threadWorkflow';

/** A thread closes after this long without a message: 30 days by default. */
export const DEFAULT_IDLE_TIMEOUT_MS = 30 * 24 * 60 * 60 * 1000;

/** History events past which a thread continues as new between turns (the server suggests it sooner when big). */
export const DEFAULT_ROLL_OVER_EVENTS = 5_000;

/**
 * Characters of earlier turns (messages, replies, step titles and results) past which the oldest
 * are folded into the thread's summary by a `compress` call, keeping the newest up to half of it.
 */
export const DEFAULT_COMPRESS_AT_CHARS = 12_000;

/** How a message is handled: answered in words (`chat`) or run as an agent (`task`). */
export const messageKindSchema = z.enum(['chat', 'task']);
/** What happens to a message that arrives while a task turn runs. */
export const messagePolicySchema = z.enum(['steer', 'queue', 'reject']);
/** What became of a message, as `send` answers. */
export const dispositionSchema = z.enum(['answered', 'started', 'steered', 'queued', 'rejected']);
/** What became of a message, as `send` answers. */
export type Disposition = z.infer<typeof dispositionSchema>;

/** The longest message a thread takes, in characters. */
export const MAX_MESSAGE_CHARS = 20_000;

/**
 * The `send` update's body (also `POST /api/threads/:id/messages`). `mode` and `limits` are the
 * agent input's (model/agent/agent-input.ts), checked as such when the message is sent; they apply
 * when it runs as a task. `actor` is set by Cairn's HTTP API, never by a client.
 */
export const sendInputSchema = z.object({
  text: z.string().trim().min(1, 'the message is empty').max(MAX_MESSAGE_CHARS),
  files: z.array(z.string().min(1)).max(50).optional(),
  kind: messageKindSchema.optional(),
  policy: messagePolicySchema.optional(),
  mode: z.record(z.string(), z.unknown()).optional(),
  limits: z.record(z.string(), z.unknown()).optional(),
  by: z.string().min(1).max(200).optional(),
  actor: actorSchema.optional(),
  /**
   * The agent definition the sender means (the front door's `model`): a thread bound to another
   * (or, naming one, a thread bound to none — the built-in `cairn`) refuses the message with
   * THREAD_DEFINITION. Left out, the message runs on whatever the thread is bound to.
   */
  definition: z.string().trim().min(1).max(64).optional(),
});
/** The `send` update's body. */
export type SendInput = z.infer<typeof sendInputSchema>;

/**
 * Why a message was met otherwise than its policy asked: `STEER_NOT_OWNER`, a `steer` from
 * someone other than the running turn's sender (or an admin), queued as their own turn instead.
 */
export const sendReasonSchema = z.enum(['STEER_NOT_OWNER'] as const satisfies readonly ErrorCode[]);

/** What `send` answers once the message is routed. */
export const sendResultSchema = z.object({
  messageId: z.string(),
  disposition: dispositionSchema,
  reason: sendReasonSchema.optional(),
});
/** What `send` answers once the message is routed. */
export type SendResult = z.infer<typeof sendResultSchema>;

/**
 * A turn's status: a task turn's is its agent's final phase once it ends, else `running`; a chat
 * turn is `completed` once replied. `queued` waits for the running turn; `delivered` was steered
 * into it; `rejected` was refused.
 */
export const turnStatusSchema = z.enum([
  'routing',
  'queued',
  'running',
  'completed',
  'failed',
  'stopped',
  'cancelled',
  'delivered',
  'rejected',
]);
/** A turn's status. */
export type TurnStatus = z.infer<typeof turnStatusSchema>;

/** What a finished task turn did, as the next turns are told (results cut). */
export const turnStepSchema = z.object({
  id: z.string(),
  title: z.string(),
  result: z.string().optional(),
});

/** One message of a thread and what became of it. */
export const turnSchema = z.object({
  messageId: z.string(),
  by: z.string().optional(),
  text: z.string(),
  kind: messageKindSchema.optional(),
  disposition: dispositionSchema.optional(),
  /** A task turn's agent: `<thread id>/turn-<n>`. */
  agentId: z.string().optional(),
  /** A chat turn's reply, or a task turn's answer. */
  reply: z.string().optional(),
  status: turnStatusSchema,
  /** Why the router chose the kind (a routed message). */
  reason: z.string().optional(),
  /** A failed turn's error. */
  error: z.string().optional(),
  /** A finished task turn's steps (titles and cut results). */
  steps: z.array(turnStepSchema).optional(),
  /** A finished task turn's approved tool calls, which later turns need not ask again. */
  approvals: z.array(earlierApprovalSchema).optional(),
});
/** One message of a thread and what became of it. */
export type Turn = z.infer<typeof turnSchema>;

/** What stands for the turns folded away (thread-compress.ts): the model's summary, or the mechanical one. */
export const turnsSummarySchema = z.object({
  text: z.string(),
  /** How many turns it covers (the oldest ones, no longer listed in `turns`). */
  turns: z.number().int().min(1),
  /** The newest message it covers. */
  through: z.string(),
});
/** What stands for the turns folded away. */
export type TurnsSummary = z.infer<typeof turnsSummarySchema>;

/** Characters of a message's text the `thread` query shows; a longer one is cut (whole: the `message` query). */
export const VIEW_TEXT_CHARS = 2_000;

/** Turns the `thread` query shows when not told otherwise (the newest), and the most it shows. */
export const DEFAULT_VIEW_TURNS = 50;
/** The most turns one `thread` query shows. */
export const MAX_VIEW_TURNS = 200;

/** Which turns the `thread` query shows: the newest `limit` of those before message `before` (all, without it). */
export const threadPageSchema = z.object({
  before: z.string().min(1).max(200).optional(),
  limit: z.number().int().min(1).max(MAX_VIEW_TURNS).optional(),
});
/** Which turns the `thread` query shows. */
export type ThreadPage = z.infer<typeof threadPageSchema>;

/** A turn as the `thread` query shows it: its text cut past VIEW_TEXT_CHARS, saying so. */
export const turnViewSchema = turnSchema.extend({
  /** Present only when `text` was cut: the whole text's length (the whole text: the `message` query). */
  textChars: z.number().int().optional(),
});
/** A turn as the `thread` query shows it. */
export type TurnView = z.infer<typeof turnViewSchema>;

/** The `thread` query's answer. */
export const threadViewSchema = z.object({
  id: z.string(),
  /** The `title` call's title after the first message; before it (or when it failed), the first message cut. */
  title: z.string(),
  status: z.enum(['open', 'closed']),
  /** Why a closed thread closed. */
  closedReason: z.string().optional(),
  /** The page of turns asked for (the newest DEFAULT_VIEW_TURNS by default), oldest first. */
  turns: z.array(turnViewSchema),
  /** How many turns older than the first shown are kept besides (ask with `before` its messageId). */
  olderTurns: z.number().int().optional(),
  /** The older turns, folded into a summary once they passed the thread's `compressAtChars`. */
  summary: turnsSummarySchema.optional(),
  /** What the thread spent: its own calls and its turns' agents, whatever way they ended. */
  usage: tokenUsageSchema,
  /** The agent definition it is bound to for life (its name and version); absent: the built-in default. */
  definition: definitionRefSchema.optional(),
});
/** The `thread` query's answer. */
export type ThreadView = z.infer<typeof threadViewSchema>;

/** `threadWorkflow`'s input: how long it may idle, its model, and who opened it. */
export const threadInputSchema = z.object({
  idleTimeoutMs: z.number().int().positive().default(DEFAULT_IDLE_TIMEOUT_MS),
  /** History events past which it continues as new between turns. */
  rollOverEvents: z.number().int().min(1).max(50_000).default(DEFAULT_ROLL_OVER_EVENTS),
  /** Characters of earlier turns past which the oldest are folded into a summary (`compress`). */
  compressAtChars: z.number().int().min(500).max(1_000_000).default(DEFAULT_COMPRESS_AT_CHARS),
  /** The model of its `route-message` and `chat` calls (turns use their own input). */
  model: modelSettingsSchema.optional(),
  /** Who opened it (set by Cairn's HTTP API). */
  principal: principalSchema.optional(),
  /** The agent definition it is bound to for life (set by the client that opened it; contract/definition-snapshot.ts). */
  agent: threadAgentSchema.optional(),
  /**
   * A budget over all its turns: its own calls and its turns' agents. A task turn's agent gets
   * what is left as its budget's ceiling; once it is spent, messages are refused.
   */
  budget: z
    .object({
      tokens: z.number().int().positive().optional(),
      costUsd: z.number().positive().max(1_000_000).optional(),
    })
    .optional(),
});
/** What callers send (defaults optional). */
export type ThreadInput = z.input<typeof threadInputSchema>;
/** The input with its defaults filled in. */
export type ThreadSettings = z.output<typeof threadInputSchema>;

/** What `threadWorkflow` returns when it closes. */
export const threadResultSchema = z.object({ status: z.literal('closed'), reason: z.string() });
/** What `threadWorkflow` returns when it closes. */
export type ThreadResult = z.infer<typeof threadResultSchema>;

/** The workflow id of the agent that runs message `n` (1-based) of thread `threadId` as a task. */
export function threadTurnWorkflowId(threadId: string, n: number): string {
  return `${threadId}/turn-${n}`;
}

/** The id of message `n` (1-based) of a thread. */
export function threadMessageId(n: number): string {
  return `msg-${n}`;
}
