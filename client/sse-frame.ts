/**
 * One server-sent events frame read from its text (the lines between two blank lines): `id:`,
 * `event:` (`message` when absent), `data:` lines joined by newlines; comments (`: heartbeat`)
 * and unknown fields skipped. Used by the CLI's stream reader and the tests' SSE client.
 */

/** A frame's fields. */
export interface SseFields {
  id?: string;
  event: string;
  data: string;
}

/** The frame in `text`; undefined when it holds no field (a comment alone, as a heartbeat). */
export function parseFrame(text: string): SseFields | undefined {
  const frame: SseFields = { event: 'message', data: '' };
  let any = false;
  for (const line of text.split('\n')) {
    if (line.startsWith(':')) continue;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (field === 'id') frame.id = value;
    else if (field === 'event') frame.event = value;
    else if (field === 'data') frame.data = frame.data ? `${frame.data}\n${value}` : value;
    else continue;
    any = true;
  }
  return any ? frame : undefined;
}
