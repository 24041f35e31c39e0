/**
 * Following an agent by polling its state with the timeline cursor (`afterSeq`): the one loop
 * behind the client library's `watch`, `cairn run` and the HTTP API's event stream, so every
 * event is delivered once, in order, and the loop ends when the agent does. Its waits add
 * nothing to the signal they listen to once they are over: a long wait for a person must not
 * pile up abort listeners (Node warns at 11).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { isTerminalPhase } from '../../workflows/model/state/agent-phases';

/** What the loop needs of a state: its phase and its timeline events. */
export interface TimelineState {
  phase: string;
  events: readonly { seq: number }[];
}

export interface FollowOptions<S> {
  /** The cursor to start from: events up to it are not delivered. Default 0 (all). */
  afterSeq?: number;
  /** The time between two reads (ms). */
  intervalMs: number;
  /**
   * Waits until the next read instead of `intervalMs` (the HTTP event stream's, woken by the
   * agent's live stream); must end when the signal it is given aborts, leaving no listener on it.
   */
  waitNext?: (signal: AbortSignal) => Promise<void>;
  /** Stops following: a wait in progress ends at once and nothing more is read. */
  signal?: AbortSignal;
  /**
   * Settles when the agent has ended by another account (its workflow's result): a wait in
   * progress is cut short, and the state is read and delivered one last time.
   */
  ended?: Promise<unknown>;
  /** A state already read at `afterSeq`, delivered as the first round instead of reading. */
  first?: S;
}

/**
 * Reads the state with `read(cursor)` every `intervalMs` (or when `waitNext` says) and yields each read, its `events`
 * cut to those after the cursor (so none comes twice), until a state in a terminal phase has
 * been yielded, `ended` has settled and been followed by one last read, or `signal` aborts.
 */
export async function* followTimeline<S extends TimelineState>(
  read: (afterSeq: number) => Promise<S>,
  options: FollowOptions<S>,
): AsyncGenerator<S, void, undefined> {
  const { signal } = options;
  let cursor = options.afterSeq ?? 0;
  // One wake-up signal for every wait: a stop or the agent's end fires it, once.
  const wake = new AbortController();
  const onStop = () => wake.abort();
  signal?.addEventListener('abort', onStop, { once: true });
  let over = false;
  const onEnded = () => {
    over = true;
    wake.abort();
  };
  void options.ended?.then(onEnded, onEnded);
  try {
    let state = options.first ?? (await read(cursor));
    let lastRead = false;
    for (;;) {
      const events = state.events.filter((event) => event.seq > cursor);
      cursor = events.at(-1)?.seq ?? cursor;
      yield { ...state, events };
      if (isTerminalPhase(state.phase) || lastRead || signal?.aborted) return;
      if (!over) await (options.waitNext ? options.waitNext(wake.signal) : pause(options.intervalMs, wake.signal));
      if (signal?.aborted) return;
      lastRead = over;
      state = await read(cursor);
    }
  } finally {
    signal?.removeEventListener('abort', onStop);
  }
}

/**
 * Waits `ms`, or less if `signal` aborts first; true when the full time passed. Leaves no
 * listener on `signal` behind either way.
 */
export async function pause(ms: number, signal?: AbortSignal): Promise<boolean> {
  if (signal?.aborted) return false;
  try {
    return await sleep(ms, true, signal ? { signal } : {});
  } catch (err) {
    if (signal?.aborted) return false;
    throw err;
  }
}
