/**
 * What workflow code knows about tools: names, descriptions and effects (the catalogue), and
 * the JSON crossing the `runTool` activity. Implementations live in activities/tools.
 */
import { z } from 'zod';
import { imageRefSchema } from '../llm/llm-types';
import type { toolCallRecordSchema } from '../state/step-run-schema';

/**
 * The calls of a write tool that only read: those whose argument `argument` (`default` when
 * the model leaves it out) is one of `values`, e.g. http_fetch with method GET or HEAD.
 */
export const readWhenSchema = z.object({ argument: z.string(), default: z.string(), values: z.array(z.string()) });
export type ReadWhen = z.infer<typeof readWhenSchema>;

/**
 * A tool as the workflow sees it. The schema is the type: it crosses continue-as-new in the
 * agent's carry and the step's input, and a field written only in an interface would be stripped
 * there (as `autoApproved` once was).
 */
export const toolInfoSchema = z.object({
  name: z.string(),
  description: z.string(),
  /** The effect of its calls; with `readWhen`, of the calls that `readWhen` does not match. */
  effect: z.enum(['read', 'write']),
  /** Safe to retry with the same idempotency key; otherwise a write runs with one attempt. */
  idempotent: z.boolean(),
  /** Whether a call waits for a human's `tool.approval` (write tools not auto-approved). */
  needsApproval: z.boolean(),
  /**
   * For a write tool, the calls that are reads: they run without approval and are retried.
   * Absent (as in catalogues recorded before it existed), every call has the tool's effect.
   */
  readWhen: readWhenSchema.optional(),
  /** The JSON Schema of the arguments, to validate them before anything runs. */
  parameters: z.record(z.string(), z.unknown()),
  /**
   * The worker has an approval policy: each call is decided by the `decideToolCall` activity
   * (allow, ask or deny) instead of by `needsApproval`. Absent in catalogues made without one.
   */
  policy: z.boolean().optional(),
  /**
   * A write tool CAIRN_AUTO_APPROVE names, on a worker without a policy file: its writes run
   * unasked and each is recorded as allowed by the rule CAIRN_AUTO_APPROVE (no activity: the
   * catalogue already says so). Absent in catalogues made before it, which record nothing.
   */
  autoApproved: z.boolean().optional(),
});
export type ToolInfo = z.infer<typeof toolInfoSchema>;

/** Input of the `runTool` activity. */
export const toolCallInputSchema = z.object({
  agentId: z.string(),
  stepId: z.string(),
  callId: z.string(),
  name: z.string(),
  /** The JSON text the model wrote; validated by the activity before anything runs. */
  arguments: z.string(),
  /** `agent`: the tool works in the agent's own folder (config/agent-workspace.ts); absent: the workspace root. */
  scope: z.literal('agent').optional(),
});
/** Input of the `runTool` activity. */
export type ToolCallInput = z.infer<typeof toolCallInputSchema>;

/** Outcome of a tool call (the `runTool` activity's result); `ok: false` goes back to the model as a tool error. */
export const toolCallOutcomeSchema = z.object({
  ok: z.boolean(),
  output: z.string(),
  /** An image the call read (`read_file`), by reference: for a vision model. */
  image: imageRefSchema.optional(),
});
/** Outcome of a tool call; `ok: false` goes back to the model as a tool error. */
export type ToolCallOutcome = z.infer<typeof toolCallOutcomeSchema>;

/** One tool call a step made; `arguments` as the model wrote them, cut to a readable length. */
export type ToolCallRecord = z.infer<typeof toolCallRecordSchema>;

/** Built-in tools handled inside the workflows rather than by the registry. */
export const FINISH_STEP = 'finish_step';
export const ASK_USER = 'ask_user';
