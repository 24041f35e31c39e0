/**
 * Keeps a long graph agent's state bounded: a loop of hundreds of visits must not grow the state
 * (the `state` query's answer and the carry at each continue-as-new) with every visit. The path
 * keeps its newest MAX_PATH_KEPT entries (`state.pathDropped` counts the rest); the board keeps
 * its newest MAX_SETTLED_VISITS settled visits, besides every running one and each node's latest
 * visit (the next visits read its result).
 */
import { stepIdOf, type Walk } from '../../model/graph/graph-walk';
import type { AgentRun } from '../agent-run';

/** Newest path entries kept in `state.path`. */
export const MAX_PATH_KEPT = 200;
/** Newest settled visit runs kept in `state.steps`, besides running ones and each node's latest. */
export const MAX_SETTLED_VISITS = 50;

/** `walk` with its path bounded; `state.path` and the board follow it. */
export function keepBounded(run: AgentRun, walk: Walk): Walk {
  const { state } = run;
  const running = new Set(walk.running.map((visit) => visit.stepId));
  const over = walk.path.length - MAX_PATH_KEPT;
  let path = walk.path;
  if (over > 0) {
    const dropped = path.slice(0, over).filter((entry) => !running.has(entry.stepId));
    const drop = new Set(dropped.map((entry) => entry.stepId));
    path = path.filter((entry) => !drop.has(entry.stepId));
    state.pathDropped = (state.pathDropped ?? 0) + drop.size;
  }
  state.path = path;
  const latest = Object.entries(walk.visits).map(([node, visit]) => stepIdOf(node, visit));
  run.board.trim(MAX_SETTLED_VISITS, new Set([...running, ...latest]));
  return path === walk.path ? walk : { ...walk, path };
}
