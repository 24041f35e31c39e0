/**
 * Steering (a thread's `steer` policy): a message for the agent's running work. The agent takes
 * the `steer` signal, records `message.steered` on its timeline and hands the message to every
 * running or waiting step, whose model hears it at its next call (step/step-steering.ts). A
 * message that comes while no step runs (planning, summarising) is on the timeline only.
 * A payload that does not parse changes nothing but the timeline (`signal.rejected`).
 */
import { getExternalWorkflowHandle, log, setHandler } from '@temporalio/workflow';
import { stepWorkflowId } from '../contract/ids';
import { steerMessageSchema, steerSignal } from '../contract/thread-contract';
import { issueLines } from '../issue-lines';
import { isActiveStep } from '../plan/step-transitions';
import { received, UNENCRYPTED_REFUSAL } from '../unencrypted-payload';
import type { AgentEvent, AgentState } from './agent-state';

/** What steering needs of an agent run (not the run itself: agent-run.ts registers this). */
export interface SteeredAgent {
  agentId: string;
  state: AgentState;
  event(event: Omit<AgentEvent, 'seq' | 'at'>): void;
}

/** The most of a steered message the timeline shows. */
const SHOWN_CHARS = 500;

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
    const steps = run.state.steps.filter((s) => isActiveStep(s.status)).map((s) => s.id);
    const to = steps.length > 0 ? `to ${steps.join(', ')}` : 'with no step running (not delivered)';
    const shown = message.text.length > SHOWN_CHARS ? `${message.text.slice(0, SHOWN_CHARS)}…` : message.text;
    run.event({ type: 'message.steered', message: `${message.by ?? 'a message'} ${to}: ${shown}` });
    for (const stepId of steps)
      getExternalWorkflowHandle(stepWorkflowId(run.agentId, stepId))
        .signal(steerSignal, message)
        .catch((err: unknown) => log.warn('steer signal not delivered', { stepId, error: String(err) }));
  });
}
