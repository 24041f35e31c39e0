/**
 * What a `tool.approval` shows of a write beyond its arguments: how the file it writes would
 * change. The worker computes it (the `previewToolCall` activity reads the current file inside
 * the workspace) when the step opens the approval; people read it, nothing decides by it.
 */
import { z } from 'zod';

/** The longest preview text kept (characters): longer diffs are cut, and say so. */
export const MAX_PREVIEW_CHARS = 8_000;

export const approvalPreviewSchema = z.object({
  /** The workspace file the call writes. */
  path: z.string().max(4_000),
  /**
   * `new`: no such file yet (the arguments hold all of it); `same`: the file already holds exactly
   * this; `diff`: `text` is the unified diff from the current file to the written one.
   */
  change: z.enum(['new', 'same', 'diff']),
  text: z
    .string()
    .max(MAX_PREVIEW_CHARS + 100)
    .optional(),
  /** `text` was cut to MAX_PREVIEW_CHARS. */
  cut: z.boolean().optional(),
});
export type ApprovalPreview = z.infer<typeof approvalPreviewSchema>;

/**
 * The `previewToolCall` activity's input: the call awaiting approval and, with `scope` `agent`,
 * the agent whose own folder the call would write in (absent: the workspace root).
 */
export const previewCallInputSchema = z.object({
  tool: z.string().max(500),
  arguments: z.unknown(),
  agentId: z.string().optional(),
  scope: z.literal('agent').optional(),
});
export type PreviewCallInput = z.infer<typeof previewCallInputSchema>;
