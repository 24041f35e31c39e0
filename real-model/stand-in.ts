/**
 * The suite's stand-in for the person at the other end: follows one agent through Cairn's
 * client library and answers whatever it asks — a name for questions, the first option of a
 * choice, defaults for forms, "confirm" for the plan check, "approve" (with the digest shown)
 * for approvals, "skip" for a failed step, "stop" for budgets and deadlines — until the agent
 * ends or its time is up (then it is cancelled). It keeps every approval it was shown, so the
 * checks can tell whether the same digest was put to it twice.
 */
import { WorkflowFailedError } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import type { AgentClient } from '../client/agents/agent-client';
import type { AgentState } from '../workflows/model/agent/agent-state';
import { isTerminalPhase } from '../workflows/model/state/agent-phases';
import type { FormField, Interaction } from '../workflows/model/interactions/interaction-types';

/** An approval the stand-in was asked for. */
export interface ApprovalSeen {
  interactionId: string;
  stepId?: string;
  tool: string;
  digest: string;
}

/** How one agent ended, as the stand-in saw it. */
export interface AgentRun {
  id: string;
  /** The final phase, or `timed out` when the stand-in had to cancel it. */
  outcome: string;
  /** The failure's code (its ApplicationFailure type), for a failed agent. */
  code?: string;
  /** The failure's message, for a failed agent. */
  message?: string;
  state?: AgentState;
  approvals: ApprovalSeen[];
  /** Interactions answered, by kind. */
  answered: Record<string, number>;
  /** Answers the agent refused (the stand-in then leaves that interaction alone). */
  refused: string[];
  wallMs: number;
}

const POLL_MS = 1_000;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function formValue(field: FormField): unknown {
  if (field.default !== undefined) return field.default;
  switch (field.type) {
    case 'number':
      return field.min ?? 1;
    case 'boolean':
      return true;
    case 'select':
      return field.options?.[0] ?? '';
    case 'multiselect':
      return field.options?.slice(0, 1) ?? [];
    case 'date':
      return '2026-01-05';
    default:
      return 'Sam';
  }
}

/** The answer the stand-in gives to `interaction`. */
export function answerFor(interaction: Interaction): unknown {
  switch (interaction.kind) {
    case 'ask.query':
      return { text: 'Their name is Sam. Keep it short.' };
    case 'ask.select':
      return { values: interaction.options.slice(0, 1) };
    case 'ask.form':
      return { values: Object.fromEntries(interaction.fields.map((f) => [f.key, formValue(f)])) };
    case 'plan.check':
      return { decision: 'confirm' };
    case 'tool.approval':
      return { decision: 'approve', digest: interaction.digest };
    case 'step.failure':
      return { decision: 'skip' };
    case 'budget':
    case 'deadline':
      return { decision: 'stop' };
  }
}

/** The code and message of an agent's failure, read from its workflow result. */
async function failureOf(agents: AgentClient, id: string): Promise<{ code?: string; message?: string }> {
  try {
    await agents.result(id);
    return {};
  } catch (err) {
    const cause = err instanceof WorkflowFailedError ? err.cause : err;
    if (cause instanceof ApplicationFailure)
      return { ...(cause.type ? { code: cause.type } : {}), message: cause.message };
    return { message: err instanceof Error ? err.message : String(err) };
  }
}

/** Follows agent `id` until it ends or `deadlineMs` passes, answering as it goes. */
export async function standIn(agents: AgentClient, id: string, deadlineMs: number): Promise<AgentRun> {
  const started = performance.now();
  const run: AgentRun = { id, outcome: 'timed out', approvals: [], answered: {}, refused: [], wallMs: 0 };
  const handled = new Set<string>();
  let unread: string | undefined;
  while (performance.now() - started < deadlineMs) {
    // A query can time out while the worker is busy: ask again on the next round (and say why
    // in the report if the state was never read).
    const state = await agents.state(id).catch((err: unknown) => {
      unread = err instanceof Error ? err.message : String(err);
      return undefined;
    });
    if (!state) {
      await pause(POLL_MS);
      continue;
    }
    run.state = state;
    if (isTerminalPhase(state.phase)) {
      run.outcome = state.phase;
      if (state.phase === 'failed') Object.assign(run, await failureOf(agents, id));
      run.wallMs = performance.now() - started;
      return run;
    }
    for (const interaction of state.interactions) {
      if (interaction.status !== 'open' || handled.has(interaction.id)) continue;
      handled.add(interaction.id);
      if (interaction.kind === 'tool.approval') {
        const { id: interactionId, stepId, tool, digest } = interaction;
        run.approvals.push({ interactionId, ...(stepId !== undefined ? { stepId } : {}), tool, digest });
      }
      try {
        await agents.answer(id, {
          interactionId: interaction.id,
          answer: answerFor(interaction),
          by: 'real-model-suite',
        });
        run.answered[interaction.kind] = (run.answered[interaction.kind] ?? 0) + 1;
      } catch (err) {
        run.refused.push(`${interaction.kind} ${interaction.id}: ${err instanceof Error ? err.message : String(err)}`);
      }
    }
    await pause(POLL_MS);
  }
  await agents.cancel(id).catch(() => undefined);
  run.wallMs = performance.now() - started;
  if (!run.state && unread) run.message = `its state was never read: ${unread}`;
  return run;
}
