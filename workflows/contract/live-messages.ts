/**
 * The live stream of an agent (docs/contracts.md#live-output): what model calls publish as they
 * stream, kept by the agent's stream workflow (`<agent id>/stream`, live-stream-workflow.ts) and
 * read by one subscriber per web server. Each message is defined here, its payload's schema in
 * live-schemas.ts (shared by all workflows, see workflows/shared-modules.ts).
 *
 * Publishers (the LLM activity) send batches by the `livePublish` signal, the call's identity
 * once per batch; a subscriber long-polls with the `livePoll` update from an offset, or reads
 * once with the `liveRead` query; the agent (or a web server that finds it ended) sends
 * `liveEnd`. Offsets only grow; items of finished calls are dropped once every subscriber has
 * read them, so an offset below `base` is no longer retained.
 */
import { defineQuery, defineSignal, defineUpdate } from '@temporalio/workflow';
import type {
  LivePage,
  LivePoll,
  LivePublish,
  LiveRead,
  LiveStreamCarry,
  LiveStreamInput,
} from '../model/live/live-schemas';

export * from '../model/live/live-schemas';
export { LIVE_STREAM_WORKFLOW_TYPE, liveEndSignal, liveStreamId } from './live-stream-names';

/** Publisher → stream: a batch of a call's entries (starts the stream by signal-with-start). */
export const livePublishSignal = defineSignal<[LivePublish]>('livePublish');
/** Subscriber → stream: the items from `from` on, once there are any (a long poll). */
export const livePollUpdate = defineUpdate<LivePage, [LivePoll]>('livePoll');
/** The retained items from `from` (default: the oldest), at once. */
export const liveReadQuery = defineQuery<LivePage, [LiveRead?]>('liveRead');

/** The stream workflow's signature (live-stream-workflow.ts), for starting it by name. */
export type AgentStreamWorkflow = (input: LiveStreamInput, carried?: LiveStreamCarry) => Promise<void>;
