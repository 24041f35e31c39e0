/**
 * Held replies: parallelism proven by causality instead of a stopwatch. A reply with a `hold`
 * is answered only once another request matching `hold.until` has arrived — so the request
 * that releases it provably started before the held call ended. Two replies that hold for each
 * other prove two callers were in flight together; a sequential caller deadlocks instead, and
 * the hold times out loudly rather than passing by luck.
 */

/** Which request releases a held reply: every field given must match. */
export interface RequestMatch {
  /** The `X-Cairn-Purpose` header (`plan`, `step`, `summary`, ...). */
  purpose?: string;
  /** The `X-Cairn-Step` header. */
  step?: string;
  /** Other headers that must have these exact values (lower-case names). */
  headers?: Record<string, string>;
}

/** A reply's hold: released by the arrival of a request matching `until`. */
export interface Hold {
  until: RequestMatch;
  /**
   * How long to wait before giving up: the reply is then sent anyway and the failure recorded
   * (`holdFailures`, and `close()` throws). Below the tests' 10 s LLM client timeout, so the
   * caller gets its answer rather than retrying into an exhausted script.
   */
  timeoutMs?: number;
}

/** The default `Hold.timeoutMs`: only a broken (sequential) caller ever waits this long. */
export const DEFAULT_HOLD_TIMEOUT_MS = 8_000;

/** What a hold needs to know about a request. */
interface HeldRequest {
  index: number;
  headers: Record<string, string>;
}

/** Whether `request` matches `until`. */
export function matchesRequest(request: HeldRequest, until: RequestMatch): boolean {
  const wanted: Record<string, string | undefined> = {
    'x-cairn-purpose': until.purpose,
    'x-cairn-step': until.step,
    ...until.headers,
  };
  return Object.entries(wanted).every(([name, value]) => value === undefined || request.headers[name] === value);
}

/** A request's caller in messages: `step:<id>` for a step's calls, else its purpose. */
export function callerOf(headers: Record<string, string>): string {
  const purpose = headers['x-cairn-purpose'] ?? 'unknown';
  return purpose === 'step' ? `step:${headers['x-cairn-step'] ?? '?'}` : purpose;
}

/** The request a match waits for, in messages: `step:a3's request`, `a plan request`. */
export function describeMatch(until: RequestMatch): string {
  const who =
    until.step !== undefined
      ? `step:${until.step}'s request`
      : until.purpose !== undefined
        ? `a ${until.purpose} request`
        : 'another request';
  const extra = Object.entries(until.headers ?? {}).map(([name, value]) => `${name}=${value}`);
  return extra.length > 0 ? `${who} with ${extra.join(', ')}` : who;
}

interface PendingHold<R> {
  matches: (request: R) => boolean;
  settle: (releasedBy: R | undefined) => void;
}

/** The holds of one fake: waits on them, and releases them as requests arrive. */
export class HoldRegistry<R extends HeldRequest> {
  private readonly pending = new Set<PendingHold<R>>();

  /**
   * Waits until a request other than `held` matching `hold.until` has arrived — already among
   * `seen`, or later. Resolves with that request, or undefined when the hold timed out.
   */
  wait(held: R, hold: Hold, seen: readonly R[]): Promise<R | undefined> {
    const matches = (request: R) => request.index !== held.index && matchesRequest(request, hold.until);
    const earlier = seen.find(matches);
    if (earlier) return Promise.resolve(earlier);
    return new Promise((resolve) => {
      const pending: PendingHold<R> = {
        matches,
        settle: (releasedBy) => {
          clearTimeout(timer);
          this.pending.delete(pending);
          resolve(releasedBy);
        },
      };
      const timer = setTimeout(() => pending.settle(undefined), hold.timeoutMs ?? DEFAULT_HOLD_TIMEOUT_MS);
      this.pending.add(pending);
    });
  }

  /** Releases every hold that `request`'s arrival satisfies. */
  arrived(request: R): void {
    for (const pending of [...this.pending]) if (pending.matches(request)) pending.settle(request);
  }

  /** Ends every pending hold unreleased (the fake is closing); returns how many there were. */
  abandon(): number {
    const count = this.pending.size;
    for (const pending of [...this.pending]) pending.settle(undefined);
    return count;
  }
}
