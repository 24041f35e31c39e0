/**
 * Threads a client has already seen to be threads: each id with the first run of its chain (the
 * run its `send` updates then target, however often it continued as new). A `send` to one of
 * them goes straight to the thread — no describe before it — and still cannot reach a workflow
 * of another kind: an update naming the chain's first run is refused by the server for any
 * other workflow that took the id since. Bounded: the oldest entry goes when it is full.
 */
export class KnownThreads {
  private readonly firstRuns = new Map<string, string>();

  constructor(private readonly capacity = 10_000) {}

  /** The first run of thread `id`'s chain, when known. */
  firstRunOf(id: string): string | undefined {
    return this.firstRuns.get(id);
  }

  /** Thread `id`'s chain began with `firstRunId`. */
  remember(id: string, firstRunId: string | undefined): void {
    if (!firstRunId) return;
    this.firstRuns.delete(id);
    this.firstRuns.set(id, firstRunId);
    if (this.firstRuns.size <= this.capacity) return;
    const oldest = this.firstRuns.keys().next();
    if (!oldest.done) this.firstRuns.delete(oldest.value);
  }

  /** Thread `id` is no longer known (closed, gone, replaced). */
  forget(id: string): void {
    this.firstRuns.delete(id);
  }
}
