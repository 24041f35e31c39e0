/**
 * What the front door answers, in OpenAI's shapes: a `chat.completion` (not streamed) or
 * `chat.completion.chunk`s (streamed), each with Cairn's `cairn` extension field — the thread,
 * the message and what became of it, the turn's status and agent, open interactions, live
 * events of the turn's model calls (docs/contracts.md#openai-compatible-front-door).
 */
import type { SendResult } from '../../../workflows/contract/thread-contract';
import type { Interaction } from '../../../workflows/model/interactions/interaction-types';
import type { LiveEvent } from '../../live/live-events';
import { FRONT_DOOR_MODEL } from './chat-request';

/** An open interaction as the extension names it: with the agent that asks. */
export type CairnInteraction = Interaction & { agentId: string };

/** The `cairn` extension field; every key optional on chunks, the ids always on the first. */
export interface CairnExtension {
  thread?: string;
  messageId?: string;
  /** What became of the message; `answer` when it answered the running turn's open question. */
  disposition?: SendResult['disposition'] | 'answer';
  /** The question the message answered (`disposition: answer`). */
  answered?: { agentId: string; interactionId: string };
  kind?: 'chat' | 'task';
  /** The turn's status (the thread query's). */
  status?: string;
  /** A task turn's agent. */
  agentId?: string;
  /** What waits for a person now; an `ask.query` is answered by the next user message. */
  interactions?: CairnInteraction[];
  /** One event of the turn's agent's live stream: `delta`, `call.started`, `call.finished`, `call.superseded`. */
  event?: { type: LiveEvent['type']; offset: number; data: Record<string, unknown> };
  error?: string;
  /**
   * A streamed answer that stopped following its turn (the thread could not be read: its code and
   * message); the turn goes on, and its answer will be in the thread. On the last chunk.
   */
  failure?: { code: string; message: string };
  /** The thread closed before the message was answered (why: idle, cancelled, its workflow's end). */
  threadClosed?: string;
  /**
   * After an answer (`disposition: answer`): the messages that were queued behind the answered
   * turn, followed once it settled (follow-queued.ts), and what became of each.
   */
  queued?: { messageId: string; status: string; kind?: 'chat' | 'task'; agentId?: string; error?: string }[];
}

/** A non-streamed answer. */
export interface ChatCompletion {
  id: string;
  object: 'chat.completion';
  created: number;
  model: typeof FRONT_DOOR_MODEL;
  choices: [
    {
      index: 0;
      message: { role: 'assistant'; content: string; refusal: null };
      finish_reason: 'stop';
      logprobs: null;
    },
  ];
  cairn: CairnExtension;
}

/** One streamed chunk. */
export interface ChatCompletionChunk {
  id: string;
  object: 'chat.completion.chunk';
  created: number;
  model: typeof FRONT_DOOR_MODEL;
  choices: [
    {
      index: 0;
      delta: { role?: 'assistant'; content?: string };
      finish_reason: 'stop' | null;
      logprobs: null;
    },
  ];
  cairn?: CairnExtension;
}

/** The completion id of a message: the same for every chunk of one answer. */
export function completionId(thread: string, messageId: string, at: number): string {
  return `chatcmpl-${thread}-${messageId}-${at.toString(36)}`;
}

/** The non-streamed answer. */
export function completionOf(id: string, content: string, cairn: CairnExtension): ChatCompletion {
  return {
    id,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model: FRONT_DOOR_MODEL,
    choices: [
      { index: 0, message: { role: 'assistant', content, refusal: null }, finish_reason: 'stop', logprobs: null },
    ],
    cairn,
  };
}

/** One chunk: `delta` text (or role), whether it is the last, and the extension when there is one. */
export function chunkOf(
  id: string,
  delta: ChatCompletionChunk['choices'][0]['delta'],
  cairn?: CairnExtension,
  last = false,
): ChatCompletionChunk {
  return {
    id,
    object: 'chat.completion.chunk',
    created: Math.floor(Date.now() / 1000),
    model: FRONT_DOOR_MODEL,
    choices: [{ index: 0, delta, finish_reason: last ? 'stop' : null, logprobs: null }],
    ...(cairn ? { cairn } : {}),
  };
}
