/**
 * The OpenAI-compatible front door's request (docs/contracts.md#openai-compatible-front-door):
 * the Chat Completions body as far as Cairn reads it — `model` (an agent definition), `messages`, `stream` —
 * other parameters are accepted and ignored, as OpenAI-compatible clients send many. What it
 * means for a thread is pure: the last user message is the new message; in a new thread the
 * messages before it are its context, put after the message as text (a thread starts with no
 * turns, and `send` takes only text: docs/contracts.md#threads).
 */
import { z } from '@hono/zod-openapi';
import { MAX_MESSAGE_CHARS } from '../../../workflows/contract/thread-contract';

/** The built-in default definition's model name (the door's models are the agent definitions: GET /v1/models). */
export const FRONT_DOOR_MODEL = 'cairn';

/** The header naming the thread, in the request (continue it) and the response (which one it was). */
export const THREAD_HEADER = 'X-Cairn-Thread';

/** The most characters of earlier messages a new thread's first message carries as context. */
export const MAX_CONTEXT_CHARS = 12_000;

/** A content part: text parts are read, any other kind (images, audio) is refused by `textOf`. */
const contentPart = z.looseObject({ type: z.string(), text: z.string().optional() });

/** One message as OpenAI clients send it; content a string or text parts. */
const chatMessage = z.looseObject({
  role: z.enum(['system', 'developer', 'user', 'assistant', 'tool', 'function']),
  content: z
    .union([z.string(), z.array(contentPart)])
    .nullable()
    .optional(),
});
/** One message of the request. */
export type ChatMessage = z.infer<typeof chatMessage>;

/** Cairn's optional extension of the body: how the message is routed and what it meets mid-turn. */
const cairnOptions = z.object({
  kind: z.enum(['chat', 'task']).optional(),
  policy: z.enum(['steer', 'queue', 'reject']).optional(),
});

/** The body Cairn reads; `model` names an agent definition (`cairn`: the built-in default). */
export const chatCompletionBodySchema = z
  .looseObject({
    model: z.string().min(1).max(200),
    messages: z.array(chatMessage).min(1, 'at least one message'),
    stream: z.boolean().optional(),
    cairn: cairnOptions.optional(),
  })
  .openapi('ChatCompletionRequest');
/** The body Cairn reads. */
export type ChatCompletionBody = z.infer<typeof chatCompletionBodySchema>;

/** A message's text: its string, or its text parts joined; undefined when it has a part that is not text. */
export function textOf(message: ChatMessage): string | undefined {
  const { content } = message;
  if (content === undefined || content === null) return '';
  if (typeof content === 'string') return content;
  if (content.some((part) => part.type !== 'text')) return undefined;
  return content.map((part) => part.text ?? '').join('');
}

/** What the request means for the thread: the new message's text, and the earlier messages as context. */
export interface ChatTurnRequest {
  /** The last user message. */
  text: string;
  /** The messages before it, as lines (`role: text`), newest kept when over MAX_CONTEXT_CHARS. */
  context: string[];
}

/** The new message and its context; a string saying why when there is no user message or a part is not text. */
export function turnRequestOf(messages: readonly ChatMessage[]): ChatTurnRequest | { refused: string; field: string } {
  const last = messages.map((m) => m.role).lastIndexOf('user');
  const message = messages[last];
  if (!message) return { refused: 'no user message: the last user message is what Cairn answers', field: 'messages' };
  const text = textOf(message);
  if (text === undefined)
    return { refused: 'only text content is read (no images or audio)', field: `messages.${last}.content` };
  const lines: string[] = [];
  for (const [i, earlier] of messages.slice(0, last).entries()) {
    const said = textOf(earlier);
    if (said === undefined)
      return { refused: 'only text content is read (no images or audio)', field: `messages.${i}.content` };
    if (said.trim() !== '') lines.push(`${earlier.role}: ${said}`);
  }
  return { text, context: newestFitting(lines, MAX_CONTEXT_CHARS) };
}

/** The newest lines whose total length fits `budget`, oldest first. */
function newestFitting(lines: string[], budget: number): string[] {
  const kept: string[] = [];
  let used = 0;
  for (let i = lines.length - 1; i >= 0; i--) {
    const line = lines[i] ?? '';
    if (used + line.length > budget) break;
    kept.unshift(line);
    used += line.length;
  }
  return kept;
}

const CONTEXT_HEADER = 'Earlier in this conversation (for context; answer the message above):';

/**
 * A new thread's first message: the text, then the earlier messages as context (the thread's
 * turns start empty, so they travel in the message; the agent of a task turn reads them too) —
 * the newest that fit beside the text in a thread's longest message.
 */
export function firstMessageText({ text, context }: ChatTurnRequest): string {
  const kept = [...context];
  for (;;) {
    const whole = kept.length === 0 ? text : [text, '', CONTEXT_HEADER, ...kept].join('\n');
    if (kept.length === 0 || whole.trim().length <= MAX_MESSAGE_CHARS) return whole;
    kept.shift();
  }
}
