/**
 * A thread's model calls: the `route-message` decision (chat or task), with the correction loop
 * of every decision call, and the `chat` reply. Both are recorded as activity results, so a
 * replay routes and answers the same way.
 */
import { llmCall } from '../runtime/activity-proxies';
import type { LlmMessage, ModelSettings, TokenUsage } from '../model/llm/llm-types';
import type { ThreadSettings, Turn } from '../contract/thread-contract';
import type { ThreadBudget } from '../model/thread/thread-budget';
import {
  checkMessageRoute,
  messageRouteCorrection,
  messageRouteRequest,
  type MessageRoute,
} from '../model/thread/message-route';
import { chatMessages } from '../model/thread/thread-context';

/** Bad router replies in a row before the message is answered as chat. */
export const MAX_BAD_ROUTES = 3;

/**
 * What a thread's calls need: its id as their owner (`ownerId`: the `X-Cairn-Agent` header, its live stream), model, where their usage goes,
 * and whether the thread's budget is spent (a call that may be skipped, `compress`, then is).
 */
export interface ThreadCalls {
  ownerId: string;
  model?: ModelSettings;
  /** The bound definition's instructions, put before the chat reply's system prompt. */
  instructions?: string;
  spent: (usage: TokenUsage) => void;
  budgetSpent: () => boolean;
}

/** The calls of thread `ownerId`: its settings' model and bound instructions, its usage counted against `budget`. */
export function threadCalls(ownerId: string, settings: ThreadSettings, budget: ThreadBudget): ThreadCalls {
  const { model, agent } = settings;
  return {
    ownerId,
    ...(model ? { model } : {}),
    ...(agent?.systemPrompt ? { instructions: agent.systemPrompt } : {}),
    spent: (u) => budget.add(u),
    budgetSpent: () => budget.refusal() !== undefined,
  };
}

/**
 * Whether message `messageId` is chat or a task, as the router decides. After three unusable
 * replies it is answered as chat: a reply in words costs little and changes nothing, and the
 * sender can send it again as a `task`.
 */
export async function routeMessage(calls: ThreadCalls, messageId: string, text: string): Promise<MessageRoute> {
  const messages: LlmMessage[] = messageRouteRequest(text);
  for (let strikes = 1; ; strikes++) {
    const reply = await llmCall(`${messageId} · route-message`, {
      purpose: 'route-message',
      ownerId: calls.ownerId,
      messageId,
      messages,
      json: true,
      schema: 'route-message',
      ...(calls.model ? { model: calls.model } : {}),
    });
    calls.spent(reply.usage);
    const checked = checkMessageRoute(reply.content);
    if (checked.ok) return checked.route;
    if (strikes >= MAX_BAD_ROUTES)
      return {
        kind: 'chat',
        reason: `the router gave ${MAX_BAD_ROUTES} unusable replies: ${checked.errors.join('; ')}`,
      };
    messages.push(
      { role: 'assistant', content: reply.content ?? '' },
      { role: 'user', content: messageRouteCorrection(checked.errors) },
    );
  }
}

/** The reply in words to message `messageId`, with the earlier turns as the conversation. */
export async function chatReply(calls: ThreadCalls, messageId: string, text: string, earlier: Turn[]): Promise<string> {
  const reply = await llmCall(`${messageId} · chat`, {
    purpose: 'chat',
    ownerId: calls.ownerId,
    messageId,
    messages: withInstructions(chatMessages(text, earlier), calls.instructions),
    ...(calls.model ? { model: calls.model } : {}),
  });
  calls.spent(reply.usage);
  return reply.content ?? '';
}

/** `messages` with `instructions` before the text of their system message (none: as they are). */
function withInstructions(messages: LlmMessage[], instructions: string | undefined): LlmMessage[] {
  const [first, ...rest] = messages;
  if (!instructions || first?.role !== 'system' || typeof first.content !== 'string') return messages;
  return [{ ...first, content: `${instructions}\n\n${first.content}` }, ...rest];
}
