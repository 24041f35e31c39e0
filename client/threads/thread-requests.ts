/**
 * What the thread routes read from a request (docs/contracts.md#threads), shared by the JSON
 * routes, their multipart forms, the thread reads, the live stream and the chat front door: the
 * message and opening bodies, the `:id` and `?wait=` parameters, when a message route answers,
 * and the sender the workflow gets as `actor`. A module of its own, so no route imports another.
 */
import { z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { SendHooks } from './thread-client';
import { sendInputSchema, threadInputSchema, type SendInput } from '../../workflows/contract/thread-contract';
import { ApiFailure } from '../http/errors';
import { principalOf } from '../../workflows/model/principal';

/** A message as sent: the `send` body without the actor, which is the server's to set. */
export const MessageBody = sendInputSchema.omit({ actor: true }).meta({ id: 'ThreadMessage' });
const DAY_MS = 86_400_000;
/** A new thread's own settings: how long it may idle before it closes, and a budget over all its turns. */
const ThreadOptions = z
  .object({
    idleTimeoutMs: z
      .number()
      .int()
      .min(1_000)
      .max(365 * DAY_MS)
      .optional(),
    budget: threadInputSchema.shape.budget,
    /** Opened empty: the words its id and summary are made from (the page passes the message it sends next). */
    name: z.string().trim().min(1).max(200).optional(),
  })
  .meta({ id: 'ThreadOptions' });
/**
 * A new thread's body: a message whose text may be left out (an empty thread), the thread's
 * settings, and the agent definition it is bound to for life, by name (docs/definitions.md).
 */
export const OpenBody = MessageBody.partial({ text: true })
  .extend({ thread: ThreadOptions.optional(), definition: z.string().trim().min(1).max(64).optional() })
  .meta({ id: 'ThreadOpen' });
/** The `:id` of the thread routes. */
export const ThreadIdParams = z.object({
  id: z
    .string()
    .min(1)
    .max(400)
    .openapi({ param: { name: 'id', in: 'path' }, example: 'thread-plan-the-launch-1a2b3c4d' }),
});
/** `?wait=`: when a message route answers. */
export const WaitQuery = z.object({
  wait: z
    .enum(['routed', 'recorded'])
    .optional()
    .openapi({
      param: { name: 'wait', in: 'query' },
      description:
        "`routed` (the default): once the message is routed — a chat reply written, a task started, a message queued, steered or rejected. `recorded`: as soon as the thread has recorded the message, with its id only; the turn (`GET /api/threads/:id`) tells how it went on, and a chat reply streams on the thread's stream meanwhile, its deltas naming the message.",
    }),
});
/** When a message route answers. */
export type Wait = z.infer<typeof WaitQuery>['wait'];

/**
 * Sends with `send`, answering as `wait` says: with what `send` resolves to once the message is
 * routed, or (`recorded`) with `early`'s answer as soon as the thread has recorded it — the send
 * goes on without the caller, its outcome recorded in the turn. A refusal before the message was
 * recorded (a closed thread, no such thread) is thrown either way. A thread on a worker too old to
 * name the message it recorded is answered once routed.
 */
export function sendWhen<T, R>(
  wait: Wait,
  send: (hooks: SendHooks) => Promise<T>,
  early: (threadId: string, messageId: string) => R,
): Promise<T | R> {
  if (wait !== 'recorded') return send({});
  return new Promise<T | R>((resolve, reject) => {
    send({ accepted: (threadId, messageId) => resolve(early(threadId, messageId)) }).then(resolve, reject);
  });
}

/** The `wait` of a multipart form's query string, checked as the JSON routes check it. */
export function waitOf(c: Context): Wait {
  const parsed = WaitQuery.safeParse({ wait: c.req.query('wait') });
  if (!parsed.success) throw new ApiFailure('INVALID_INPUT', 'wait: expected routed or recorded', 'wait');
  return parsed.data.wait;
}

/**
 * The message with its sender: signed in, the principal as `actor` (a body `by` naming someone
 * else is refused with BY_MISMATCH); without authentication, the body's `by` alone.
 */
export function fromSender<T extends { by?: string | undefined }>(c: Context, body: T): T & Pick<SendInput, 'actor'> {
  if (!c.get('authOn')) return body;
  const principal = c.get('principal');
  if (body.by !== undefined && body.by !== principal.id) {
    const why = `"by" must be the signed-in principal ${JSON.stringify(principal.id)} or left out`;
    throw new ApiFailure('BY_MISMATCH', why, 'by');
  }
  const actor = {
    id: principal.id,
    ...(principal.name !== undefined ? { name: principal.name } : {}),
    roles: [...principal.roles],
    method: principal.method,
    authenticatedBy: principal.authenticatedBy,
  };
  return { ...body, by: principal.id, actor };
}

/** A new thread's settings: its body's `thread` options, and who opened it (signed in: its turns default to that principal). */
export const openerOf = (body: Pick<SendInput, 'actor'> & { thread?: z.infer<typeof ThreadOptions> }) => {
  const { idleTimeoutMs, budget } = body.thread ?? {};
  return {
    ...(idleTimeoutMs !== undefined ? { idleTimeoutMs } : {}),
    ...(budget !== undefined ? { budget } : {}),
    ...(body.actor ? { principal: principalOf(body.actor) } : {}),
  };
};

/** The definition a new thread is bound to, as `open` takes it (the message itself goes without it). */
export const boundOf = (body: { definition?: string | undefined }) =>
  body.definition !== undefined ? { definition: body.definition } : {};

/** What an empty thread is named after (`thread.name`), as `open` takes it. */
export const nameOf = (body: { thread?: { name?: string | undefined } | undefined }) =>
  body.thread?.name !== undefined ? { name: body.thread.name } : {};
