/**
 * The tool interface: a zod-typed input, an effect, and a `run` that returns text for the
 * model. Built-ins, user modules and (later) MCP servers all produce these.
 */
import type { z } from 'zod';
import type { ImageRef } from '../../workflows/model/llm/llm-types';
import type { ReadWhen } from '../../workflows/model/tools/tool-types';

/** What a running tool gets besides its arguments. */
export interface ToolContext {
  /** Root folder the file tools are confined to. */
  workspace: string;
  /**
   * Folder of the idempotency ledger (`CAIRN_LEDGER_DIR`), for `once()` from
   * `builtin/idempotency-ledger`; outside the workspace, so no file tool can read or forge it.
   */
  ledgerDir: string;
  /** `<agent id>/<step id>/<call id>`: the same key on every retry of the same call. */
  idempotencyKey: string;
  /** Aborted when the activity is cancelled. */
  signal: AbortSignal;
}

/** What a tool returns besides plain text: the text and an image it read (by reference; `read_file`). */
export interface ToolResult {
  output: string;
  image?: Omit<ImageRef, 'scope'>;
}

/** A tool the model can call. */
export interface ToolDefinition<Input = unknown> {
  name: string;
  description: string;
  input: z.ZodType<Input>;
  /**
   * The JSON Schema the model sees, when it must be passed through as given (MCP tools);
   * otherwise it is derived from `input` with `z.toJSONSchema`.
   */
  parameters?: Record<string, unknown>;
  /** Longest a call may run, in milliseconds. */
  timeoutMs?: number;
  /** `write` tools have side effects: their calls wait for approval unless auto-approved. */
  effect: 'read' | 'write';
  /**
   * For a `write` tool whose effect depends on one argument: the calls that only read, which
   * run without approval and are retried (e.g. http_fetch with method GET or HEAD).
   */
  readWhen?: ReadWhen;
  /**
   * True when running twice with the same idempotency key is harmless (the default for `read`
   * tools). With `readWhen`, it is said of the write calls; the read calls are always retried.
   */
  idempotent?: boolean;
  /**
   * Does the work and returns text for the model. A thrown error goes back to the model as a
   * tool error — except a retryable `ApplicationFailure` (a timeout, a 5xx, a 429; its
   * `nextRetryDelay` in ms is honoured), which the activity's retry policy retries first.
   */
  run(args: Input, context: ToolContext): Promise<string | ToolResult>;
}

/** Defines a tool with its argument types inferred from the zod schema. */
export function defineTool<S extends z.ZodType>(tool: ToolDefinition<z.output<S>> & { input: S }): ToolDefinition {
  return tool;
}

/** The text of what a tool returned. */
export function toolText(result: string | ToolResult): string {
  return typeof result === 'string' ? result : result.output;
}
