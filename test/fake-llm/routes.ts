/**
 * Scripts for concurrent callers: parallel steps call the model at the same time, so one queue
 * has no fixed order. `byRoute` keeps one queue per caller — `step:<id>` for a step's own
 * calls, else the purpose (`plan`, `replan`, `summary`, `model`) — and falls through (so the fake fails
 * loudly) when a caller's queue runs out.
 */
import { callerOf } from './holds';
import type { ScriptedReply } from './replies';
import type { RecordedRequest, ReplyFunction } from './scripted-llm';

/** The route key of a request: `step:<id>` for a step's own calls, else the purpose. */
export function routeOf(request: RecordedRequest): string {
  return callerOf(request.headers);
}

/** A reply function serving each route's replies in order. */
export function byRoute(routes: Record<string, ScriptedReply[]>): ReplyFunction {
  const queues: Record<string, ScriptedReply[]> = Object.fromEntries(
    Object.entries(routes).map(([key, replies]) => [key, [...replies]]),
  );
  return (request) => queues[routeOf(request)]?.shift();
}
