/**
 * What `POST /api/agents` hands the client library from a validated agent input, whether it came
 * as the JSON body or as the `input` part of a multipart upload: the signed-in principal, and
 * `mode` only as it was sent. A body naming a field only Cairn sets never gets here (start-fields.ts).
 */
import type { Context } from 'hono';
import type { z } from 'zod';
import type { AgentInput } from '../../workflows/model/agent/agent-input';
import type { AgentStart } from '../definitions/resolve-definition';
import { principalOf } from '../../workflows/model/principal';
import type { agentStartSchema } from './start-fields';

/**
 * The body's `mode` as it was sent (validated already): the parsed body has every mode filled in
 * with its default, and a graph agent refuses planning modes it is sent (`mode.plan` included),
 * so it must not be sent ones nobody asked for. No `mode` sent: none forwarded.
 */
function modeAsSent(sent: unknown): { mode?: AgentInput['mode'] } {
  const mode = typeof sent === 'object' && sent !== null ? (sent as { mode?: unknown }).mode : undefined;
  return typeof mode === 'object' && mode !== null ? { mode } : {};
}

/**
 * The body's `limits` as sent when it names a definition: the parsed body has every limit filled
 * in with its default, which would override the definition's own (and a start may only lower them).
 */
function limitsAsSent(parsed: z.output<typeof agentStartSchema>, sent: unknown): { limits?: AgentInput['limits'] } {
  if (parsed.definition === undefined) return { limits: parsed.limits };
  const limits = typeof sent === 'object' && sent !== null ? (sent as { limits?: unknown }).limits : undefined;
  return typeof limits === 'object' && limits !== null ? { limits } : {};
}

/** The input to start: `parsed` (validated `sent`) with the principal, `mode` and `limits` as above. */
export function startInput(c: Context, parsed: z.output<typeof agentStartSchema>, sent: unknown): AgentStart {
  // The agent's principal (what approval policies judge) is the signed-in one.
  const { mode: _filled, limits: _limits, ...rest } = parsed;
  const who = c.get('authOn') ? { principal: principalOf(c.get('principal')) } : {};
  return { ...rest, ...modeAsSent(sent), ...limitsAsSent(parsed, sent), ...who } as AgentStart;
}
