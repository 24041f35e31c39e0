/**
 * A task turn: an `agentWorkflow` child with id `<thread id>/turn-<n>`, its task the message
 * followed by the earlier turns (thread-context.ts), under the sender's principal; and what its
 * end means for the turn (pure).
 *
 * The child is started with ParentClosePolicy ABANDON: a turn is a whole agent, listed and
 * controlled like any other (answers, pause, cancel), so a thread closing abnormally (terminated,
 * reset, failed by a bug) must not kill work someone may be approving. A thread never closes
 * normally or continues as new while a turn runs, and a cancelled thread cancels its running
 * turn: it asks for the agent's cancellation before it closes (thread-workflow.ts), as the close alone would not.
 */
import { ChildWorkflowFailure, ParentClosePolicy, startChild, type ChildWorkflowHandle } from '@temporalio/workflow';
import { ApplicationFailure, CancelledFailure } from '@temporalio/common';
import { AGENT_WORKFLOW_TYPE, type AgentResult } from '../model/agent/agent-contract';
import type { AgentInput } from '../model/agent/agent-input';
import type { ThreadAgent } from '../model/agent/definition-snapshot';
import { AgentAwaitingInputKey, AgentPhaseKey } from '../contract/search-attributes';
import { threadTurnWorkflowId, type SendInput, type Turn } from '../contract/thread-contract';
import { spentDetail } from '../contract/failures';
import { describeFailure } from '../runtime/describe-failure';
import { principalOf, type Principal } from '../model/principal';
import type { ThreadBudget } from '../model/thread/thread-budget';
import { earlierApprovals, reusableSteps, turnTask } from '../model/thread/thread-context';

/**
 * A message's limits under its thread's definition: each the lower of the two where both set it
 * (a message may only lower a definition's limits), else whichever is set.
 */
export function boundLimits(
  agent: ThreadAgent | undefined,
  sent: Record<string, unknown> | undefined,
): Record<string, unknown> | undefined {
  if (!agent?.limits) return sent;
  const own = agent.limits;
  const merged: Record<string, unknown> = { ...own, ...sent };
  for (const [key, value] of Object.entries(sent ?? {})) {
    const bound = own[key];
    if (typeof bound === 'number' && typeof value === 'number') merged[key] = Math.min(bound, value);
  }
  return merged;
}

/** What a thread's definition gives every task turn's agent (none without one). */
function boundFields(agent: ThreadAgent | undefined): Partial<AgentInput> {
  if (!agent) return {};
  return {
    ...(agent.systemPrompt !== undefined ? { systemPrompt: agent.systemPrompt } : {}),
    ...(agent.tools ? { tools: agent.tools } : {}),
    ...(agent.model ? { model: agent.model } : {}),
    ...(agent.modelStages ? { modelStages: agent.modelStages } : {}),
    ...(agent.prompts ? { prompts: agent.prompts } : {}),
    definition: agent.definition,
  };
}

/** The agent input of message `n` run as a task; `agent`, the thread's definition, fills its defaults. */
export function turnInput(
  threadId: string,
  n: number,
  sent: SendInput,
  earlier: Turn[],
  principal?: Principal,
  agent?: ThreadAgent,
): AgentInput {
  const reusable = reusableSteps(earlier);
  const approvals = earlierApprovals(earlier, principal);
  const context = { ...(reusable.length ? { reusable } : {}), ...(approvals.length ? { approvals } : {}) };
  const files = [...(agent?.files ?? []), ...(sent.files ?? [])];
  const mode = sent.mode ?? agent?.mode;
  return {
    ...boundFields(agent),
    task: turnTask(sent.text, earlier),
    ...(files.length > 0 ? { files } : {}),
    ...(mode ? { mode } : {}),
    ...(sent.limits ? { limits: sent.limits } : {}),
    ...(principal ? { principal } : {}),
    thread: { id: threadId, turn: n },
    ...(reusable.length || approvals.length ? { context } : {}),
  };
}

/** The principal a task turn runs under: its sender as the HTTP API signed them in, else the thread's. */
export function senderPrincipal(sent: SendInput, opener?: Principal): Principal | undefined {
  // Without a sender the opener's principal judges its calls, but its questions are asked of
  // nobody (no sign-in kept): the opener did not write this message's task.
  return sent.actor ? principalOf(sent.actor) : opener && { id: opener.id, roles: [...opener.roles] };
}

/** A running turn's agent. */
export type TurnAgent = ChildWorkflowHandle<(input: AgentInput) => Promise<AgentResult>>;

/** Starts the agent of message `n`; resolves once it has started. */
export function startTurn(threadId: string, n: number, sent: SendInput, input: AgentInput): Promise<TurnAgent> {
  return startChild<(input: AgentInput) => Promise<AgentResult>>(AGENT_WORKFLOW_TYPE, {
    workflowId: threadTurnWorkflowId(threadId, n),
    args: [input],
    parentClosePolicy: ParentClosePolicy.ABANDON,
    staticSummary: `turn ${n} of ${threadId}: ${sent.text.slice(0, 120)}`,
    // As the client starts agents: the list reads the task from the memo, the phase from visibility.
    memo: { task: sent.text.slice(0, 500), thread: threadId },
    typedSearchAttributes: [
      { key: AgentPhaseKey, value: input.mode?.plan === false ? 'executing' : 'planning' },
      { key: AgentAwaitingInputKey, value: false },
    ],
  });
}

/** What a task turn's end records: its status, the answer as the reply, its steps, or its error. */
export type TurnEnd = Pick<Turn, 'status' | 'reply' | 'steps' | 'error' | 'approvals'>;

/** A finished agent's result as its turn's end. */
export function endOfResult(result: AgentResult): TurnEnd {
  return {
    status: result.status,
    ...(result.answer !== undefined ? { reply: result.answer } : {}),
    ...(result.steps ? { steps: result.steps } : {}),
    ...(result.approvals ? { approvals: result.approvals } : {}),
  };
}

/**
 * A turn's agent that threw: cancelled, or failed with its error. What a failed agent spent
 * (its failure's `{ usage }` detail) is counted on `budget` first: a failed turn spends the thread's budget too.
 */
export function endOfFailure(err: unknown, budget?: Pick<ThreadBudget, 'add'>): TurnEnd {
  const cause = err instanceof ChildWorkflowFailure ? err.cause : err;
  if (cause instanceof CancelledFailure) return { status: 'cancelled' };
  const spent = cause instanceof ApplicationFailure ? spentDetail(cause) : undefined;
  if (spent) budget?.add(spent);
  return { status: 'failed', error: describeFailure(cause ?? err).message };
}
