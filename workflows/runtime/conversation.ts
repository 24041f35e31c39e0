/**
 * Conversations kept in workflow memory and handed to the LLM activity. A small conversation
 * (the first call of most steps, plans and summaries) travels inline; once it outgrows
 * INLINE_LIMIT_BYTES it is lent by reference — the activity reads it with the `conversation`
 * query — so history records only each call's small input and the new message, and history
 * bytes per ReAct round stay flat however long the loop runs (docs/architecture/conversations-by-reference.md).
 */
import { setHandler, workflowInfo } from '@temporalio/workflow';
import type { ConversationRef, LlmCallInput } from '../model/llm/llm-call-schema';
import type { LlmMessage } from '../model/llm/llm-types';
import { conversationQuery } from '../contract/messages';

/**
 * Up to this many bytes (JSON) a conversation goes inline: cheaper than a query for short
 * conversations, and it bounds what any one call adds to history.
 */
export const INLINE_LIMIT_BYTES = 4 * 1024;

/** The conversations of one workflow, served by the `conversation` query. */
export class Conversations {
  private readonly byKey: Record<string, LlmMessage[]> = {};
  private readonly bytes: Record<string, number> = {};

  /** Registers the query handler; call once at workflow start. */
  serve(): this {
    setHandler(conversationQuery, ({ key, length }) => (this.byKey[key] ?? []).slice(0, length));
    return this;
  }

  /** The messages of `key` (created empty). */
  get(key: string): LlmMessage[] {
    return (this.byKey[key] ??= []);
  }

  /** Appends messages to `key`. */
  append(key: string, ...messages: LlmMessage[]): void {
    this.get(key).push(...messages);
    this.bytes[key] = (this.bytes[key] ?? 0) + messages.reduce((sum, m) => sum + JSON.stringify(m).length, 0);
  }

  /** Replaces the messages of `key` (a view made from another conversation, e.g. one cut to fit a context). */
  set(key: string, messages: LlmMessage[]): void {
    this.byKey[key] = [];
    this.bytes[key] = 0;
    this.append(key, ...messages);
  }

  /** A reference to the current contents of `key`. */
  ref(key: string): ConversationRef {
    const { workflowId, runId } = workflowInfo();
    return { workflowId, runId, key, length: this.get(key).length };
  }

  /** The conversation part of an LLM call's input: inline while small, else by reference. */
  input(key: string): Pick<LlmCallInput, 'messages' | 'conversation'> {
    if ((this.bytes[key] ?? 0) <= INLINE_LIMIT_BYTES) return { messages: [...this.get(key)] };
    return { conversation: this.ref(key) };
  }
}
