/**
 * A thread's title: one `title` call once its first message is routed (instructions in the
 * system message, the message alone in the user message); a reply that is empty once cleaned, or
 * a call that failed for good, leaves the mechanical title — the first message, cut. The title
 * is shown by the `thread` query and written to the workflow's memo (`title`, which
 * `GET /api/threads` lists) and its current details (the Temporal UI).
 */
import { llmCall } from '../runtime/activity-proxies';
import { render } from '../model/prompts/templates';
import type { ThreadCalls } from './thread-calls';
import { cutTitle, mechanicalTitle } from '../model/thread/thread-view';

/** A model's reply as a title: its first line, without a `Title:` label, quotes or Markdown marks; '' when nothing is left. */
export function cleanTitle(content: string | null): string {
  const line = (content ?? '').split('\n').find((l) => l.trim().length > 0) ?? '';
  const bare = line
    .trim()
    .replace(/^#+\s*/, '')
    .replace(/^title\s*:\s*/i, '')
    .replace(/^[*_"'“”‘’`]+|[*_"'“”‘’`]+$/g, '')
    .trim();
  return cutTitle(bare);
}

/** The title of a thread whose first message is `first`: the model's, else the mechanical one. */
export async function writeTitle(calls: ThreadCalls, messageId: string, first: string): Promise<string> {
  try {
    const reply = await llmCall(`${messageId} · title`, {
      purpose: 'title',
      ownerId: calls.ownerId,
      messages: [
        { role: 'system', content: render('thread.title.system') },
        { role: 'user', content: first },
      ],
      ...(calls.model ? { model: calls.model } : {}),
    });
    calls.spent(reply.usage);
    const title = cleanTitle(reply.content);
    if (title.length > 0) return title;
  } catch {
    // Failed for good (its retries spent): the thread keeps its mechanical title.
  }
  return mechanicalTitle(first);
}
