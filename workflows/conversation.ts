/**
 * Conversations kept in workflow memory and lent to the LLM activity by reference: the
 * activity reads them with the `conversation` query, so history records only each call's
 * small input and the new message — history bytes per ReAct round stay flat (DESIGN §4.13).
 */
import { setHandler, workflowInfo } from '@temporalio/workflow';
import type { LlmMessage } from './llm-types';
import { conversationQuery } from './messages';

/** Points at `length` messages of conversation `key` of a workflow run. */
export interface ConversationRef {
  workflowId: string;
  runId: string;
  key: string;
  length: number;
}

/** The conversations of one workflow, served by the `conversation` query. */
export class Conversations {
  private readonly byKey: Record<string, LlmMessage[]> = {};

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
  }

  /** A reference to the current contents of `key`. */
  ref(key: string): ConversationRef {
    const { workflowId, runId } = workflowInfo();
    return { workflowId, runId, key, length: this.get(key).length };
  }
}
