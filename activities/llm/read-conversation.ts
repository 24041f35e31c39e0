/**
 * Reads a conversation a workflow lends by reference, through its `conversation` query. Reads
 * follow the activity's cancellation, and the reader can wait for reads in flight, so a worker
 * that shuts down never closes the connection under a query still being retried.
 */
import { Context } from '@temporalio/activity';
import type { Client } from '@temporalio/client';
import type { ConversationRef } from '../../workflows/model/llm/llm-call-schema';
import type { LlmMessage } from '../../workflows/model/llm/llm-types';
import { conversationQuery } from '../../workflows/contract/messages';

export interface ConversationReader {
  read: (ref: ConversationRef) => Promise<LlmMessage[]>;
  /** Resolves once no read is in flight (or after `timeoutMs`). */
  drain: (timeoutMs?: number) => Promise<void>;
}

export function conversationReader(client: Client): ConversationReader {
  const inFlight = new Set<Promise<unknown>>();
  return {
    read(ref) {
      const query = () =>
        client.workflow
          .getHandle(ref.workflowId, ref.runId)
          .query(conversationQuery, { key: ref.key, length: ref.length });
      const read = client.connection.withAbortSignal(Context.current().cancellationSignal, query);
      inFlight.add(read);
      void read.catch(() => undefined).finally(() => inFlight.delete(read));
      return read;
    },
    async drain(timeoutMs = 5_000) {
      const timeout = new Promise((resolve) => setTimeout(resolve, timeoutMs).unref());
      await Promise.race([Promise.allSettled([...inFlight]), timeout]);
    },
  };
}
