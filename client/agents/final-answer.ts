/**
 * The final answer under both its names. The agent state (and so `GET /api/agents/:id` and
 * `cairn show --json`) has called it `result`; the agent workflow's result and `cairn run
 * --json` call it `answer`. Each keeps its name, and gets the other beside it, so a script
 * written against one reads the other.
 */
import type { AgentState } from '../../workflows/model/agent/agent-state';

/** `state` with `answer` beside `result` (when there is one). */
export function withAnswer<S extends Pick<AgentState, 'result'>>(state: S): S & { answer?: string } {
  return state.result === undefined ? state : { ...state, answer: state.result };
}
