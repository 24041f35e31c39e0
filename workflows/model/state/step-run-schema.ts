/**
 * The zod schemas of a step run as the agent state keeps it — status, token usage, the tool
 * calls it made — and the TypeScript types derived from them. Pure zod: the workflow sandbox,
 * the HTTP API and tests share it. Objects strip unknown keys rather than reject them, as every
 * schema of a message payload does; the state test checks that a real state loses nothing.
 */
import { z } from 'zod';
import { reuseRefSchema } from '../step-id';

/** A count: a whole number, never negative. */
const count = z.number().int('must be a whole number').nonnegative('must not be negative');

/** Every status of a step run. */
export const STEP_STATUSES = ['pending', 'running', 'waiting', 'completed', 'failed', 'skipped', 'cancelled'] as const;

/** Status of one step run. */
export const stepStatusSchema = z.enum(STEP_STATUSES);

/**
 * Token counts for one call, a step or a whole agent, and their cost in US dollars from the
 * configured price table: `null` when a call's model has no price (unknown, never 0).
 */
export const tokenUsageSchema = z.object({
  promptTokens: count,
  completionTokens: count,
  totalTokens: count,
  /** Prompt tokens the endpoint served from its cache (part of `promptTokens`), when it says. */
  cachedPromptTokens: count.optional(),
  costUsd: z.number().nonnegative().nullable().optional(),
  /** Some of these tokens are an estimate: an endpoint reported no usage (4 characters a token). */
  estimated: z.boolean().optional(),
});

/** Token counts for one call, a step or a whole agent. */
export type TokenUsage = z.infer<typeof tokenUsageSchema>;

/** One tool call a step made; `arguments` are as the model wrote them, cut to a readable length. */
export const toolCallRecordSchema = z.object({
  callId: z.string(),
  name: z.string(),
  arguments: z.string(),
  outcome: z.enum(['ok', 'error']),
  durationMs: z.number().nonnegative(),
  /** The approval policy's decision on the call (workflow time `at`), when the worker has a policy. */
  policy: z.object({ decision: z.enum(['allow', 'ask', 'deny']), rule: z.string(), at: z.number() }).optional(),
  /** Run unasked on an approval given in an earlier turn of the thread: that turn's agent, interaction and approvers. */
  approvalReused: z
    .object({ agentId: z.string(), interactionId: z.string(), by: z.array(z.string()), at: z.number() })
    .optional(),
});

/** One step run. `toolCalls` holds the most recent calls only; `toolCallCount` counts them all. */
export const stepRunSchema = z.object({
  id: z.string(),
  title: z.string(),
  status: stepStatusSchema,
  result: z.string().optional(),
  error: z.string().optional(),
  /** How the step's done-when holds, as its model said when it finished (`finish_step.goal_check`). */
  goalCheck: z.string().optional(),
  /** The step used all its rounds and delivered its best answer from one last call without tools. */
  delivered: z.boolean().optional(),
  /** With `mode.verifySteps`: whether the checker accepted the result, and how often it sent the step back. */
  verified: z.boolean().optional(),
  sentBack: count.optional(),
  /** A step adopted from an earlier turn (`reuse`): it never ran here, its result is that step's. */
  reused: reuseRefSchema.optional(),
  /** What a cancelled step had done: its latest model text and tool results, cut to 2000 characters. */
  partial: z.string().optional(),
  usage: tokenUsageSchema,
  toolCalls: z.array(toolCallRecordSchema),
  toolCallCount: count.optional(),
  rounds: count,
  attempts: count,
  /** Workflow time (ms since epoch). */
  startedAt: z.number().optional(),
  endedAt: z.number().optional(),
});
