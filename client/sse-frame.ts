/**
 * One server-sent events frame read from its text (the lines between two blank lines): `id:`,
 * `event:` (`message` when absent), `data:` lines joined by newlines; comments (`: heartbeat`)
 * and unknown fields skipped; and a stream of them read to its `end`. Used by the CLI's stream
 * reader, the page's (bundled through client/web/rules.ts) and the tests' SSE client.
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

/**
 * Reads the frames of `body` as they arrive, calling `onFrame` for each; resolves true once an
 * `end` frame came (the reading then stops), false when the stream ended first.
 */
export async function readSseFrames(
  body: ReadableStream<Uint8Array>,
  onFrame: (frame: SseFields) => void,
): Promise<boolean> {
  const reader = body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return false;
    buffer += value;
    for (let cut = buffer.indexOf('\n\n'); cut >= 0; cut = buffer.indexOf('\n\n')) {
      const frame = parseFrame(buffer.slice(0, cut));
      buffer = buffer.slice(cut + 2);
      if (!frame) continue;
      onFrame(frame);
      if (frame.event === 'end') {
        await reader.cancel().catch(() => undefined);
        return true;
      }
    }
  }
}
