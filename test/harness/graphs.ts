/**
 * What the scripted model says in graph agent tests: a node's visit finishing with a result and,
 * for nodes that declare one, its structured output; the router's `{ to, reason }` reply; and
 * the step ids the fake heard, in the order their first request arrived.
 */
import { reply } from '../fake-llm/replies';
import { byRoute } from '../fake-llm/routes';
import type { RecordedRequest } from '../fake-llm/scripted-llm';

/** A visit's reply finishing with `result` (and `output`, when given). */
export const finishVisit = (result: string, output?: unknown) =>
  reply.toolCall('finish_step', output === undefined ? { result } : { result, output });

/** The review loop (examples/graphs/review-loop.ts) answered in two visits: a draft, approved at its first review. */
export const approvedAtFirstReview = () =>
  byRoute({
    'step:draft': [finishVisit('draft')],
    'step:review': [finishVisit('fine', { approved: true, feedback: 'good' })],
  });

/** The router's reply choosing `to` (null: no condition holds). */
export const routeTo = (to: string | null, reason = `because ${to ?? 'none holds'}`) => reply.json({ to, reason });

/** Step ids of the fake's step requests, each once, in the order of their first request. */
export function stepsHeard(requests: RecordedRequest[]): string[] {
  const ids = requests
    .filter((r) => r.headers['x-cairn-purpose'] === 'step')
    .map((r) => r.headers['x-cairn-step'] ?? '?');
  return [...new Set(ids)];
}

/** The purposes of the fake's requests, in order (`X-Cairn-Purpose`). */
export function purposesHeard(requests: RecordedRequest[]): string[] {
  return requests.map((r) => r.headers['x-cairn-purpose'] ?? '?');
}
