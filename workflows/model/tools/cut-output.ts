/**
 * Tool output kept in conversations is cut to head + tail, the cut marked with
 * the original length, so no activity result or conversation nears Temporal's payload limits.
 */

export interface CutOptions {
  head?: number;
  tail?: number;
}

/** `text` if short enough, else its first `head` and last `tail` characters around a marker. */
export function cutOutput(text: string, { head = 1000, tail = 1000 }: CutOptions = {}): string {
  if (text.length <= head + tail) return text;
  const removed = text.length - head - tail;
  return `${text.slice(0, head)}\n[… ${removed} of ${text.length} characters cut …]\n${text.slice(text.length - tail)}`;
}
