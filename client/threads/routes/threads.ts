/**
 * The thread routes (docs/contracts.md#threads): open a thread (empty or with its first message),
 * list threads, send a message; reading one is thread-reads.ts. Thin calls into the thread client; its coded
 * ClientErrors become HTTP statuses in errors.ts. The sender is the signed-in principal: the
 * workflow gets it as the message's `actor` (a task turn runs under it), never from the body.
 */
import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi';
import { sendResultSchema } from '../../../workflows/contract/thread-contract';
import { ErrorBody } from '../../http/schemas';
import {
  fromSender,
  MessageBody,
  nameOf,
  boundOf,
  OpenBody,
  openerOf,
  sendWhen,
  ThreadIdParams,
  WaitQuery,
} from '../thread-requests';
import type { ThreadsPort } from '../threads-port';

/** Both routes also take the body as `multipart/form-data` with files (answered in thread-uploads.ts). */
const UPLOADS_TOO =
  "Also as `multipart/form-data`: the part `input` is the JSON body, every part with a file name a file stored as `inputs/<name>` in the thread's folder and added to the message's `files` (400 UPLOAD_NAME_TOO_LONG, 413 UPLOAD_TOO_LARGE, 415 UPLOAD_TYPE_REFUSED).";

const json = <T>(schema: T) => ({ 'application/json': { schema } });
const failure = (description: string) => ({ description, content: json(ErrorBody) });

const Opened = z.object({ id: z.string(), messageId: z.string().optional() }).openapi('ThreadOpened');
const Recorded = z.object({ messageId: z.string() }).openapi('ThreadMessageRecorded');

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
