/**
 * One model call as viewers see it: the LLM activity opens it, reports that it started, hands
 * over each chunk's deltas and says how it finished; a publisher (live-publisher.ts) carries
 * that to the agent's live stream. Only calls of agents, their steps and threads are published
 * (an `llmCheckWorkflow` has no agent to watch), and with no publisher nothing is. A thread's
 * calls (`chat`, `route-message`) go to the thread's own stream, `<thread id>/stream`, the
 * thread id playing the agent id, each naming the message it answers (`messageId`); a thread's
 * own bookkeeping (its `title` and `compress` calls) is not published — no view shows it, and a
 * new thread's title would otherwise add signals and stream work to every first message.
 */
import type { Info } from '@temporalio/activity';
import type { LiveDelta } from '../llm/accumulate-chunks';
import type { LlmCallInput, LlmPurpose } from '../../workflows/model/llm/llm-call-schema';
import type { LiveCall, LiveEntry } from '../../workflows/contract/live-messages';
import { AGENT_WORKFLOW_TYPE, STEP_WORKFLOW_TYPE } from '../../workflows/model/agent/agent-contract';
import { THREAD_WORKFLOW_TYPE } from '../../workflows/contract/thread-contract';

/** How a call attempt ended, for viewers. */
export type LiveOutcome = Extract<LiveEntry, { type: 'call.finished' }>['outcome'];

/** One call attempt's line to its viewers. Never throws, never blocks the call for long. */
export interface LiveCallHandle {
  /** The attempt started (once; later calls are ignored); `streaming: false` when no deltas will come. */
  started(streaming: boolean): void;
  /** What a chunk added. */
  deltas(deltas: LiveDelta[]): void;
  /** The attempt ended: sends what is left, waiting a bounded time for it to go out. */
  finished(outcome: LiveOutcome, details?: { finishReason?: string; error?: string }): Promise<void>;
}

/** Opens the line of one call attempt. */
export interface LivePublisher {
  open(call: LiveCall): LiveCallHandle;
}

const SILENT: LiveCallHandle = {
  started: () => undefined,
  deltas: () => undefined,
  finished: () => Promise.resolve(),
};

/** The workflows whose model calls viewers follow: an agent's, and a thread's own. */
const LIVE_WORKFLOW_TYPES: ReadonlySet<string> = new Set([
  AGENT_WORKFLOW_TYPE,
  STEP_WORKFLOW_TYPE,
  THREAD_WORKFLOW_TYPE,
]);

/** A thread's calls its viewers follow: its answers and its routing decisions. */
const THREAD_LIVE_PURPOSES: ReadonlySet<LlmPurpose> = new Set(['chat', 'route-message']);

/**
 * The line of the call this activity attempt makes: its `modelCallId` is the activity
 * (`<workflow id>/<run id>/<activity id>`, the same on every attempt), its `attempt` the activity's.
 */
export function openLiveCall(publisher: LivePublisher | undefined, info: Info, input: LlmCallInput): LiveCallHandle {
  const run = info.workflowExecution;
  if (!publisher || !run || !LIVE_WORKFLOW_TYPES.has(info.workflowType ?? '')) return SILENT;
  if (info.workflowType === THREAD_WORKFLOW_TYPE && !THREAD_LIVE_PURPOSES.has(input.purpose)) return SILENT;
  return publisher.open({
    agentId: input.ownerId, // the delta's public name for the owner
    ...(input.stepId !== undefined ? { stepId: input.stepId } : {}),
    ...(input.messageId !== undefined ? { messageId: input.messageId } : {}),
    modelCallId: `${run.workflowId}/${run.runId}/${info.activityId}`,
    attempt: info.attempt,
    purpose: input.purpose,
  });
}
