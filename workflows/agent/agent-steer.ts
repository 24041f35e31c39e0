/**
 * Steering (a thread's `steer` policy): a message for the agent's running work. The agent takes
 * the `steer` signal, records `message.steered` on its timeline and passes the message on to
 * every running or waiting step, whose model hears it at its next call (step/step-incoming.ts).
 * A message that comes while no step runs (the agent plans, waits for its plan check, is paused
 * or replans) is held in the state and handed to the steps that start next, in their input. A
 * step whose failure waits for a decision has no model to hear it: the message is held for its
 * retry (or the next steps to start). One that comes once the agent summarises or has ended is
 * on the timeline only (not delivered); held messages no step took are dropped then, saying so.
 *
 * Steering runs one way: each step's round report names the messages its model heard (`heard`),
 * kept in the state; a thread's turn passes them on in its result, and the thread queues the
 * ones it steered in that nobody heard as its next turn. Nothing goes back by signal.
 * A payload that does not parse changes nothing but the timeline (`signal.rejected`).
 */
import { getExternalWorkflowHandle, log, setHandler } from '@temporalio/workflow';
import { stepWorkflowId } from '../base/ids';
import { steerMessageSchema, steerSignal, type SteerMessage } from '../contract/thread-contract';
import { issueLines } from '../base/issue-lines';
import { isActiveStep } from '../model/plan/step-transitions';
import { isTerminalPhase } from '../model/state/agent-phases';
import { received, UNENCRYPTED_REFUSAL } from '../runtime/unencrypted-payload';
import { openInteractions, type AgentEvent, type AgentState } from '../model/agent/agent-state';

/** What steering needs of an agent run (not the run itself: agent-run.ts registers this). */
export interface SteeredAgent {
  agentId: string;
  state: AgentState;
  event(event: Omit<AgentEvent, 'seq' | 'at'>): void;
}

/** The most of a steered message the timeline shows. */
const SHOWN_CHARS = 500;

/** The most messages held while no step runs; older ones are dropped. */
const MAX_HELD = 10;

/** The most message ids `heard` keeps, the newest. */
export const MAX_HEARD = 100;

/** Registers the `steer` handler of `run`. */
export function serveSteering(run: SteeredAgent): void {
  setHandler(steerSignal, (raw) => {
    const sent = received(raw);
    const parsed = sent.refused ? undefined : steerMessageSchema.safeParse(sent.value);
    if (!parsed?.success) {
      const why = parsed ? issueLines(parsed.error, 'payload').join('; ') : UNENCRYPTED_REFUSAL;
      run.event({ type: 'signal.rejected', message: `steer signal rejected: ${why}` });
      return;
    }
    const message = parsed.data;
    // A step whose failure waits for a person's decision has no running model to hear it: the
    // message is held for the steps that start next, its retry among them.
    const deciding = new Set(
      openInteractions(run.state).flatMap((i) => (i.kind === 'step.failure' && i.stepId ? [i.stepId] : [])),
    );
    const active = run.state.steps.filter((s) => isActiveStep(s.status)).map((s) => s.id);
    const steps = active.filter((id) => !deciding.has(id));
    const shown = message.text.length > SHOWN_CHARS ? `${message.text.slice(0, SHOWN_CHARS)}…` : message.text;
    const who = message.by ?? 'a message';
    const waiting = deciding.size > 0 ? `; ${[...deciding].join(', ')} waits for a failure decision` : '';
    if (steps.length === 0) {
      const late = noStepAhead(run.state);
      if (!late) hold(run, message);
      const what = late
        ? 'after the last step (not delivered)'
        : `with no step running (held for the next steps${waiting})`;
      run.event({ type: 'message.steered', message: `${who} ${what}: ${shown}` });
      return;
    }
    if (deciding.size > 0) hold(run, message);
    const held = deciding.size > 0 ? ` (and held for the next steps${waiting})` : '';
    run.event({ type: 'message.steered', message: `${who} to ${steps.join(', ')}${held}: ${shown}` });
    for (const stepId of steps)
      getExternalWorkflowHandle(stepWorkflowId(run.agentId, stepId))
        .signal(steerSignal, message)
        .catch((err: unknown) => {
          log.warn('steer signal not delivered', { stepId, error: String(err) });
          // The step ended meanwhile: held for the next steps, when any will start.
          if (!noStepAhead(run.state)) hold(run, message);
        });
  });
}

/** Keeps the ids a step's round report names as heard (`heard`): the newest MAX_HEARD, each once. */
export function noteHeard(state: AgentState, heard: readonly string[] | undefined): void {
  if (!heard?.length) return;
  const known = state.heard ?? [];
  const added = heard.filter((id, i) => !known.includes(id) && heard.indexOf(id) === i);
  if (added.length > 0) state.heard = [...known, ...added].slice(-MAX_HEARD);
}

/** Whether no step will start any more: the agent summarises or has ended (or will, once its hold lifts). */
function noStepAhead(state: AgentState): boolean {
  const phase = state.phase === 'paused' ? (state.hold?.resumePhase ?? state.phase) : state.phase;
  return phase === 'summarizing' || isTerminalPhase(phase);
}

/** Keeps `message` for the steps that start next: the newest MAX_HELD, oldest dropped. */
function hold(run: SteeredAgent, message: SteerMessage): void {
  run.state.heldSteers = [...(run.state.heldSteers ?? []), message].slice(-MAX_HELD);
}

/**
 * Starts steps with the held messages in their input (`start` returns the ids of the steps it
 * started); once one has started, the messages are theirs and are forgotten, saying so.
 */
export function startWithHeldSteers(run: SteeredAgent, start: (steered: SteerMessage[]) => string[]): void {
  const stepIds = start(run.state.heldSteers ?? []);
  if (stepIds.length > 0) letGo(run, `to ${stepIds.join(', ')}`);
}

/** Once no step will start (the agent summarises or ends): the held messages are dropped, saying so. */
export function closeSteering(run: SteeredAgent): void {
  letGo(run, 'not delivered: no step started after them');
}

/** Forgets the held messages, if any, with a timeline event saying where they went. */
function letGo(run: SteeredAgent, where: string): void {
  const held = run.state.heldSteers;
  if (!held?.length) return;
  delete run.state.heldSteers;
  const what = held.length === 1 ? 'the held message' : `${held.length} held messages`;
  run.event({ type: 'message.steered', message: `${what} ${where}` });
}
