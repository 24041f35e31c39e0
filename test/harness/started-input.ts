/**
 * What a workflow was started with, read from its history's first event (decompressed, decoded
 * with the SDK's payload converter): the input the workflow itself receives, whatever the client
 * that started it did to it before.
 */
import type { Client } from '@temporalio/client';
import { defaultPayloadConverter } from '@temporalio/common';
import { decompressPayload } from '../../temporal/payloads/compression-codec';

/** The first argument workflow `id` was started with. */
export async function startedInput(client: Client, id: string): Promise<unknown> {
  const history = await client.workflow.getHandle(id).fetchHistory();
  const payload = history.events?.[0]?.workflowExecutionStartedEventAttributes?.input?.payloads?.[0];
  if (!payload) throw new Error(`workflow ${id} has no start input`);
  return defaultPayloadConverter.fromPayload(decompressPayload(payload));
}
