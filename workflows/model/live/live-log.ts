/**
 * The retained log of an agent's live stream, as its stream workflow keeps it: items at growing
 * offsets, the calls they belong to, the subscribers that read them. Pure (no clock: callers pass
 * workflow time), so it is the same in a run, a replay and a unit test.
 *
 * Retention: the items of a call are kept while it is open; once it has finished (or was
 * superseded) they are dropped as soon as every subscriber seen lately has read past them, so
 * memory, history and the continue-as-new carry stay small — or, while no subscriber is seen,
 * FINISHED_GRACE_MS after the call finished, so a viewer that opens as the agent starts still
 * gets its first call. Only a prefix is ever dropped:
 * offsets stay contiguous, and an offset below `base` is known to be gone (a reset for whoever
 * asks for it). A log past MAX_RETAINED_CHARS drops its oldest items whatever is open.
 */
import type { LiveCall, LiveEntry, LiveItem, LivePage, LivePublish, LiveStreamCarry } from './live-schemas';

import { FINISHED_GRACE_MS, MAX_RETAINED_CHARS, sizeOf, SUBSCRIBER_TTL_MS } from './live-retention';

export { FINISHED_GRACE_MS, MAX_RETAINED_CHARS, SUBSCRIBER_TTL_MS } from './live-retention';

/** What one call's items need: its identity, where its items start, whether it is still open. */
type CallRecord = LiveStreamCarry['calls'][string];

/** What the log hands the next run (the stream adds whether its agent had ended). */
export type LiveLogCarry = Omit<LiveStreamCarry, 'ending'>;

/** The key of one call attempt in `calls`. */
export function callKey(call: Pick<LiveCall, 'modelCallId' | 'attempt'>): string {
  return `${call.modelCallId}#${call.attempt}`;
}

export class LiveLog {
  private items: LiveItem[];
  private base: number;
  private next: number;
  private readonly calls: Record<string, CallRecord>;
  private readonly publishers: Record<string, number>;
  private readonly subscribers: Record<string, { from: number; at: number }>;
  private chars: number;
  /** The `end` item is in: nothing more is taken. */
  ended: boolean;

  constructor(carry?: LiveLogCarry) {
    this.items = carry?.items ?? [];
    this.base = carry?.base ?? 0;
    this.next = carry?.next ?? this.base + this.items.length;
    this.calls = { ...carry?.calls };
    this.publishers = { ...carry?.publishers };
    this.subscribers = { ...carry?.subscribers };
    this.ended = carry?.ended ?? false;
    this.chars = this.items.reduce((sum, item) => sum + sizeOf(item), 0);
  }

  /** The offset the next item gets. */
  get nextOffset(): number {
    return this.next;
  }

  /** Whether any call is still open. */
  get anyOpen(): boolean {
    return Object.values(this.calls).some((c) => c.open);
  }

  /** Appends a publisher's batch (a duplicate or a batch after the end changes nothing). */
  publish(batch: LivePublish, now: number): void {
    if (this.ended || batch.seq <= (this.publishers[batch.publisher] ?? 0)) return;
    this.publishers[batch.publisher] = batch.seq;
    const key = callKey(batch.call);
    for (const entry of batch.entries) {
      if (entry.type === 'call.superseded') {
        // The attempt before this one: closed, and viewers drop its text.
        const previous = { ...batch.call, attempt: entry.by - 1 };
        this.append(callKey(previous), previous, entry);
        this.close(callKey(previous)); // superseded: its text goes at once, viewers want the retry
        continue;
      }
      this.append(key, batch.call, entry);
      if (entry.type === 'call.finished') this.close(key, now);
    }
    this.trim(now);
  }

  /** Closes every open call as abandoned and appends the end. */
  end(at: number): void {
    if (this.ended) return;
    for (const [key, record] of Object.entries(this.calls)) {
      if (!record.open) continue;
      this.append(key, record.call, { type: 'call.finished', outcome: 'abandoned', at });
      this.close(key, at);
    }
    this.items.push({ offset: this.next, entry: { type: 'end' } });
    this.next += 1;
    this.ended = true;
  }

  /** Notes that `subscriber` has read everything before `from` (a poll), and drops what all have read. */
  polled(subscriber: string, from: number, now: number): void {
    this.subscribers[subscriber] = { from, at: now };
    this.trim(now);
  }

  /** Whether every subscriber seen lately has read past the end (or none is left). */
  allReadToEnd(now: number): boolean {
    return this.liveSubscribers(now).every((s) => s.from >= this.next);
  }

  /** The retained items from `from` on (the oldest retained when `from` is below `base` or absent). */
  page(from: number | undefined, extra: Partial<Pick<LivePage, 'rollover'>> = {}): LivePage {
    const start = Math.max(from ?? this.base, this.base);
    const items = this.items.slice(start - this.base);
    const calls: Record<string, LiveCall> = {};
    for (const item of items) {
      const record = item.key === undefined ? undefined : this.calls[item.key];
      if (item.key !== undefined && record) calls[item.key] = record.call;
    }
    return {
      items,
      calls,
      base: this.base,
      next: this.next,
      ended: this.ended,
      truncated: from !== undefined && from < this.base,
      ...extra,
    };
  }

  /** What the next run starts from. */
  carry(now: number): LiveLogCarry {
    const subscribers = Object.fromEntries(
      Object.entries(this.subscribers).filter(([, s]) => now - s.at < SUBSCRIBER_TTL_MS),
    );
    // Publishers of closed calls send nothing more: only open ones need their sequence.
    const publishers = Object.fromEntries(
      Object.entries(this.publishers).filter(([publisher]) => this.calls[publisher]?.open),
    );
    return {
      version: 1,
      items: this.items,
      base: this.base,
      next: this.next,
      calls: this.calls,
      publishers,
      subscribers,
      ended: this.ended,
    };
  }

  private append(key: string, call: LiveCall, entry: LiveEntry): void {
    const item: LiveItem = { offset: this.next, key, entry };
    this.calls[key] ??= { call, first: this.next, open: true };
    this.items.push(item);
    this.chars += sizeOf(item);
    this.next += 1;
  }

  /** Closes a call; `at` when it finished (not superseded): kept a while for a viewer to come. */
  private close(key: string, at?: number): void {
    const record = this.calls[key];
    if (!record) return;
    record.open = false;
    if (at !== undefined) record.closedAt = at;
  }

  private liveSubscribers(now: number): { from: number; at: number }[] {
    for (const [id, s] of Object.entries(this.subscribers))
      if (now - s.at >= SUBSCRIBER_TTL_MS) delete this.subscribers[id];
    return Object.values(this.subscribers);
  }

  /** Drops what no one needs any more: finished calls' items everyone has read, and any excess. */
  private trim(now: number): void {
    const subscribers = this.liveSubscribers(now);
    // With nobody reading yet, a call that finished lately waits for a viewer about to come.
    const recent = (c: CallRecord) =>
      subscribers.length === 0 && c.closedAt !== undefined && now - c.closedAt < FINISHED_GRACE_MS;
    const held = Object.values(this.calls).filter((c) => c.open || recent(c));
    const floor = Math.min(this.next, ...held.map((c) => c.first));
    const read = Math.min(this.next, ...subscribers.map((s) => s.from));
    let cut = Math.min(floor, read);
    // Whatever is open, never more than MAX_RETAINED_CHARS: those behind get a reset.
    let chars = this.chars;
    for (const item of this.items) {
      if (chars <= MAX_RETAINED_CHARS || item.offset >= this.next - 1) break;
      chars -= sizeOf(item);
      cut = Math.max(cut, item.offset + 1);
    }
    if (cut <= this.base) return;
    const dropped = this.items.slice(0, cut - this.base);
    this.items = this.items.slice(cut - this.base);
    for (const item of dropped) this.chars -= sizeOf(item);
    this.base = cut;
    for (const [key, record] of Object.entries(this.calls)) {
      if (record.first < cut) record.first = cut;
      // A closed call with nothing left is forgotten, and so is its publisher.
      if (!record.open && !this.items.some((i) => i.key === key)) {
        delete this.calls[key];
        delete this.publishers[key];
      }
    }
  }
}
