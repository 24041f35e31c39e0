/**
 * The `route-message` call's words and reply: the router hears its instructions in the system
 * message and the message alone in the last user message, and answers
 * `{ "kind": "chat" | "task", "reason": "…" }`. Pure, so identical on replay.
 */
import { z } from 'zod';
import { issueLines } from '../../base/issue-lines';
import { parseJsonReply } from '../json-reply';
import { render } from '../prompts/templates';
import type { LlmMessage } from '../llm/llm-types';

/** The router's reply. */
export const messageRouteSchema = z.strictObject({
  kind: z.enum(['chat', 'task']).describe('chat: answer in words; task: work with tools.'),
  reason: z.string().max(2_000).describe('One sentence: why.'),
});

/** The router's reply. */
export type MessageRoute = z.infer<typeof messageRouteSchema>;

/** JSON Schema of {@link messageRouteSchema}: what the `route-message` reply must match. */
export function messageRouteJsonSchema(): Record<string, unknown> {
  return z.toJSONSchema(messageRouteSchema);
}

/** The first request: the instructions, then the message alone. */
export function messageRouteRequest(text: string): LlmMessage[] {
  return [
    { role: 'system', content: render('thread.router.system') },
    { role: 'user', content: text },
  ];
}

/** Checks a reply's content: a kind with its reason, or every problem with it. */
export function checkMessageRoute(
  content: string | null,
): { ok: true; route: MessageRoute } | { ok: false; errors: string[] } {
  const json = parseJsonReply(content);
  if (!json.ok) return { ok: false, errors: [json.error] };
  const parsed = messageRouteSchema.safeParse(json.value);
  if (!parsed.success) return { ok: false, errors: issueLines(parsed.error, '(reply)') };
  return { ok: true, route: parsed.data };
}

/** The correction sent after a bad reply. */
export function messageRouteCorrection(errors: string[]): string {
  return `Your reply could not be used:\n${errors.map((e) => `- ${e}`).join('\n')}\nAnswer again with the JSON object only.`;
}
