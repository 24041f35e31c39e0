/**
 * Live output latency from its two ends, pure: the fake stamps each chunk it writes
 * (`chunkSentAt`), the SSE client stamps each delta it parses; a chunk has arrived when the
 * delta holding its last character has. Deltas are merged (≤ 200 ms batches), so one delta may
 * complete several chunks, each with its own latency.
 */

/** One `delta` of one call as a client received it: its text and when (`Date.now()`). */
export interface ReceivedDelta {
  text: string;
  at: number;
}

/**
 * The latency of each content chunk of a text-only streamed reply: `sentAt` is the fake's stamp
 * per chunk (index 0 the role chunk, 1… the content pieces of `chunkChars` characters, then the
 * finish and usage chunks), `deltas` the call's text deltas in order. Characters are counted as
 * code points, as the fake cuts them.
 */
export function chunkLatencies(
  sentAt: readonly number[],
  chunkChars: number,
  deltas: readonly ReceivedDelta[],
): number[] {
  const total = deltas.reduce((sum, d) => sum + Array.from(d.text).length, 0);
  const chunks = Math.ceil(total / chunkChars);
  const out: number[] = [];
  let start = 0;
  let chunk = 1;
  for (const delta of deltas) {
    const end = start + Array.from(delta.text).length;
    // Chunk `chunk`'s last character is at min(chunk × size, total) - 1.
    for (; chunk <= chunks && Math.min(chunk * chunkChars, total) - 1 < end; chunk++) {
      const sent = sentAt[chunk];
      if (sent !== undefined) out.push(delta.at - sent);
    }
    start = end;
  }
  return out;
}
