/**
 * `agentStreamWorkflow` — an agent's live stream (`<agent id>/stream`): what its model calls say
 * as they stream, for viewers. Never the agent's own workflow: that one receives answers by
 * update, and updates are limited to 10 in flight and 2,000 per run; this one takes the
 * subscribers' long polls instead, one per web server.
 *
 * Started by the first batch a model call publishes (signal-with-start), it keeps the retained
 * log (live-log.ts), answers polls as items arrive, continues as new on its own before its
 * history or its update count grows large, and ends in-band when the agent has ended (the
 * `liveEnd` signal): once every open call has finished, or after a grace period, it appends the
 * `end` item, lingers until every subscriber read it, and completes.
 */
import {
  allHandlersFinished,
  ApplicationFailure,
  condition,
  makeContinueAsNewFunc,
  setHandler,
  sleep,
  workflowInfo,
} from '@temporalio/workflow';
import { isUnencrypted } from '../runtime/unencrypted-payload';
import { workflowTime } from '../base/workflow-time';
import { LiveLog } from '../model/live/live-log';
import {
  LIVE_DRAINING,
  liveEndSignal,
  livePollSchema,
  livePollUpdate,
  livePublishSchema,
  livePublishSignal,
  liveReadQuery,
  liveReadSchema,
  liveStreamCarrySchema,
  type LivePage,
  type LiveStreamCarry,
  type LiveStreamInput,
} from '../contract/live-messages';

/** How long an open call may keep the stream from ending once the agent has ended (ms). */
export const END_GRACE_MS = 30_000;
/** How long the ended stream waits for its subscribers to read the end (ms). */
export const LINGER_MS = 10_000;
/** A waiting poll is answered (empty) at least this often, so a gone subscriber frees its slot (ms). */
export const POLL_RELEASE_MS = 60_000;
/** Polls one run takes before it continues as new (the server allows 2,000 updates a run). */
export const POLLS_PER_RUN = 1_000;
/** History events after which a run continues as new, even before the server suggests it. */
export const EVENTS_PER_RUN = 4_000;

const moveOn = () => makeContinueAsNewFunc<typeof agentStreamWorkflow>({ initialVersioningBehavior: 'AUTO_UPGRADE' });

export async function agentStreamWorkflow(input: LiveStreamInput, carried?: LiveStreamCarry): Promise<void> {
  // A carry this release cannot read starts the stream afresh: live text is not the record.
  const read = carried === undefined ? undefined : liveStreamCarrySchema.safeParse(carried);
  const carry = read?.success ? read.data : undefined;
  const log = new LiveLog(carry);
  let ending = carry?.ending ?? false;
  let draining = false;
  let polls = 0;
  let waiting = 0;
  // One timer answers every waiting poll now and then, rather than one timer per poll.
  let release = 0;

  setHandler(livePublishSignal, (raw: unknown) => {
    if (isUnencrypted(raw)) return; // only a holder of the keys publishes
    const batch = livePublishSchema.safeParse(raw);
    if (batch.success) log.publish(batch.data, workflowTime());
  });
  setHandler(liveEndSignal, () => {
    ending = true;
  });
  setHandler(liveReadQuery, (raw?: unknown) => {
    const read = liveReadSchema.safeParse(raw ?? {});
    return log.page(read.success ? read.data.from : undefined);
  });
  setHandler(
    livePollUpdate,
    async (raw): Promise<LivePage> => {
      const poll = livePollSchema.parse(raw);
      polls += 1;
      log.polled(poll.subscriber, poll.from, workflowTime());
      const since = release;
      const ready = () => draining || log.ended || release !== since || log.nextOffset > poll.from;
      if (!ready()) {
        waiting += 1;
        await condition(ready);
        waiting -= 1;
      }
      const page = log.page(poll.from, draining ? { rollover: true } : {});
      // A subscriber given the end has read it all: the ended stream need not wait for it.
      if (page.ended) log.polled(poll.subscriber, page.next, workflowTime());
      return page;
    },
    {
      validator: (raw) => {
        if (isUnencrypted(raw)) throw ApplicationFailure.create({ type: 'NOT_ENCRYPTED', nonRetryable: true });
        livePollSchema.parse(raw);
        if (draining) {
          throw ApplicationFailure.create({
            type: LIVE_DRAINING,
            message: 'the stream is continuing as new: poll again',
            nonRetryable: true,
          });
        }
      },
    },
  );

  void (async () => {
    for (;;) {
      await condition(() => waiting > 0);
      await sleep(POLL_RELEASE_MS);
      release += 1;
    }
  })();

  const rollOver = () => {
    const info = workflowInfo();
    const pollsPerRun = input.pollsPerRun ?? POLLS_PER_RUN;
    return info.continueAsNewSuggested || info.historyLength >= EVENTS_PER_RUN || polls >= pollsPerRun;
  };
  await condition(() => ending || rollOver());
  if (!ending) {
    draining = true;
    await condition(allHandlersFinished);
    // The agent may have ended while the run drained: the next run ends then. The next run starts
    // on the current build (as an agent's does): a stream lives as long as its agent.
    await moveOn()(input, { ...log.carry(workflowTime()), ending });
  }
  await condition(() => !log.anyOpen, END_GRACE_MS);
  log.end(workflowTime());
  await condition(() => log.allReadToEnd(workflowTime()), LINGER_MS);
  await condition(allHandlersFinished);
}
