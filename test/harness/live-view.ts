/**
 * What a viewer of `GET /api/agents/:id/stream` makes of its frames, as docs/contracts.md tells
 * viewers to: the deltas with their call's identity, and the text each model call shows — its
 * attempts' text with every attempt a `call.superseded` named dropped.
 */
import type { SseFrame } from './sse-client';

/** A `delta` frame's data. */
export interface Delta {
  agentId: string;
  stepId?: string;
  /** A thread's calls: the message they route or answer. */
  messageId?: string;
  modelCallId: string;
  attempt: number;
  purpose: string;
  channel: 'text' | 'reasoning' | 'tool';
  text: string;
}

/** A frame's JSON data. */
export const dataOf = <T>(frame: SseFrame) => JSON.parse(frame.data) as T;

/** The deltas among `frames`, in order. */
export const deltasOf = (frames: SseFrame[]) => frames.filter((f) => f.event === 'delta').map((f) => dataOf<Delta>(f));

/**
 * What a viewer shows of each model call (by `modelCallId`) on `channel`: the text of its
 * attempts in order, the attempts a `call.superseded` named dropped.
 */
export function shownText(frames: SseFrame[], channel: Delta['channel'] = 'text'): Map<string, string> {
  const attempts = new Map<string, { attempt: number; text: string }[]>();
  for (const frame of frames) {
    if (frame.event === 'call.superseded') {
      const { modelCallId, attempt } = dataOf<{ modelCallId: string; attempt: number }>(frame);
      attempts.set(
        modelCallId,
        (attempts.get(modelCallId) ?? []).filter((a) => a.attempt !== attempt),
      );
    }
    if (frame.event !== 'delta') continue;
    const delta = dataOf<Delta>(frame);
    if (delta.channel !== channel) continue;
    const list = attempts.get(delta.modelCallId) ?? [];
    const entry = list.find((a) => a.attempt === delta.attempt) ?? { attempt: delta.attempt, text: '' };
    if (!list.includes(entry)) list.push(entry);
    entry.text += delta.text;
    attempts.set(delta.modelCallId, list);
  }
  return new Map([...attempts].map(([id, list]) => [id, list.map((a) => a.text).join('')]));
}
