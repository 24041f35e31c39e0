/**
 * One follower per (thread, message) for the requests that hold a connection while a turn runs
 * (the front door's non-streamed answers): however many wait for the same message, the thread
 * and its agent are polled once. Each request still goes when its own signal says so; the
 * shared follower stops once the last request waiting on it has gone, or the turn has something
 * to tell. Followers with progress callbacks (the streamed answers) follow on their own.
 */
import { followTurn, type FollowTurnOptions, type TurnOutcome, type TurnPorts } from './follow-turn';

interface Shared {
  outcome: Promise<TurnOutcome>;
  stop: AbortController;
  waiting: number;
}

export class FollowerPool {
  private readonly followers = new Map<string, Shared>();

  /** @param pollMs the followers' poll interval (follow-turn.ts's default when absent). */
  constructor(
    private readonly ports: TurnPorts,
    private readonly pollMs?: number,
  ) {}

  /** How many (thread, message) pairs are being followed now. */
  get size(): number {
    return this.followers.size;
  }

  /**
   * The outcome of following `messageId` of `threadId`, shared with every other request waiting
   * on it; `{ kind: 'aborted' }` as soon as `signal` aborts (the others keep following).
   */
  follow(threadId: string, messageId: string, signal: AbortSignal): Promise<TurnOutcome> {
    if (signal.aborted) return Promise.resolve({ kind: 'aborted' });
    const shared = this.sharedFor(threadId, messageId);
    shared.waiting += 1;
    return new Promise<TurnOutcome>((resolve, reject) => {
      const leave = () => {
        shared.waiting -= 1;
        // The last one waiting has gone: nobody needs the polls any more.
        if (shared.waiting === 0) shared.stop.abort();
        resolve({ kind: 'aborted' });
      };
      signal.addEventListener('abort', leave, { once: true });
      shared.outcome.then(
        (outcome) => {
          signal.removeEventListener('abort', leave);
          resolve(outcome);
        },
        (err: unknown) => {
          signal.removeEventListener('abort', leave);
          reject(err instanceof Error ? err : new Error(String(err)));
        },
      );
    });
  }

  private sharedFor(threadId: string, messageId: string): Shared {
    const key = JSON.stringify([threadId, messageId]);
    const known = this.followers.get(key);
    if (known && !known.stop.signal.aborted) return known;
    const stop = new AbortController();
    const options: FollowTurnOptions = {
      signal: stop.signal,
      ...(this.pollMs !== undefined ? { pollMs: this.pollMs } : {}),
    };
    const outcome = followTurn(this.ports, threadId, messageId, options);
    const shared: Shared = { outcome, stop, waiting: 0 };
    this.followers.set(key, shared);
    const forget = () => {
      if (this.followers.get(key) === shared) this.followers.delete(key);
    };
    outcome.then(forget, forget);
    stop.signal.addEventListener('abort', forget, { once: true });
    return shared;
  }
}
