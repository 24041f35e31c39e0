/**
 * How long an agent's live stream keeps what it was sent (live-log.ts): the bounds, and what an
 * item weighs against them.
 */
import type { LiveItem } from './live-schemas';

/** Retained text beyond which the oldest items go whatever is open (a runaway reply). */
export const MAX_RETAINED_CHARS = 256 * 1024;

/** While no subscriber is seen, a finished call's items are kept this long for one to come (ms). */
export const FINISHED_GRACE_MS = 30_000;

/** A subscriber not seen for this long no longer holds items back (ms). */
export const SUBSCRIBER_TTL_MS = 150_000;

/** Roughly what an item weighs: its text, or a little for an event. */
export function sizeOf(item: LiveItem): number {
  return item.entry.type === 'delta' ? item.entry.text.length + 64 : 96;
}
