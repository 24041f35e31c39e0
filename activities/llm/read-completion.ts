/**
 * Reads a chat completion the way real servers send it, not only the way OpenAI does: reasoning
 * (`<think>…</think>` in the content, or a separate `reasoning_content`) is kept out of the
 * content the workflow parses; tool arguments sent as a JSON object instead of a string are
 * accepted; a missing `usage` is estimated (4 characters a token) and flagged as estimated.
 */
import type { ChatCompletion } from 'openai/resources/chat/completions';
import type { LlmToolCall, TokenUsage } from '../../workflows/model/llm/llm-types';
import { cutMiddle, REASONING_CHARS } from '../../workflows/contract/transcript-bounds';

/** Characters per token when the endpoint reports no usage: a rough but common estimate. */
const CHARS_PER_TOKEN = 4;

/** A `<think>` block, closed, or left open because the reply was cut inside it. */
const THINK_BLOCK = /<think>[\s\S]*?(<\/think>|$)/gi;

/** The content without reasoning blocks; null when nothing else is left. */
export function stripReasoning(content: string | null | undefined): string | null {
  if (content === null || content === undefined) return null;
  // A reply whose template opened the block in the prompt starts with the bare closing tag.
  const closedOnly = /^[\s\S]*?<\/think>/i;
  let text = content.replace(THINK_BLOCK, '');
  if (!/<think>/i.test(content) && closedOnly.test(text)) text = text.replace(closedOnly, '');
  text = text.trim();
  return text === '' ? null : text;
}

/**
 * A summary of a message's reasoning for a step's transcript — its `reasoning_content` (or
 * `reasoning`), else its `<think>` blocks — cut to its first and last characters; undefined
 * when it has none.
 */
export function readReasoning(message: ChatCompletion.Choice['message']): string | undefined {
  const loose = message as { reasoning_content?: unknown; reasoning?: unknown };
  const field = typeof loose.reasoning_content === 'string' ? loose.reasoning_content : loose.reasoning;
  let text = typeof field === 'string' ? field : '';
  if (text.trim() === '' && message.content) {
    const blocks = [...message.content.matchAll(THINK_BLOCK)].map((m) => m[0].replace(/<\/?think>/gi, ''));
    text = blocks.join('\n');
  }
  text = text.trim();
  return text === '' ? undefined : cutMiddle(text, REASONING_CHARS);
}

/** The tool calls of a message, with object arguments turned into JSON text. */
export function readToolCalls(message: ChatCompletion.Choice['message']): LlmToolCall[] {
  return (message.tool_calls ?? []).flatMap((call) => {
    if (call.type !== 'function') return [];
    const raw: unknown = call.function.arguments;
    const args = typeof raw === 'string' ? raw : raw === undefined || raw === null ? '{}' : JSON.stringify(raw);
    return [{ id: call.id, name: call.function.name, arguments: args }];
  });
}

/**
 * The usage of a completion; estimated from the request and reply sizes (and flagged) when the
 * endpoint reports none.
 */
export function readUsage(completion: ChatCompletion, requestText: string, replyText: string): TokenUsage {
  const reported = completion.usage;
  if (reported && typeof reported.prompt_tokens === 'number' && typeof reported.completion_tokens === 'number') {
    const cached = reported.prompt_tokens_details?.cached_tokens;
    return {
      promptTokens: reported.prompt_tokens,
      completionTokens: reported.completion_tokens,
      totalTokens: reported.total_tokens ?? reported.prompt_tokens + reported.completion_tokens,
      ...(cached ? { cachedPromptTokens: cached } : {}),
    };
  }
  const promptTokens = Math.ceil(requestText.length / CHARS_PER_TOKEN);
  const completionTokens = Math.ceil(replyText.length / CHARS_PER_TOKEN);
  return { promptTokens, completionTokens, totalTokens: promptTokens + completionTokens, estimated: true };
}
