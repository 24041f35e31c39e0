/**
 * When the event streams read an agent's state again. The timeline lives in the agent's state,
 * so a stream must read it to send events; what changes is *when*. Before, every agent followed
 * on `/events` was read every 500 ms for as long as anyone watched it, even while it waited a day
 * for a person. Now the streams of an agent follow its live stream through the web server's one
 * subscription (LiveHub), and that subscription says when something happens:
 *
 * - any item of the live stream (a model call starting, streaming, finishing), an answer or
 *   command this web server passed to the agent, or the stream's end starts a *busy* spell:
 *   reads every `pollMs` (500 ms) for BUSY_SPELL_MS, since the timeline events that follow a
 *   model call (its tools, an approval, the next step) are written just after it finishes;
 * - a wake while quiet reads at once (at most one read per MIN_GAP_MS per stream);
 * - otherwise the agent is *quiet*: one read every `idleMs` (2 s), which bounds how late the
 *   timeline shows what nothing here hears of (an answer through the CLI or the Temporal UI, a
 *   timer firing).
 *
 * The streams of one agent wake together, so their reads are shared (stream-state-reads.ts).
 */
import type { MiddlewareHandler } from 'hono';
import type { LiveHub } from '../live/live-hub';
import { pause } from './follow-timeline';

/** How long reads stay frequent after the last wake (ms). */
export const BUSY_SPELL_MS = 3_000;
/** The least time between two reads of one stream, however often it is woken (ms). */
export const MIN_GAP_MS = 250;

/** The read intervals: while busy, and while quiet (ms). */
export interface WakeTiming {
  pollMs: number;
  idleMs: number;
}

/** One agent's wake-ups: an event target all its streams' waits listen on. */
interface Followed {
  wakes: EventTarget;
  /** When it was first followed: its ticks count from here. */
  since: number;
  lastWake: number;
  streams: number;
  unfollow: () => void;
}

/** The wake-ups of every agent this web server's event streams follow. */
export class TimelineWakes {
  private readonly agents = new Map<string, Followed>();

  constructor(
    private readonly hub: LiveHub,
    private readonly timing: WakeTiming,
  ) {}

  private now(): number {
    return performance.now();
  }

  /** Something happened to `agentId` (its stream moved, or this server passed it an answer). */
  wake(agentId: string): void {
    const agent = this.agents.get(agentId);
    if (!agent) return;
    agent.lastWake = this.now();
    agent.wakes.dispatchEvent(new Event('wake'));
  }

  /**
   * Follows `agentId` for one event stream; returns the stream's wait (until its next read,
   * cut short when `signal` aborts) and the function that stops following.
   */
  follow(agentId: string): { waitNext: (signal: AbortSignal) => Promise<void>; stop: () => void } {
    const agent = this.agents.get(agentId) ?? this.startFollowing(agentId);
    agent.streams += 1;
    // A new stream starts busy: its first reads catch up quickly.
    agent.lastWake = this.now();
    let lastRead = this.now();
    let stopped = false;
    const waitNext = async (signal: AbortSignal) => {
      await this.waitFor(agent, lastRead, signal);
      lastRead = this.now();
    };
    const stop = () => {
      if (stopped) return;
      stopped = true;
      agent.streams -= 1;
      if (agent.streams > 0) return;
      agent.unfollow();
      this.agents.delete(agentId);
    };
    return { waitNext, stop };
  }

  private startFollowing(agentId: string): Followed {
    const now = this.now();
    const agent: Followed = {
      wakes: new EventTarget(),
      since: now,
      lastWake: now,
      streams: 0,
      unfollow: () => undefined,
    };
    this.agents.set(agentId, agent);
    const wake = () => this.wake(agentId);
    agent.unfollow = this.hub.follow(agentId, undefined, { event: wake, reset: wake, end: wake });
    return agent;
  }

  /**
   * Waits until the next read: on the agent's own ticks (every `pollMs` while busy, `idleMs`
   * while quiet, counted from when it was first followed), so all its streams read at the same
   * moment and share one read; while quiet, a wake cuts the wait short.
   */
  private async waitFor(agent: Followed, lastRead: number, signal: AbortSignal): Promise<void> {
    const busy = this.now() - agent.lastWake < BUSY_SPELL_MS;
    const untilTick = this.untilTick(agent, busy ? this.timing.pollMs : this.timing.idleMs);
    // The least time between two reads; a test's interval below it wins.
    const gap = () => Math.max(0, Math.min(MIN_GAP_MS, this.timing.pollMs) - (this.now() - lastRead));
    if (busy) {
      await pause(Math.max(untilTick, gap()), signal);
      return;
    }
    // One signal that a wake or the stream's stop fires; both listeners go when the wait ends.
    const woken = new AbortController();
    const cut = () => woken.abort();
    agent.wakes.addEventListener('wake', cut);
    signal.addEventListener('abort', cut, { once: true });
    try {
      if (signal.aborted) return;
      await pause(untilTick, woken.signal);
    } finally {
      agent.wakes.removeEventListener('wake', cut);
      signal.removeEventListener('abort', cut);
    }
    if (woken.signal.aborted && !signal.aborted) await pause(gap(), signal);
  }

  /** Milliseconds to the agent's next tick of `intervalMs` (never zero: a tick just past waits a whole one). */
  private untilTick(agent: Followed, intervalMs: number): number {
    const elapsed = this.now() - agent.since;
    return intervalMs - (elapsed % intervalMs);
  }
}

/** Middleware for `/api/agents/:id/*`: a command that succeeded wakes the agent's event streams. */
export function wakeAfterCommands(wakes: TimelineWakes): MiddlewareHandler {
  return async (c, next) => {
    await next();
    const id = c.req.param('id');
    if (c.req.method !== 'GET' && c.res.ok && id) wakes.wake(id);
  };
}
