/**
 * The payloads of an agent's live stream (live-messages.ts defines its messages): zod schemas
 * and their types only, so that workflows share one copy of them (workflows/shared-modules.ts)
 * instead of building them again for every stream they start or bring back into their cache.
 */
import { z } from 'zod';

const text = z.string().max(1_000_000);
const at = z.number();

/** Which model call an item belongs to: one attempt of one call activity. */
export const liveCallSchema = z.object({
  agentId: z.string().max(1000),
  stepId: z.string().max(200).optional(),
  /** A thread's calls (`agentId` is then the thread's id): the message they route or answer. */
  messageId: z.string().max(200).optional(),
  /** The model call's activity: `<workflow id>/<run id>/<activity id>`. */
  modelCallId: z.string().max(2000),
  /** The activity's attempt (1, 2, …): a retried call is a new attempt. */
  attempt: z.number().int().positive(),
  /** Why the call was made (`plan`, `step`, `summary`, …). */
  purpose: z.string().max(50),
});
export type LiveCall = z.infer<typeof liveCallSchema>;

/** What one call published, without its identity (the batch carries it once). */
export const liveEntrySchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('delta'),
    channel: z.enum(['text', 'reasoning', 'tool']),
    text,
    /** On `tool` deltas: the tool call being formed. */
    toolCallId: z.string().max(500).optional(),
    /** On a tool call's first delta: the tool's name. */
    toolName: z.string().max(500).optional(),
  }),
  /** `streaming: false`: the endpoint cannot stream, so no deltas will come. */
  z.object({ type: z.literal('call.started'), streaming: z.boolean(), at }),
  z.object({
    type: z.literal('call.finished'),
    /** `abandoned`: the stream ended while the call was still open (its worker died, say). */
    outcome: z.enum(['completed', 'failed', 'cancelled', 'abandoned']),
    finishReason: z.string().max(50).optional(),
    /** The error code of a failed attempt. */
    error: z.string().max(100).optional(),
    at,
  }),
  /** The attempt before `by` is superseded by it: viewers drop that attempt's text. */
  z.object({ type: z.literal('call.superseded'), by: z.number().int().positive(), at }),
]);
export type LiveEntry = z.infer<typeof liveEntrySchema>;

/** The `livePublish` signal's payload: one publisher's batch, deduplicated by `seq`. */
export const livePublishSchema = z.object({
  /** One attempt of one call: `<modelCallId>#<attempt>`. */
  publisher: z.string().max(2100),
  /** 1, 2, … per publisher: a batch at or below the last seen is a duplicate. */
  seq: z.number().int().positive(),
  call: liveCallSchema,
  entries: z.array(liveEntrySchema).max(10_000),
});
export type LivePublish = z.infer<typeof livePublishSchema>;

const offset = z.number().int().nonnegative();

/**
 * One item of the stream as stored and read, at its offset: an entry of the call `key` names
 * (in a page's `calls`), or — without a key — the stream's in-band end.
 */
export const liveItemSchema = z.object({
  offset,
  key: z.string().max(2100).optional(),
  entry: z.union([liveEntrySchema, z.object({ type: z.literal('end') })]),
});
export type LiveItem = z.infer<typeof liveItemSchema>;

/** What a read or a poll returns: retained items from an offset, and the calls they belong to. */
export const livePageSchema = z.object({
  items: z.array(liveItemSchema),
  /** The identity of each call named by an item's `key`. */
  calls: z.record(z.string(), liveCallSchema),
  /** The oldest offset still retained. */
  base: offset,
  /** The offset the next item will get. */
  next: offset,
  /** The stream has ended (its `end` item is in `items`, or was before). */
  ended: z.boolean(),
  /** The offset asked for was no longer retained: the items start at `base`. */
  truncated: z.boolean(),
  /** The stream is about to continue as new: poll again (the next run answers). */
  rollover: z.boolean().optional(),
});
export type LivePage = z.infer<typeof livePageSchema>;

/** The stream workflow's input: whose stream it is (and, for tests, how soon it rolls over). */
export const liveStreamInputSchema = z.object({
  agentId: z.string().max(1000),
  /** Polls a run takes before it continues as new; POLLS_PER_RUN when absent (tests set fewer). */
  pollsPerRun: z.number().int().positive().optional(),
});
export type LiveStreamInput = z.infer<typeof liveStreamInputSchema>;

/** What a run of the stream hands the next across continue-as-new. */
export const liveStreamCarrySchema = z.object({
  version: z.literal(1),
  items: z.array(liveItemSchema),
  base: offset,
  next: offset,
  /** Each call with retained items: its identity, its first retained offset, whether it is open. */
  calls: z.record(
    z.string(),
    z.object({
      call: liveCallSchema,
      first: offset,
      open: z.boolean(),
      /** When it finished (workflow time): kept a while for a viewer not yet subscribed. */
      closedAt: z.number().optional(),
    }),
  ),
  /** The last batch seen of each open call's publisher. */
  publishers: z.record(z.string(), z.number().int().nonnegative()),
  /** Each subscriber seen lately: what it has read up to, and when (workflow time). */
  subscribers: z.record(z.string(), z.object({ from: offset, at: z.number() })),
  ended: z.boolean(),
  /** The agent had ended when the run rolled over: the next run ends the stream. */
  ending: z.boolean().optional(),
});
export type LiveStreamCarry = z.infer<typeof liveStreamCarrySchema>;

/** The `livePoll` update's argument. */
export const livePollSchema = z.object({
  /** Who polls (one per web server): the stream keeps what it has not read yet. */
  subscriber: z.string().min(1).max(200),
  /** The first offset wanted. */
  from: z.number().int().nonnegative(),
});
export type LivePoll = z.infer<typeof livePollSchema>;

/** The `liveRead` query's argument. */
export const liveReadSchema = z.object({ from: z.number().int().nonnegative().optional() });
export type LiveRead = z.infer<typeof liveReadSchema>;

/** The failure type of a poll refused while the stream continues as new: poll again shortly. */
export const LIVE_DRAINING = 'LIVE_STREAM_DRAINING';
