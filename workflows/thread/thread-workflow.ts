/**
 * `threadWorkflow` — a conversation: each message is recorded with its sender and routed, chat
 * (one `chat` reply) or task (an `agentWorkflow` child, thread-task.ts); messages arriving while a
 * task turn runs meet their policy (thread-run.ts). Between turns the loop here starts queued
 * messages, continues as new when the history has grown (carrying the turns, thread-carry.ts),
 * and otherwise idles: a durable wait on the next message with the idle timeout as its timer,
 * so an idle thread has no workflow task at all. When the timeout passes with nothing to do, the
 * thread closes and says so.
 */
import {
  allHandlersFinished,
  CancellationScope,
  condition,
  ContinueAsNew,
  getExternalWorkflowHandle,
  isCancellation,
  makeContinueAsNewFunc,
  workflowInfo,
} from '@temporalio/workflow';
import { workflowFailure } from '../contract/failures';
import {
  threadInputSchema,
  type ThreadInput,
  type ThreadResult,
  type ThreadSettings,
} from '../contract/thread-contract';
import { issueLines } from '../base/issue-lines';
import { tellLiveStreamEnded } from '../live/end-live-stream';
import { readThreadCarry, type ThreadCarry } from './thread-carry';
import { ThreadRun } from './thread-run';
import { received, UNENCRYPTED_REFUSAL } from '../runtime/unencrypted-payload';

export async function threadWorkflow(input: ThreadInput, carried?: ThreadCarry): Promise<ThreadResult> {
  // Started by someone without the encryption keys: refused, as an agent is.
  const sent = received(input ?? {});
  if (sent.refused) throw workflowFailure('NOT_ENCRYPTED', `the thread's input: ${UNENCRYPTED_REFUSAL}`);
  const parsed = threadInputSchema.safeParse(sent.value);
  if (!parsed.success)
    throw workflowFailure('INVALID_INPUT', `invalid thread input: ${issueLines(parsed.error, 'input').join('; ')}`);
  const carry = carried === undefined ? undefined : readThreadCarry(carried);
  const run = new ThreadRun(parsed.data, carry).serve();
  // Its live stream (chat replies) ends when the thread closes, not when it continues as new.
  const endStream = () => tellLiveStreamEnded();
  try {
    const result = await loop(run, input, parsed.data);
    await endStream();
    return result;
  } catch (err) {
    if (err instanceof ContinueAsNew) throw err;
    // Cancelled: its running turn is cancelled too, asked before the thread closes (the turn was
    // started with ABANDON, so the thread's close alone would leave it running) — in the same
    // workflow task as the stream's end, so the close waits for no more than before.
    const agentId = run.phase.name === 'turn' ? run.phase.agent.workflowId : undefined;
    const cancelTurn =
      isCancellation(err) && agentId !== undefined
        ? CancellationScope.nonCancellable(() => getExternalWorkflowHandle(agentId).cancel()).catch(() => undefined)
        : undefined;
    await Promise.all([endStream(), cancelTurn]);
    throw err;
  }
}

/**
 * The thread's main loop, one thing at a time: settles a task turn that ended, meets the policy
 * of messages that arrived while a turn runs, names the thread once its first message is routed,
 * routes the queue's next message, and between turns folds old turns, rolls over or idles;
 * returns when the idle timeout closes the thread.
 */
async function loop(run: ThreadRun, input: ThreadInput, settings: ThreadSettings): Promise<ThreadResult> {
  for (;;) {
    run.showDetails();
    if (run.settleTurn() || run.meetArrivals()) continue;
    // After the first answer (the loop routes one message at a time): the reply never waits for the title.
    if (run.memory.titleDue()) {
      await run.memory.name(run.calls());
      continue;
    }
    if (run.phase.name === 'idle' && run.queue.length > 0) {
      await run.startNext();
      continue;
    }
    if (!run.idle()) {
      // A turn runs: wake when it ends or a message arrives.
      await condition(() => run.hasWork());
      continue;
    }
    // Only when due, so a thread that never grows past the threshold records no marker.
    if (run.memory.foldDue()) {
      await run.memory.fold(run.calls());
      continue;
    }
    // Only between turns: a run that has taken no message yet idles, however long its history.
    if (run.tookMessages() && rollOverDue(settings)) {
      // A message that arrives meanwhile waits for the loop: it goes first, the roll-over after.
      await condition(() => allHandlersFinished() || run.queue.length > 0);
      if (run.idle()) return await moveOn(run.memory.title)(input, run.carry());
      continue;
    }
    const woke = await condition(() => !run.idle(), settings.idleTimeoutMs);
    if (!woke && run.idle()) {
      const reason = `idle for ${describeMs(settings.idleTimeoutMs)}`;
      run.close(reason);
      run.showDetails();
      return { status: 'closed', reason };
    }
  }
}

/**
 * Between turns: when the server suggests it, the history has passed the thread's bound, or a
 * newer Worker Deployment version became current (the next run starts on it, as an agent's does).
 * An idle thread learns of a new version only with its next message.
 */
function rollOverDue(settings: ThreadSettings): boolean {
  const info = workflowInfo();
  return (
    info.continueAsNewSuggested ||
    info.targetWorkerDeploymentVersionChanged ||
    info.historyLength >= settings.rollOverEvents
  );
}

/**
 * Continues as new on the version current now, as agents do (agent/agent-workflow.ts); the next
 * run's memo names the title, which the thread list reads (a memo upserted in a run is not handed on).
 */
const moveOn = (title: string | undefined) =>
  makeContinueAsNewFunc<typeof threadWorkflow>({
    initialVersioningBehavior: 'AUTO_UPGRADE',
    ...(title !== undefined ? { memo: { ...workflowInfo().memo, title } } : {}),
  });

/** A duration in words: days, hours, minutes or seconds. */
export function describeMs(ms: number): string {
  const units: [number, string][] = [
    [86_400_000, 'day'],
    [3_600_000, 'hour'],
    [60_000, 'minute'],
    [1_000, 'second'],
  ];
  for (const [size, name] of units)
    if (ms >= size && ms % size === 0) return `${ms / size} ${name}${ms / size === 1 ? '' : 's'}`;
  return `${ms} ms`;
}
