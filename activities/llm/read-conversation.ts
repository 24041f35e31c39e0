/**
 * Reads a conversation a workflow lends by reference, through its `conversation` query.
 */
import type { Client } from '@temporalio/client';
import type { LlmCallInput, LlmMessage } from '../../workflows/llm-types';
import { conversationQuery } from '../../workflows/messages';

export function conversationReader(client: Client) {
  return (ref: NonNullable<LlmCallInput['conversation']>): Promise<LlmMessage[]> =>
    client.workflow.getHandle(ref.workflowId, ref.runId).query(conversationQuery, { key: ref.key, length: ref.length });
}
