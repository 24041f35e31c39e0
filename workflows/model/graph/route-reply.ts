/**
 * The `route` model call's words and reply (agent graphs): what the router is told — the visit's
 * result and its candidate edges, each a target node and the condition that sends the work
 * there — and the check of its reply `{ "to": "<node id>" | null, "reason": "…" }`, where `to`
 * must be one of the candidates (null: none holds, the node's plain edge or the branch's end).
 * Pure, so identical on replay.
 */
import { z } from 'zod';
import type { IndexedEdge } from './graph-exits';
import { issueLines } from '../../base/issue-lines';
import { parseJsonReply } from '../json-reply';
import { render, type PromptTexts } from '../prompts/templates';

/** The router's reply. */
export const routeReplySchema = z.strictObject({
  to: z.string().nullable().describe('The chosen node id, or null when no condition holds.'),
  reason: z.string().max(2_000).describe('One sentence: why this condition holds (or why none does).'),
});

/** The router's reply. */
export type RouteReply = z.infer<typeof routeReplySchema>;

/** JSON Schema of {@link routeReplySchema}: what the `route` reply must match. */
export function routeJsonSchema(): Record<string, unknown> {
  return z.toJSONSchema(routeReplySchema);
}

/** The router's system prompt. */
export const ROUTER_SYSTEM_PROMPT = render('router.system');

/** The router's system prompt in the agent's words: the operator's text for `router.system` when it has one. */
export function routerSystemPrompt(texts?: PromptTexts): string {
  return render('router.system', {}, texts);
}

/** The router's task: the node, its result (and structured output) and the candidates in order. */
export function routeTaskMessage(node: string, result: string, output: unknown, candidates: IndexedEdge[]): string {
  const lines = candidates.map(
    (edge, i) => `${i + 1}. "${edge.to}": ${edge.when && 'llm' in edge.when ? edge.when.llm : ''}`,
  );
  return [
    `Node "${node}" finished with this result:\n${result}`,
    ...(output !== undefined ? [`Its structured output:\n${JSON.stringify(output)}`] : []),
    `Candidates, in order:\n${lines.join('\n')}`,
  ].join('\n\n');
}

/** Checks a reply's content: a route to one of the candidates (or null), or every problem with it. */
export function checkRouteReply(
  content: string | null,
  candidates: IndexedEdge[],
): { ok: true; reply: RouteReply } | { ok: false; errors: string[] } {
  const json = parseJsonReply(content);
  if (!json.ok) return { ok: false, errors: [json.error] };
  const parsed = routeReplySchema.safeParse(json.value);
  if (!parsed.success) return { ok: false, errors: issueLines(parsed.error, '(reply)') };
  const { to } = parsed.data;
  if (to !== null && !candidates.some((edge) => edge.to === to)) {
    const known = candidates.map((edge) => `"${edge.to}"`).join(', ');
    return { ok: false, errors: [`to: "${to}" is not a candidate; choose one of ${known}, or null`] };
  }
  return { ok: true, reply: parsed.data };
}

/** The correction sent after a bad reply. */
export function routeCorrectionMessage(errors: string[]): string {
  return `Your reply could not be used:\n${errors.map((e) => `- ${e}`).join('\n')}\nAnswer again with the JSON object only.`;
}
