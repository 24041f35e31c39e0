/**
 * The thread routes (docs/contracts.md#threads): open a thread (empty or with its first message),
 * list threads, send a message; reading one is thread-reads.ts. Thin calls into the thread client; its coded
 * ClientErrors become HTTP statuses in errors.ts. The sender is the signed-in principal: the
 * workflow gets it as the message's `actor` (a task turn runs under it), never from the body.
 */
import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { SendHooks, ThreadClient } from '../../thread-client';
import {
  sendInputSchema,
  sendResultSchema,
  threadInputSchema,
  type SendInput,
} from '../../../workflows/contract/thread-contract';
import { ApiFailure } from '../errors';
import { ErrorBody } from '../schemas';
import { principalOf } from '../../../workflows/principal';

/** The slice of the thread client the routes call. */
export type ThreadsPort = Pick<ThreadClient, 'open' | 'send' | 'get' | 'message' | 'list' | 'newId'>;

/** Both routes also take the body as `multipart/form-data` with files (answered in thread-uploads.ts). */
const UPLOADS_TOO =
  "Also as `multipart/form-data`: the part `input` is the JSON body, every part with a file name a file stored as `inputs/<name>` in the thread's folder and added to the message's `files` (400 UPLOAD_NAME_TOO_LONG, 413 UPLOAD_TOO_LARGE, 415 UPLOAD_TYPE_REFUSED).";

const json = <T>(schema: T) => ({ 'application/json': { schema } });
const failure = (description: string) => ({ description, content: json(ErrorBody) });

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
const Opened = z.object({ id: z.string(), messageId: z.string().optional() }).openapi('ThreadOpened');
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
const Recorded = z.object({ messageId: z.string() }).openapi('ThreadMessageRecorded');

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

const ThreadList = z
  .object({
    threads: z.array(
      z.object({
        id: z.string(),
        title: z.string(),
        status: z.string(),
        startedAt: z.string(),
        closedAt: z.string().optional(),
      }),
    ),
  })
  .openapi('ThreadList');

const openRoute = createRoute({
  method: 'post',
  path: '/api/threads',
  summary: 'Open a thread, with its first message or empty',
  description: UPLOADS_TOO,
  request: { query: WaitQuery, body: { required: true, content: json(OpenBody) } },
  responses: {
    201: { description: 'Opened; the first message routed (or recorded: `?wait=recorded`)', content: json(Opened) },
    400: failure('Invalid body (INVALID_INPUT), or a `by` not the principal (BY_MISMATCH)'),
    415: failure('The body is not JSON (UNSUPPORTED_MEDIA_TYPE)'),
    429: failure('More thread messages in a minute than one principal may send (SEND_RATE_LIMITED)'),
    502: failure('The model failed the message for good (its LLM_* code); the turn is recorded failed'),
  },
});

const listRoute = createRoute({
  method: 'get',
  path: '/api/threads',
  summary: 'List threads, newest first',
  responses: { 200: { description: 'The threads', content: json(ThreadList) } },
});

const sendRoute = createRoute({
  method: 'post',
  path: '/api/threads/{id}/messages',
  summary:
    'Send a message; answers once it is routed (answered, started, steered, queued or rejected), or recorded (`?wait=recorded`)',
  description: UPLOADS_TOO,
  request: { params: ThreadIdParams, query: WaitQuery, body: { required: true, content: json(MessageBody) } },
  responses: {
    202: {
      description: 'Routed; with `?wait=recorded`, recorded (the message id alone)',
      content: json(z.union([sendResultSchema.meta({ id: 'ThreadMessageRouted' }), Recorded])),
    },
    400: failure('Invalid body (INVALID_INPUT), or a `by` not the principal (BY_MISMATCH)'),
    404: failure('No such thread (NOT_FOUND)'),
    409: failure('The thread has closed (THREAD_CLOSED), or too many messages wait in it, or from you (QUEUE_FULL)'),
    415: failure('The body is not JSON (UNSUPPORTED_MEDIA_TYPE)'),
    429: failure('More thread messages in a minute than one principal may send (SEND_RATE_LIMITED)'),
    502: failure('The model failed the message for good (its LLM_* code); the turn is recorded failed'),
  },
});

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

/** Registers the thread routes on `app`. */
export function registerThreadRoutes(app: OpenAPIHono, threads: ThreadsPort): void {
  app.openapi(openRoute, async (c) => {
    const body = fromSender(c, c.req.valid('json'));
    const { wait } = c.req.valid('query');
    const opened = await sendWhen(
      wait,
      (hooks) => threads.open(body, { settings: openerOf(body), ...nameOf(body), ...boundOf(body), ...hooks }),
      (id, messageId) => ({ id, messageId }),
    );
    return c.json(opened, 201);
  });
  app.openapi(listRoute, async (c) => c.json({ threads: await threads.list() }, 200));
  app.openapi(sendRoute, async (c) => {
    const { id } = c.req.valid('param');
    const body = fromSender(c, c.req.valid('json'));
    const answer = await sendWhen(
      c.req.valid('query').wait,
      (hooks) => threads.send(id, body, hooks),
      (_, messageId) => ({ messageId }),
    );
    return c.json(answer, 202);
  });
}
