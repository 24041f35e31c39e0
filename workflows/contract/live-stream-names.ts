/**
 * The names of an agent's live stream that code outside the stream itself needs: its workflow
 * type and id, and the signal that ends it. Kept apart from the payload schemas
 * (live-messages.ts) so the agent's run, which only ends its stream, builds none of them.
 */
import { defineSignal } from '@temporalio/workflow';

/** The workflow type of an agent's live stream (contract). */
export const LIVE_STREAM_WORKFLOW_TYPE = 'agentStreamWorkflow';

/** The workflow id of agent `agentId`'s live stream (contract). */
export function liveStreamId(agentId: string): string {
  return `${agentId}/stream`;
}

/** Agent (or a web server that found it ended) → stream: the agent has ended. */
export const liveEndSignal = defineSignal<[]>('liveEnd');
