/**
 * A streamed front-door answer (routes/chat-completions.ts) once its stream has opened: the ids
 * first, the turn's status and its agent's live events as they come, a chat reply's text as the
 * model writes it (reply-deltas.ts), the answer, the messages queued behind an answered turn,
 * the last chunk and `[DONE]` — all through one ChunkSender, so a client that reads too slowly
 * is let go with `cairn.failure` CLIENT_TOO_SLOW. A failure to follow the turn ends the answer
 * properly too, with its code in `cairn.failure`; the turn goes on in its thread.
 */
import type { SSEStreamingApi } from 'hono/streaming';
import { followTurn, type TurnPorts } from '../follow-turn';
import { ClientError } from '../../client-error';
import type { LiveHub } from '../../live/live-hub';
import { answerOf, followOptions, pendingText, queuedAnswer } from './answer-parts';
import { ChunkSender, CLIENT_TOO_SLOW, type StreamFailure } from './chunk-sender';
import { chunkOf, type CairnExtension, type ChatCompletionChunk } from './completion-objects';
import type { Delivered } from './deliver-message';
import { followQueued, stillPending, withQueued } from './follow-queued';
import { ReplyDeltas } from './reply-deltas';

/** What following a streamed turn needs. */
export interface StreamTurnDeps extends TurnPorts {
  /** Where a streamed task turn's live events come from; without it only status is streamed. */
  live?: LiveHub;
  /** How often the thread and its turn's agent are looked at (ms). */
  pollMs?: number;
  /** How often a streamed answer sends a comment while nothing else goes, so proxies keep it open (ms). */
  heartbeatMs: number;
}

/** What a streamed answer says when following its turn failed for a reason of Cairn's own. */
const INTERNAL_FAILURE: StreamFailure = { code: 'INTERNAL', message: 'internal error' };

/** The longest a settled chat reply waits for its last deltas to arrive from the stream (ms). */
const REPLY_SETTLE_MS = 2_000;

/** Where a message went, as soon as the thread has recorded it; `delivered` once it is routed too. */
export interface Recorded {
  thread: string;
  messageId: string;
  delivered?: Delivered;
}

/** Streams the turn: the ids first, status and live events as they come, the answer, the last chunk, `[DONE]`. */
export async function streamTurn(
  stream: SSEStreamingApi,
  deps: StreamTurnDeps,
  recorded: Recorded,
  delivering: Promise<Delivered>,
  id: string,
): Promise<void> {
  const ids = { thread: recorded.thread, messageId: recorded.messageId };
  let delivered: Delivered = recorded.delivered ?? { ...ids, cairn: ids };
  const stop = new AbortController();
  stream.onAbort(() => stop.abort());
  // One write at a time, in order; a client that went away (or fell too far behind) ends the follow.
  const sender = new ChunkSender(stream, stop);
  const send = (chunk: ChatCompletionChunk | '[DONE]'): Promise<void> => sender.send(chunk);
  /** The last chunk saying why following stopped (the turn goes on in the thread), then `[DONE]`. */
  const endFailed = (failure: StreamFailure): Promise<void> => {
    const content = `\n\nStopped following the turn (${failure.code}); its answer will be in thread ${ids.thread}.`;
    return sender.end(chunkOf(id, { content }, { failure }, true));
  };
  const unfollow: (() => void)[] = [];
  // SSE comments: OpenAI clients skip them; a task turn may think for minutes between chunks.
  const heartbeat = setInterval(() => sender.heartbeat(), deps.heartbeatMs);
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
    if (sender.overflowed) {
      await endFailed(CLIENT_TOO_SLOW);
      return;
    }
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
    if (sender.overflowed) {
      await endFailed(CLIENT_TOO_SLOW);
      return;
    }
    if (stop.signal.aborted) return;
    const pending = await stillPending(deps, ids.thread, delivered.queued ?? [], replies);
    if (pending.length > 0) await send(chunkOf(id, { content: pendingText(ids.thread, pending) }));
    await send(chunkOf(id, {}, withQueued(cairn, replies, last, pending), true));
    await send('[DONE]');
  } catch (err) {
    // The turn goes on in the thread; this answer ends properly, saying why it stopped following.
    const failure = err instanceof ClientError ? { code: err.code, message: err.message } : INTERNAL_FAILURE;
    await endFailed(failure);
    if (!(err instanceof ClientError)) throw err; // logged by the server
  } finally {
    clearInterval(heartbeat);
    reply?.stop();
    for (const stopLive of unfollow.splice(0)) stopLive();
    await sender.drained();
  }
}
