/**
 * Reading a thread (docs/contracts.md#threads): `GET /api/threads/:id`, a page of its turns — the
 * newest 50, or `?before=<messageId>&limit=` for older ones — with each message's text cut past
 * 2,000 characters, and `GET /api/threads/:id/messages/:messageId`, one message's turn whole.
 * Both read as any viewer reads a thread (the `viewer` role every signed-in principal has).
 */
import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi';
import {
  DEFAULT_VIEW_TURNS,
  MAX_VIEW_TURNS,
  threadViewSchema,
  turnSchema,
  VIEW_TEXT_CHARS,
} from '../../../workflows/contract/thread-contract';
import { ErrorBody } from '../../http/schemas';
import { ThreadIdParams } from '../thread-requests';
import type { ThreadsPort } from '../threads-port';

const json = <T>(schema: T) => ({ 'application/json': { schema } });
const failure = (description: string) => ({ description, content: json(ErrorBody) });

/** `?before=&limit=`: which page of turns. */
const PageQuery = z.object({
  before: z
    .string()
    .min(1)
    .max(200)
    .optional()
    .openapi({
      param: { name: 'before', in: 'query' },
      description: 'A message id: the turns before it (its `olderTurns` page); absent, the newest',
      example: 'msg-51',
    }),
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(MAX_VIEW_TURNS)
    .optional()
    .openapi({
      param: { name: 'limit', in: 'query' },
      description: `How many turns, at most ${MAX_VIEW_TURNS}; ${DEFAULT_VIEW_TURNS} by default`,
    }),
});

const MessageParams = ThreadIdParams.extend({
  messageId: z
    .string()
    .min(1)
    .max(200)
    .openapi({ param: { name: 'messageId', in: 'path' }, example: 'msg-3' }),
});

const getRoute = createRoute({
  method: 'get',
  path: '/api/threads/{id}',
  summary: `A thread and a page of its turns (the newest ${DEFAULT_VIEW_TURNS}), texts cut past ${VIEW_TEXT_CHARS} characters`,
  request: { params: ThreadIdParams, query: PageQuery },
  responses: {
    200: { description: 'The thread', content: json(threadViewSchema.meta({ id: 'Thread' })) },
    400: failure('A bad `before` or `limit` (INVALID_INPUT)'),
    404: failure('No such thread (NOT_FOUND)'),
  },
});

const messageRoute = createRoute({
  method: 'get',
  path: '/api/threads/{id}/messages/{messageId}',
  summary: 'One message of a thread and what became of it, its text whole',
  request: { params: MessageParams },
  responses: {
    200: { description: 'The turn', content: json(turnSchema.meta({ id: 'ThreadTurn' })) },
    404: failure('No such thread, or no such message kept in it (folded away, or never sent) (NOT_FOUND)'),
  },
});

/** Registers the thread's read routes on `app`. */
export function registerThreadReads(app: OpenAPIHono, threads: ThreadsPort): void {
  app.openapi(getRoute, async (c) => {
    const { before, limit } = c.req.valid('query');
    const page = { ...(before !== undefined ? { before } : {}), ...(limit !== undefined ? { limit } : {}) };
    return c.json(await threads.get(c.req.valid('param').id, page), 200);
  });
  app.openapi(messageRoute, async (c) => {
    const { id, messageId } = c.req.valid('param');
    return c.json(await threads.message(id, messageId), 200);
  });
}
