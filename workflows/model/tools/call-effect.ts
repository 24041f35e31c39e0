/**
 * The effect of one tool call, decided in workflow code from the tool's catalogue entry and the
 * validated arguments: whether it waits for a `tool.approval` and whether it may be retried.
 * Pure, so the decision is the same on replay.
 */
import type { ToolInfo } from './tool-types';

/** What a single call does and how it is run. */
export interface CallEffect {
  effect: 'read' | 'write';
  /** Wait for a human's `tool.approval` before running. */
  needsApproval: boolean;
  /** May be retried; otherwise the call runs with one attempt. */
  idempotent: boolean;
}

/** True when `args` select one of the read calls that `tool.readWhen` describes. */
function isReadCall(tool: ToolInfo, args: unknown): boolean {
  const rule = tool.readWhen;
  if (!rule || tool.effect !== 'write') return false;
  // Anything unexpected (no object, a value that is not a string) counts as the write it may be.
  if (typeof args !== 'object' || args === null || Array.isArray(args)) return false;
  const given: unknown = (args as Record<string, unknown>)[rule.argument];
  const value = given === undefined ? rule.default : given;
  return typeof value === 'string' && rule.values.includes(value);
}

/**
 * The effect of calling `tool` with `args` (the arguments after validation). A read call of a
 * write tool (see `ToolInfo.readWhen`) runs like any read: no approval, retried. Every other
 * call has the tool's own effect, approval and idempotency.
 */
export function callEffect(tool: ToolInfo, args: unknown): CallEffect {
  if (isReadCall(tool, args)) return { effect: 'read', needsApproval: false, idempotent: true };
  return { effect: tool.effect, needsApproval: tool.needsApproval, idempotent: tool.idempotent };
}
