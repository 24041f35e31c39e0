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

/**
 * A reply cut at its token limit, closed at its last complete values: for each place where a
 * value had just ended (before a `,`, after a `}` or `]`), latest first, the text up to there
 * with every open `[` and `{` closed. Structured output makes a cut reply a prefix of valid
 * JSON, so the first candidates usually parse; the caller takes the first that it can use.
 * At most `limit` candidates, so a long reply costs a bounded number of parses. Pure.
 */
export function closedPrefixes(content: string | null, limit = 40): string[] {
  const text = content ?? '';
  const start = text.indexOf('{');
  if (start < 0) return [];
  const cuts: { at: number; open: string }[] = [];
  const open: string[] = [];
  let inString = false;
  for (let i = start; i < text.length; i += 1) {
    const ch = text[i];
    if (inString) {
      if (ch === '\\') i += 1;
      else if (ch === '"') inString = false;
      continue;
    }
    if (ch === '"') inString = true;
    else if (ch === '{' || ch === '[') open.push(ch);
    else if (ch === ',') cuts.push({ at: i, open: open.join('') });
    else if (ch === '}' || ch === ']') {
      open.pop();
      if (open.length === 0) break;
      cuts.push({ at: i + 1, open: open.join('') });
    }
  }
  const closers = (stack: string) =>
    [...stack]
      .reverse()
      .map((c) => (c === '{' ? '}' : ']'))
      .join('');
  return cuts
    .reverse()
    .slice(0, limit)
    .map(({ at, open: stack }) => text.slice(start, at) + closers(stack));
}
