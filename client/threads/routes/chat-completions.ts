/**
 * `POST /v1/chat/completions` (docs/contracts.md#openai-compatible-front-door): Cairn behind the
 * OpenAI Chat Completions API, so the official `openai` clients and OpenAI-compatible chat UIs
 * talk to threads. The model is an agent definition (`cairn` the built-in; others bind a new thread); the last user message is the new message of the thread
 * `X-Cairn-Thread` names (an open question of its running turn is answered by it), else of a new
 * thread (chat-request.ts, deliver-message.ts). The answer waits for the turn: a chat reply, a
 * task turn's answer, or — when its agent asks a person — what waits, in the content and in
 * `cairn.interactions`; after an answer, the replies of the messages queued behind the answered
 * turn follow (follow-queued.ts). Streamed (`stream: true`): `chat.completion.chunk`s as server-sent
 * `data:` lines ending with `data: [DONE]`, status and the agent's live events in the `cairn`
 * field; every request, streamed or not, counts against the stream limits while it is open
 * (429 TOO_MANY_STREAMS). A streamed answer opens as soon as the thread has recorded the message,
 * so a chat reply goes out as content chunks as the model writes it (stream-turn.ts, from the
 * thread's live stream, reply-deltas.ts), and its client may fall only so far behind
 * (chunk-sender.ts). Not streamed, the answer goes before the client's announced timeout
 * (client-timeout.ts; at most 15 minutes on), with the turn still running when it must.
 */
import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { streamSSE } from 'hono/streaming';
import { turnSettled, type TurnOutcome } from '../follow-turn';
import { FollowerPool } from '../follower-pool';
import type { Turn } from '../../../workflows/contract/thread-contract';
import type { AgentsPort } from '../../agents/agents-port';
import { answerOf, followOptions, pendingText, queuedAnswer } from '../chat/answer-parts';
import {
  chatCompletionBodySchema,
  THREAD_HEADER,
  turnRequestOf,
  type ChatCompletionBody,
  type ChatTurnRequest,
} from '../chat/chat-request';
import { completionId, completionOf } from '../chat/completion-objects';
import { answerSignal } from '../chat/client-timeout';
import { deliverMessage, type Delivered } from '../chat/deliver-message';
import { followQueued, stillPending, withQueued } from '../chat/follow-queued';
import { streamTurn, type Recorded, type StreamTurnDeps } from '../chat/stream-turn';
import { ApiFailure } from '../../http/errors';
import { ErrorBody } from '../../http/schemas';
import { openStreamLease, type StreamLimiter } from '../../http/stream-limiter';
import type { ThreadsPort } from '../threads-port';
import { createDefinitionRegistry, type DefinitionRegistry } from '../../definitions/definition-registry';
import { modelNotFound } from '../../definitions/door-model';

const BUILT_IN = createDefinitionRegistry([]);

/** What the route needs. */
export interface ChatCompletionDeps extends StreamTurnDeps {
  threads: ThreadsPort;
  agents: AgentsPort;
  limiter: StreamLimiter;
  /** The agent definitions, the door's models (`GET /v1/models`); the built-in `cairn` alone without them. */
  definitions?: DefinitionRegistry;
  /**
   * When a non-streamed answer must go, for a request: `answerSignal` (client-timeout.ts, a little
   * before the client's announced timeout) unless given — tests give a deadline they end themselves.
   */
  answerDeadline?: (request: Request) => AbortSignal;
}

const failure = (description: string) => ({ description, content: { 'application/json': { schema: ErrorBody } } });

const ThreadHeaders = z.object({
  'x-cairn-thread': z
    .string()
    .min(1)
    .max(400)
    .optional()
    .openapi({
      param: { name: 'x-cairn-thread', in: 'header' },
      description: 'The thread to continue; a new one when absent',
    }),
});

const route = createRoute({
  method: 'post',
  path: '/v1/chat/completions',
  summary: 'OpenAI-compatible chat: the last user message goes to a thread (X-Cairn-Thread, else a new one)',
  request: {
    headers: ThreadHeaders,
    body: { required: true, content: { 'application/json': { schema: chatCompletionBodySchema } } },
  },
  responses: {
    200: {
      description:
        'A `chat.completion`, or with `stream: true` server-sent `chat.completion.chunk`s ending `data: [DONE]`; ' +
        'the `X-Cairn-Thread` header and the `cairn` field name the thread',
      content: {
        'application/json': { schema: z.looseObject({ object: z.string(), cairn: z.looseObject({}) }) },
        'text/event-stream': { schema: z.string() },
      },
    },
    400: failure('Invalid body, or no user message (INVALID_INPUT)'),
    404: failure("No such thread (NOT_FOUND); a model no definition has (OpenAI's `model_not_found`)"),
    409: failure('The thread has closed (THREAD_CLOSED)'),
    429: failure('Too many streams open (TOO_MANY_STREAMS)'),
    502: failure('Not streamed: the model failed the message for good (its LLM_* code); the turn is recorded failed'),
  },
});

/** Registers the route on `app`. */
export function registerChatCompletionsRoute(app: OpenAPIHono, deps: ChatCompletionDeps): void {
  const followers = new FollowerPool(deps, deps.pollMs);
  app.openapi(route, async (c) => {
    const body = c.req.valid('json');
    const definitions = deps.definitions ?? BUILT_IN;
    if (!definitions.get(body.model)) return modelNotFound(c, body.model, definitions);
    const request = turnRequestOf(body.messages);
    if ('refused' in request) throw new ApiFailure('INVALID_INPUT', request.refused, request.field);
    const header = c.req.valid('header')['x-cairn-thread'];
    if (body.stream) return streamed(c, deps, body, request, header);
    // Not streamed, the request is held (and its turn polled) as long as a stream: it counts as one.
    const lease = openStreamLease(c, deps.limiter);
    try {
      return await answered(c, deps, followers, body, request, header);
    } finally {
      lease.release();
    }
  });
}

/** The non-streamed answer: one `chat.completion`, sent before the client's announced timeout. */
async function answered(
  c: Context,
  deps: ChatCompletionDeps,
  followers: FollowerPool,
  body: ChatCompletionBody,
  request: ChatTurnRequest,
  header: string | undefined,
): Promise<Response> {
  noRetries(c);
  // Answered before the client's own timeout, so its SDK does not send the text again.
  const ends = (deps.answerDeadline ?? answerSignal)(c.req.raw);
  const delivered = await deliverWithin(c, deps, body, request, header, ends);
  c.header(THREAD_HEADER, delivered.thread);
  const id = completionId(delivered.thread, delivered.messageId, Date.now());
  const follow = followOptions(deps, ends);
  // However many requests wait on this message, its thread is polled once.
  const followed = await followers.follow(delivered.thread, delivered.messageId, ends);
  // At the deadline the follower's last poll may be up to a poll old: one last look tells what is so now.
  const outcome = followed.kind === 'aborted' ? await lastLook(deps, delivered, followed.turn) : followed;
  const { content, cairn } = answerOf(delivered, outcome);
  const replies = await followQueued(deps, delivered.thread, delivered.queued ?? [], outcome, follow);
  const more = replies.map((reply) => queuedAnswer(delivered, reply));
  const pending = await stillPending(deps, delivered.thread, delivered.queued ?? [], replies);
  const text = content + more.map((part) => part.content).join('') + pendingText(delivered.thread, pending);
  return c.json(completionOf(id, text, withQueued(cairn, replies, more.at(-1)?.cairn, pending)), 200);
}

/**
 * Not streamed: delivers the message, waiting for it to be routed (a chat reply written, a task
 * started) only until `ends` — then the answer goes from what the thread recorded. A refusal, or
 * a failure for good while routing that comes in time, is thrown as it is.
 */
async function deliverWithin(
  c: Context,
  deps: ChatCompletionDeps,
  body: ChatCompletionBody,
  request: ChatTurnRequest,
  header: string | undefined,
  ends: AbortSignal,
): Promise<Delivered> {
  const { recording, delivering } = recordMessage(c, deps, body, request, header);
  delivering.catch(() => undefined); // one that fails after the deadline is the turn's: the answer reads it
  const recorded = await recording;
  if (recorded.delivered) return recorded.delivered;
  const ended = new Promise<undefined>((resolve) =>
    ends.aborted ? resolve(undefined) : ends.addEventListener('abort', () => resolve(undefined), { once: true }),
  );
  const ids = { thread: recorded.thread, messageId: recorded.messageId };
  return (await Promise.race([delivering, ended])) ?? { ...ids, cairn: ids };
}

/**
 * Sends the message: `recording` resolves as soon as the thread has recorded it (or once it is
 * delivered, or rejects with a refusal), while `delivering` goes on until it is routed too.
 */
function recordMessage(
  c: Context,
  deps: ChatCompletionDeps,
  body: ChatCompletionBody,
  request: ChatTurnRequest,
  header: string | undefined,
): { recording: Promise<Recorded>; delivering: Promise<Delivered> } {
  let onAccepted: (ids: Recorded) => void = () => undefined;
  const accepted = new Promise<Recorded>((resolve) => (onAccepted = resolve));
  const delivering = deliverMessage(c, deps, body, request, header, (thread, messageId) =>
    onAccepted({ thread, messageId }),
  );
  return { recording: Promise.race([accepted, delivering.then((d) => ({ ...d, delivered: d }))]), delivering };
}

/**
 * One look at the turn when the answer's time ran out: what it is now, or what the follower last
 * saw of it when the thread cannot be read (and nothing when it never saw it).
 */
async function lastLook(deps: ChatCompletionDeps, delivered: Delivered, seen?: Turn): Promise<TurnOutcome> {
  const view = await deps.threads.get(delivered.thread).catch(() => undefined);
  const turn = view?.turns.find((t) => t.messageId === delivered.messageId) ?? seen;
  if (!turn) return { kind: 'aborted' };
  return turnSettled(turn) ? { kind: 'settled', turn } : { kind: 'aborted', turn };
}

/**
 * The streamed answer: it opens once the thread has recorded the message (a refusal before that
 * keeps its status), while the message is routed and answered, so a chat reply streams.
 */
async function streamed(
  c: Context,
  deps: ChatCompletionDeps,
  body: ChatCompletionBody,
  request: ChatTurnRequest,
  header: string | undefined,
): Promise<Response> {
  const lease = openStreamLease(c, deps.limiter); // past the limit: 429, which a client may retry
  noRetries(c);
  const { recording, delivering } = recordMessage(c, deps, body, request, header);
  let recorded: Recorded;
  try {
    recorded = await recording;
  } catch (err) {
    lease.release();
    throw err;
  }
  c.header(THREAD_HEADER, recorded.thread);
  const id = completionId(recorded.thread, recorded.messageId, Date.now());
  return streamSSE(c, async (stream) => {
    try {
      await streamTurn(stream, deps, recorded, delivering, id);
    } finally {
      lease.release();
    }
  });
}

/**
 * From here on a failure may come after the thread recorded the message (a model that failed it
 * for good, a thread closed, a worker too slow to answer): the OpenAI SDKs retry 409 and every
 * 5xx, and a retry would send the text again as a new message. `x-should-retry: false` is the
 * header they obey instead.
 */
function noRetries(c: Context): void {
  c.header('x-should-retry', 'false');
}
