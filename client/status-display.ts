/**
 * How an agent's state reads to people, the same on the web page and in the CLI: a step's status
 * as shown (derived from the agent around it — never a status of its own), whether a step has a
 * workflow to link to, whether to add a "waiting for input" badge beside the phase, and what the
 * answer box says before (or without) an answer. Pure: the web page loads it through
 * client/web/rules.ts.
 */
import { isTerminalPhase } from '../workflows/model/state/agent-phases';

/** The parts of a step this module reads. */
interface StepLike {
  status: string;
  attempts?: number;
}

/** The parts of an agent this module reads. */
interface AgentLike {
  phase: string;
  hold?: { reasons: readonly string[] } | undefined;
}

/**
 * A step's status as people should read it: `paused` for a running step while the agent is held
 * (a pause or a spent budget: it starts no new model or tool call), `not run` for a step still
 * pending when the agent has ended (it never will run), else its own status.
 */
export function stepDisplayStatus(step: StepLike, agent: AgentLike): string {
  if (step.status === 'running' && (agent.hold?.reasons.length ?? 0) > 0) return 'paused';
  if (step.status === 'pending' && isTerminalPhase(agent.phase)) return 'not run';
  return step.status;
}

/** A CSS-safe form of a displayed status: `not run` → `not-run`. */
export const statusClass = (status: string): string => status.replace(/\s+/g, '-');

/** Whether the step's child workflow exists (it started at least once): only then is there anything to link to. */
export function stepHasWorkflow(step: StepLike): boolean {
  return (step.attempts ?? 0) > 0;
}

/** Whether to show "waiting for input" beside the phase: not when the phase already says so. */
export function showsWaitingBadge(phase: string, waiting: boolean): boolean {
  return waiting && phase !== 'awaiting_input';
}

/** What the answer box says while there is no answer: not yet, or — once the agent ended — none. */
export function noAnswerText(phase: string): string {
  if (!isTerminalPhase(phase)) return 'No answer yet.';
  return `No answer: the agent ${phase === 'completed' ? 'completed without one' : `ended ${phase}`}.`;
}
