/**
 * Tolerant JSON reading of a model's reply: the whole text, a fenced block, then the outermost
 * `{...}` — models wrap JSON in prose and code fences. Pure.
 */

/** The error for an empty reply. */
export const NO_CONTENT_ERROR = 'the reply has no content; answer with the plan as a JSON object';

/** A reply read as JSON, or why it could not be. */
export type JsonReply = { ok: true; value: unknown } | { ok: false; error: string };

/** Parses reply text as JSON, trying the whole text, a fenced block, then the outermost `{...}`. */
export function parseJsonReply(content: string | null): JsonReply {
  const text = content?.trim() ?? '';
  if (text === '') return { ok: false, error: NO_CONTENT_ERROR };
  const fenced = /```[\w-]*[^\S\n]*\n?([\s\S]*?)```/.exec(text)?.[1];
  const candidates = unique([text, ...(fenced === undefined ? [] : [outermostObject(fenced)]), outermostObject(text)]);
  let error = '';
  for (const candidate of candidates) {
    try {
      return { ok: true, value: JSON.parse(candidate) as unknown };
    } catch (caught) {
      error = caught instanceof Error ? caught.message : String(caught);
    }
  }
  return { ok: false, error: `the reply is not valid JSON: ${error}` };
}

/** The text from the first `{` to the last `}`, or the trimmed text when it has no such pair. */
function outermostObject(text: string): string {
  const start = text.indexOf('{');
  const end = text.lastIndexOf('}');
  return start >= 0 && end > start ? text.slice(start, end + 1) : text.trim();
}

function unique<T>(items: T[]): T[] {
  return [...new Set(items)];
}
