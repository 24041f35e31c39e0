/**
 * The fields a start's body may carry (`POST /api/agents`, JSON or the `input` part of a
 * multipart form), as an allow list: the agent input less the fields only Cairn sets — a
 * thread's turn context and identity, a nested agent's marks, the signed-in principal. A body
 * naming one of those, or a field the input does not have, is refused by name before anything
 * starts: a forged `context.approvals` would run a write nobody approved, a forged `thread`
 * would signal another workflow, a forged `nested` would skip the plan check.
 */
import { z } from 'zod';
import { agentInputSchema } from '../../workflows/model/agent/agent-input';
import { ApiFailure } from '../http/errors';

/** The agent input's fields that Cairn sets itself (threadWorkflow, `sub_agent`, the signed-in principal). */
const SERVER_SET = { context: true, thread: true, nested: true, sharedWorkspace: true, principal: true } as const;

const serverSet = new Set<string>(Object.keys(SERVER_SET));

/**
 * The agent input as a start's body takes it: every field but the server-set ones, and the
 * definition by name (and optionally the version it must be at), never a snapshot: the server
 * puts the registered definition's snapshot in the input (client/definitions/resolve-definition.ts).
 */
export const agentStartSchema = agentInputSchema.omit({ ...SERVER_SET, definition: true }).extend({
  definition: z.string().trim().min(1).max(64).optional(),
  definitionVersion: z
    .string()
    .regex(/^[0-9a-f]{64}$/, 'a SHA-256 in hex')
    .optional(),
});

/** The fields a start's body may carry, in the input's order. */
export const START_FIELDS: readonly string[] = Object.keys(agentStartSchema.shape);

const allowed = new Set(START_FIELDS);

/**
 * Refuses a start whose body (`sent`, the JSON as it came) names a server-set field or a field
 * the input does not have: 400 INVALID_INPUT, `field` the first such key, the message naming
 * every one. A body that is not an object is left to the schema's own check.
 */
export function refuseForeignFields(sent: unknown): void {
  if (typeof sent !== 'object' || sent === null || Array.isArray(sent)) return;
  const keys = Object.keys(sent);
  const setByCairn = keys.filter((key) => serverSet.has(key));
  const unknown = keys.filter((key) => !serverSet.has(key) && !allowed.has(key));
  if (setByCairn.length === 0 && unknown.length === 0) return;
  const lines = [
    ...setByCairn.map((key) => `${key}: set by Cairn, never by a start's body`),
    ...unknown.map((key) => `${key}: unknown field`),
  ];
  const field = setByCairn[0] ?? unknown[0];
  throw new ApiFailure('INVALID_INPUT', `${lines.join('; ')} (a start takes ${START_FIELDS.join(', ')})`, field);
}
