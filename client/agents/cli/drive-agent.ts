/**
 * Drives a running agent for `cairn run`: follows its timeline, puts each open interaction (in
 * the order they opened) to an `AnswerSource`, sends the answer by update and asks again when
 * the validator rejects it, until the agent ends. While a question waits, a watcher aborts it if
 * the interaction closes elsewhere (answered from the web page, expired) or the agent ends.
 */
import { CancelledFailure, WorkflowFailedError } from '@temporalio/client';
import type { AgentClient } from '../agent-client';
import { ClientError } from '../../client-error';
import type { AgentEvent, AgentState } from '../../../workflows/model/agent/agent-state';
import { isTerminalPhase, type TerminalPhase } from '../../../workflows/model/state/agent-phases';
import type { AgentResult } from '../../../workflows/model/agent/agent-contract';
import type { Interaction } from '../../../workflows/model/interactions/interaction-types';
import type { TokenUsage } from '../../../workflows/model/llm/llm-types';
import { followTimeline, pause } from '../follow-timeline';
import { InputEndedError, type AnswerRequest, type AnswerSource } from './answer-source';

/** The client calls the driver needs (a fake in tests). */
export type AgentPort = Pick<AgentClient, 'state' | 'answer' | 'result'>;

/** How a run ended; `--json` prints this object. */
export interface RunOutcome {
  id: string;
  status: TerminalPhase;
  answer?: string;
  usage: TokenUsage;
  error?: string;
}

export interface DriveOptions {
  /** Who answers (`by` in the audit record). */
  by?: string;
  /** Poll interval for the state (ms). */
  pollMs?: number;
  /** How often a question being asked is checked for having closed elsewhere (ms). */
  watchMs?: number;
  onEvent: (event: AgentEvent) => void;
  /** Short notices: an answer accepted, an interaction closed elsewhere. */
  onNotice: (message: string) => void;
}

type Ending = { ok: true; result: AgentResult } | { ok: false; error: unknown };

/** Follows agent `id` to its end, answering its interactions from `source`. */
export async function driveAgent(
  client: AgentPort,
  id: string,
  source: AnswerSource,
  options: DriveOptions,
): Promise<RunOutcome> {
  const end: { ending?: Ending } = {};
  const ended = client.result(id).then(
    (result): Ending => (end.ending = { ok: true, result }),
    (error: unknown): Ending => (end.ending = { ok: false, error }),
  );
  const closed = new Set<string>();
  const timeline = followTimeline((afterSeq) => client.state(id, afterSeq), {
    intervalMs: options.pollMs ?? 300,
    ended,
  });
  for await (const state of timeline) {
    for (const event of state.events) options.onEvent(event);
    if (isTerminalPhase(state.phase) || end.ending) return outcome(id, state, await ended);
    const next = state.interactions.find((i) => i.status === 'open' && !closed.has(i.id));
    if (next) closed.add(await settle(client, id, next, source, options));
  }
  // followTimeline stops only after a terminal state or once `ended` has settled: returned above.
  throw new Error(`the timeline of ${id} stopped before the agent ended`);
}

/** The run's outcome from the final state and the workflow's result (or failure). */
function outcome(id: string, state: AgentState, ending: Ending): RunOutcome {
  if (ending.ok) {
    const { status, answer, usage } = ending.result;
    return { id, status, usage, ...(answer !== undefined ? { answer } : {}) };
  }
  const cause = ending.error instanceof WorkflowFailedError ? ending.error.cause : undefined;
  const cancelled = state.phase === 'cancelled' || cause instanceof CancelledFailure;
  const message = state.error ?? cause?.message ?? errorText(ending.error);
  return {
    id,
    status: cancelled ? 'cancelled' : 'failed',
    usage: state.usage,
    ...(cancelled ? {} : { error: message }),
  };
}

const errorText = (err: unknown) => (err instanceof Error ? err.message : String(err));

/**
 * Gets an answer to one interaction accepted, asking again after each rejection. Returns the
 * interaction's id once it is answered or has closed elsewhere.
 */
async function settle(
  client: AgentPort,
  id: string,
  interaction: Interaction,
  source: AnswerSource,
  options: DriveOptions,
): Promise<string> {
  const controller = new AbortController();
  const watching = watchInteraction(client, id, interaction.id, controller, options.watchMs ?? 1000);
  try {
    let rejected: Rejected | undefined;
    for (;;) {
      const request: AnswerRequest = {
        signal: controller.signal,
        ...(rejected ? { rejection: rejected.message } : {}),
        ...(rejected?.field !== undefined ? { rejectedField: rejected.field } : {}),
      };
      const answer = await source.answer(interaction, request);
      if (answer === undefined) throw new InputEndedError(id, interaction);
      const verdict = await send(client, id, interaction, answer, options.by);
      if (verdict.rejected === undefined) {
        options.onNotice(verdict.notice);
        return interaction.id;
      }
      rejected = verdict.rejected;
    }
  } catch (err) {
    if (!controller.signal.aborted) throw err;
    options.onNotice(`${interaction.id} is no longer open (answered elsewhere, expired, or the agent ended)`);
    return interaction.id;
  } finally {
    controller.abort();
    await watching;
  }
}

/** A rejected answer: the validator's message and the field it named. */
interface Rejected {
  message: string;
  field?: string;
}

/** Sends one answer by update: accepted, closed meanwhile, or rejected with the validator's message and field. */
async function send(
  client: AgentPort,
  id: string,
  interaction: Interaction,
  answer: unknown,
  by: string | undefined,
): Promise<{ rejected?: Rejected; notice: string }> {
  try {
    await client.answer(id, { interactionId: interaction.id, answer, ...(by ? { by } : {}) });
    return { notice: `${interaction.id} answered` };
  } catch (err) {
    if (!(err instanceof ClientError)) throw err;
    if (err.code === 'INVALID_ANSWER') {
      return {
        rejected: { message: err.message, ...(err.field !== undefined ? { field: err.field } : {}) },
        notice: '',
      };
    }
    if (err.code === 'NOT_OPEN') return { notice: `${interaction.id} is no longer open: ${err.message}` };
    throw err;
  }
}

/** Aborts `controller` when the interaction is no longer open or the agent has ended. */
async function watchInteraction(
  client: AgentPort,
  id: string,
  interactionId: string,
  controller: AbortController,
  everyMs: number,
): Promise<void> {
  // pause() leaves no listener behind: a question may wait for hours, one look a second.
  while (await pause(everyMs, controller.signal)) {
    try {
      const state = await client.state(id, Number.MAX_SAFE_INTEGER);
      const interaction = state.interactions.find((i) => i.id === interactionId);
      if (isTerminalPhase(state.phase) || interaction?.status !== 'open') controller.abort();
    } catch {
      // A failed look is no reason to interrupt the person; the next one may succeed.
    }
  }
}
