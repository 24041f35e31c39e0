/**
 * `POST /v1/chat/completions` (docs/contracts.md#openai-compatible-front-door): Cairn behind the
 * OpenAI Chat Completions API, so the official `openai` clients and OpenAI-compatible chat UIs
 * talk to threads. Model `cairn`; the last user message is the new message of the thread
 * `X-Cairn-Thread` names (an open question of its running turn is answered by it), else of a new
 * thread (chat-request.ts, deliver-message.ts). The answer waits for the turn: a chat reply, a
 * task turn's answer, or — when its agent asks a person — what waits, in the content and in
 * `cairn.interactions`; after an answer, the replies of the messages queued behind the answered
 * turn follow (follow-queued.ts). Streamed (`stream: true`): `chat.completion.chunk`s as server-sent
 * `data:` lines ending with `data: [DONE]`, status and the agent's live events in the `cairn`
 * field; a streamed request counts against the stream limits (429 TOO_MANY_STREAMS). A streamed
 * answer opens as soon as the thread has recorded the message, so a chat reply goes out as
 * content chunks as the model writes it (from the thread's live stream, reply-deltas.ts). Not
 * streamed, the answer goes before the client's announced timeout (client-timeout.ts), with the
 * turn still running when it must.
 */
import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { streamSSE, type SSEStreamingApi } from 'hono/streaming';
import {
  closedText,
  describeWaiting,
  followTurn,
  settledText,
  turnSettled,
  type TurnOutcome,
} from '../../chat/follow-turn';
import type { LiveHub } from '../../live/live-hub';
import type { AgentsPort } from '../agents-port';
import {
  chatCompletionBodySchema,
  THREAD_HEADER,
  turnRequestOf,
  type ChatCompletionBody,
  type ChatTurnRequest,
} from '../chat/chat-request';
import {
  chunkOf,
  completionId,
  completionOf,
  type CairnExtension,
  type ChatCompletionChunk,
} from '../chat/completion-objects';
import { answerSignal, unfinishedText } from '../chat/client-timeout';
import { ClientError } from '../../client-error';
import { deliverMessage, type Delivered } from '../chat/deliver-message';
import {
  followQueued,
  queuedReplyText,
  pendingQueuedText,
  stillPending,
  withQueued,
  type PendingQueued,
  type QueuedReply,
} from '../chat/follow-queued';
import { ReplyDeltas } from '../chat/reply-deltas';
import { ApiFailure } from '../errors';
import { ErrorBody } from '../schemas';
import { openStreamLease, type StreamLimiter } from '../stream-limiter';
import type { ThreadsPort } from './threads';

/** What the route needs. */
export interface ChatCompletionDeps {
  threads: ThreadsPort;
  agents: AgentsPort;
  /** Where a streamed task turn's live events come from; without it only status is streamed. */
  live?: LiveHub;
  limiter: StreamLimiter;
  /** How often the thread and its turn's agent are looked at (ms). */
  pollMs?: number;
  /** How often a streamed answer sends a comment while nothing else goes, so proxies keep it open (ms). */
  heartbeatMs: number;
  /**
   * When a non-streamed answer must go, for a request: `answerSignal` (client-timeout.ts, a little
   * before the client's announced timeout) unless given — tests give a deadline they end themselves.
   */
  answerDeadline?: (request: Request) => AbortSignal;
}

/** What a streamed answer says when following its turn failed for a reason of Cairn's own. */
const INTERNAL_FAILURE = { code: 'INTERNAL', message: 'internal error' } as const;

/** The longest a settled chat reply waits for its last deltas to arrive from the stream (ms). */
const REPLY_SETTLE_MS = 2_000;

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
    400: failure('Invalid body, a model other than `cairn`, or no user message (INVALID_INPUT)'),
    404: failure('No such thread (NOT_FOUND)'),
    409: failure('The thread has closed (THREAD_CLOSED)'),
    429: failure('Too many streams open (TOO_MANY_STREAMS)'),
    502: failure('Not streamed: the model failed the message for good (its LLM_* code); the turn is recorded failed'),
  },
});

/** Registers the route on `app`. */
export function registerChatCompletionsRoute(app: OpenAPIHono, deps: ChatCompletionDeps): void {
  app.openapi(route, async (c) => {
    const body = c.req.valid('json');
    const request = turnRequestOf(body.messages);
    if ('refused' in request) throw new ApiFailure('INVALID_INPUT', request.refused, request.field);
    const header = c.req.valid('header')['x-cairn-thread'];
    if (body.stream) return streamed(c, deps, body, request, header);
    noRetries(c);
    // Answered before the client's own timeout, so its SDK does not send the text again.
    const ends = (deps.answerDeadline ?? answerSignal)(c.req.raw);
    const delivered = await deliverWithin(c, deps, body, request, header, ends);
    c.header(THREAD_HEADER, delivered.thread);
    const id = completionId(delivered.thread, delivered.messageId, Date.now());
    const follow = followOptions(deps, ends);
    const followed = await followTurn(deps, delivered.thread, delivered.messageId, follow);
    const outcome = followed.kind === 'aborted' && !followed.turn ? await lastLook(deps, delivered) : followed;
    const { content, cairn } = answerOf(delivered, outcome);
    const replies = await followQueued(deps, delivered.thread, delivered.queued ?? [], outcome, follow);
    const more = replies.map((reply) => queuedAnswer(delivered, reply));
    const pending = await stillPending(deps, delivered.thread, delivered.queued ?? [], replies);
    const text = content + more.map((part) => part.content).join('') + pendingText(delivered.thread, pending);
    return c.json(completionOf(id, text, withQueued(cairn, replies, more.at(-1)?.cairn, pending)), 200);
  });
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

/** One look at a turn the answer could not follow at all (its time ran out while routing). */
async function lastLook(deps: ChatCompletionDeps, delivered: Delivered): Promise<TurnOutcome> {
  const view = await deps.threads.get(delivered.thread).catch(() => undefined);
  const turn = view?.turns.find((t) => t.messageId === delivered.messageId);
  if (!turn) return { kind: 'aborted' };
  return turnSettled(turn) ? { kind: 'settled', turn } : { kind: 'aborted', turn };
}

/** Where a message went, as soon as the thread has recorded it; `delivered` once it is routed too. */
interface Recorded {
  thread: string;
  messageId: string;
  delivered?: Delivered;
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

/** How often and until when a request follows its turn. */
function followOptions(deps: ChatCompletionDeps, signal: AbortSignal) {
  return { signal, ...(deps.pollMs !== undefined ? { pollMs: deps.pollMs } : {}) };
}

/** A queued message followed after an answer: its part of the content (quoted) and its extension. */
function queuedAnswer(answer: Delivered, reply: QueuedReply): { content: string; cairn: CairnExtension } {
  const ids = { thread: answer.thread, messageId: reply.messageId };
  const { content, cairn } = answerOf({ ...ids, cairn: ids }, reply.outcome);
  return { content: queuedReplyText(reply, content), cairn };
}

/** The pending queued messages' part of the content. */
function pendingText(thread: string, pending: readonly PendingQueued[]): string {
  return pending.map((message) => pendingQueuedText(thread, message)).join('');
}

/** The content and extension of what the turn came to. */
function answerOf(delivered: Delivered, outcome: TurnOutcome): { content: string; cairn: CairnExtension } {
  const turn = outcome.turn;
  const cairn: CairnExtension = {
    ...delivered.cairn,
    ...(turn?.disposition && delivered.cairn.disposition === undefined ? { disposition: turn.disposition } : {}),
    ...(turn?.kind ? { kind: turn.kind } : {}),
    ...(turn ? { status: turn.status } : {}),
    ...(turn?.agentId ? { agentId: turn.agentId } : {}),
    ...(turn?.error ? { error: turn.error } : {}),
  };
  if (outcome.kind === 'settled') return { content: settledText(outcome.turn), cairn };
  if (outcome.kind === 'closed')
    return { content: closedText(outcome.reason), cairn: { ...cairn, threadClosed: outcome.reason } };
  if (outcome.kind === 'waiting') {
    const interactions = outcome.interactions.map((i) => ({ ...i, agentId: outcome.agentId }));
    return { content: describeWaiting(outcome.agentId, outcome.interactions), cairn: { ...cairn, interactions } };
  }
  return { content: outcome.turn ? unfinishedText(delivered.thread, outcome.turn) : '', cairn };
}

/** Streams the turn: the ids first, status and live events as they come, the answer, the last chunk, `[DONE]`. */
async function streamTurn(
  stream: SSEStreamingApi,
  deps: ChatCompletionDeps,
  recorded: Recorded,
  delivering: Promise<Delivered>,
  id: string,
): Promise<void> {
  const ids = { thread: recorded.thread, messageId: recorded.messageId };
  let delivered: Delivered = recorded.delivered ?? { ...ids, cairn: ids };
  const stop = new AbortController();
  stream.onAbort(() => stop.abort());
  let chain = Promise.resolve();
  const send = (chunk: ChatCompletionChunk | '[DONE]'): Promise<void> => {
    const data = chunk === '[DONE]' ? chunk : JSON.stringify(chunk);
    // One write at a time, in order; a client that went away ends the follow (onAbort).
    chain = chain.then(() => stream.writeSSE({ data })).catch(() => stop.abort());
    return chain;
  };
  const unfollow: (() => void)[] = [];
  // SSE comments: OpenAI clients skip them; a task turn may think for minutes between chunks.
  const heartbeat = setInterval(() => {
    chain = chain.then(async () => void (await stream.write(': heartbeat\n\n'))).catch(() => stop.abort());
  }, deps.heartbeatMs);
  void send(chunkOf(id, { role: 'assistant', content: '' }, delivered.cairn));
  // Routed after the stream opened: what became of the message, when it is known. A failure
  // after the thread recorded the message is on its turn, which the follow below reads.
  if (!recorded.delivered)
    delivering.then(
      (d) => {
        delivered = d;
        if (d.cairn.disposition) void send(chunkOf(id, {}, { disposition: d.cairn.disposition }));
      },
      () => undefined,
    );
  // The chat reply as the model writes it: its text as content, its reasoning in `cairn.event`.
  const reply = deps.live
    ? new ReplyDeltas(
        deps.live,
        ids.thread,
        ids.messageId,
        (content) => void send(chunkOf(id, { content })),
        (event) => void send(chunkOf(id, {}, { event: { ...event } })),
      )
    : undefined;
  try {
    const outcome = await followTurn(deps, ids.thread, ids.messageId, {
      ...followOptions(deps, stop.signal),
      onProgress: ({ status, agentId }) => {
        void send(chunkOf(id, {}, { status, ...(agentId ? { agentId } : {}) }));
        // The agent's model calls as they stream: the turn's own agent, followed once.
        if (agentId && deps.live && unfollow.length === 0 && status === 'running')
          unfollow.push(
            deps.live.follow(agentId, undefined, {
              event: (event) => void send(chunkOf(id, {}, { event: { ...event } })),
              reset: () => undefined,
              end: () => undefined,
            }),
          );
      },
    });
    for (const stopLive of unfollow.splice(0)) stopLive();
    if (outcome.kind === 'aborted') return;
    // The reply's last deltas may still be on their way from the stream: they go first.
    if (outcome.kind === 'settled' && outcome.turn.kind === 'chat') await reply?.settle(REPLY_SETTLE_MS);
    reply?.stop();
    const { content, cairn } = answerOf(delivered, outcome);
    const rest = outcome.kind === 'settled' && outcome.turn.kind === 'chat' && reply ? reply.rest(content) : content;
    if (rest !== '') await send(chunkOf(id, { content: rest }));
    // After an answer: the messages queued behind the answered turn, each once it settles.
    let last: CairnExtension | undefined;
    const replies = await followQueued(deps, ids.thread, delivered.queued ?? [], outcome, {
      ...followOptions(deps, stop.signal),
      onProgress: (messageId, { status, agentId }) =>
        void send(chunkOf(id, {}, { messageId, status, ...(agentId ? { agentId } : {}) })),
      onReply: async (queued) => {
        const part = queuedAnswer(delivered, queued);
        last = part.cairn;
        await send(chunkOf(id, { content: part.content }));
      },
    });
    if (stop.signal.aborted) return;
    const pending = await stillPending(deps, ids.thread, delivered.queued ?? [], replies);
    if (pending.length > 0) await send(chunkOf(id, { content: pendingText(ids.thread, pending) }));
    await send(chunkOf(id, {}, withQueued(cairn, replies, last, pending), true));
    await send('[DONE]');
  } catch (err) {
    // The turn goes on in the thread; this answer ends properly, saying why it stopped following.
    const failure = err instanceof ClientError ? { code: err.code, message: err.message } : INTERNAL_FAILURE;
    const content = `\n\nStopped following the turn (${failure.code}); its answer will be in thread ${ids.thread}.`;
    await send(chunkOf(id, { content }, { failure }, true));
    await send('[DONE]');
    if (!(err instanceof ClientError)) throw err; // logged by the server
  } finally {
    clearInterval(heartbeat);
    reply?.stop();
    for (const stopLive of unfollow.splice(0)) stopLive();
    await chain;
  }
}
