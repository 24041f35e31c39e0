/**
 * Steering (a thread's `steer` policy): a message for the agent's running work. The agent takes
 * the `steer` signal, records `message.steered` on its timeline and hands the message to every
 * running or waiting step, whose model hears it at its next call (step/step-steering.ts). A
 * message that comes while no step runs (the agent plans, waits for its plan check, is paused
 * or replans) is held in the state and handed to the steps that start next, in their input; one
 * that comes once the agent summarises or has ended is on the timeline only — or, when its thread
 * steered it (it names the thread's message), handed back to the thread, which queues it as a
 * next turn (`steerReturned`). A step whose failure
 * waits for a decision has no model to hear it: the message is held for its retry (or the next
 * steps to start).
 * A payload that does not parse changes nothing but the timeline (`signal.rejected`).
 */
import { getExternalWorkflowHandle, log, setHandler } from '@temporalio/workflow';
import { stepWorkflowId } from '../contract/ids';
import {
  steerClosedSignal,
  steerMessageSchema,
  steerReturnedSignal,
  steerSignal,
  type SteerMessage,
} from '../contract/thread-contract';
import { issueLines } from '../issue-lines';
import { isActiveStep } from '../plan/step-transitions';
import { isTerminalPhase } from '../state/agent-phases';
import { received, UNENCRYPTED_REFUSAL } from '../unencrypted-payload';
import { openInteractions, type AgentEvent, type AgentPhase, type AgentState } from './agent-state';

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

/** Registers the `steer` handler of `run`, a turn of thread `threadId` when given. */
export function serveSteering(run: SteeredAgent, threadId: string | undefined): void {
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
      const returned = late && returnToThread(run, message, threadId);
      const what = !late
        ? `with no step running (held for the next steps${waiting})`
        : returned
          ? `after the last step (handed back to the thread as its next message)`
          : 'after the last step (not delivered)';
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
          // The step ended meanwhile: held for the next steps, or handed back when none will start.
          if (message.messageId === undefined) return;
          if (!noStepAhead(run.state)) hold(run, message);
          else if (returnToThread(run, message, threadId))
            run.event({ type: 'message.steered', message: `${who} handed back to the thread (${stepId} had ended)` });
        });
  });
}

/** Hands a message its thread steered back to the thread, which queues it; whether it did. */
function returnToThread(run: SteeredAgent, message: SteerMessage, threadId: string | undefined): boolean {
  if (threadId === undefined || message.messageId === undefined) return false;
  const returned = { agentId: run.agentId, messageId: message.messageId };
  getExternalWorkflowHandle(threadId)
    .signal(steerReturnedSignal, returned)
    .catch((err: unknown) => log.warn('steerReturned signal not delivered', { threadId, error: String(err) }));
  return true;
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

/**
 * Once no step will start (the agent summarises or ends): the held messages are dropped, saying
 * so. A thread's turn that begins its summary tells its thread (`steerClosed`), which then queues
 * a message it would have steered in as its next turn.
 */
export function closeSteering(run: SteeredAgent, phase: AgentPhase, threadId: string | undefined): void {
  const held = run.state.heldSteers ?? [];
  const handedBack = held.filter((message) => returnToThread(run, message, threadId));
  if (handedBack.length > 0) {
    const kept = held.filter((message) => !handedBack.includes(message));
    if (kept.length > 0) run.state.heldSteers = kept;
    else delete run.state.heldSteers;
    sayLetGo(run, handedBack.length, 'handed back to the thread: no step started after them');
  }
  letGo(run, 'not delivered: no step started after them');
  if (phase !== 'summarizing' || threadId === undefined) return;
  getExternalWorkflowHandle(threadId)
    .signal(steerClosedSignal, { agentId: run.agentId })
    .catch((err: unknown) => log.warn('steerClosed signal not delivered', { threadId, error: String(err) }));
}

/** Forgets the held messages, if any, with a timeline event saying where they went. */
function letGo(run: SteeredAgent, where: string): void {
  const held = run.state.heldSteers;
  if (!held?.length) return;
  delete run.state.heldSteers;
  sayLetGo(run, held.length, where);
}

/** The timeline event for `count` held messages that went `where`. */
function sayLetGo(run: SteeredAgent, count: number, where: string): void {
  const what = count === 1 ? 'the held message' : `${count} held messages`;
  run.event({ type: 'message.steered', message: `${what} ${where}` });
}
