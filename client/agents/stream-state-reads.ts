/**
 * The event streams' reads of an agent's state, shared. Each stream polls the state twice a
 * second; before, every stream sent its own `state` query — a round trip to Temporal and a query
 * task on a worker — so ten viewers of one agent cost ten times one. Now a read younger than the
 * poll interval is handed to every stream of that agent whose cursor it covers, so an agent costs
 * about one query per interval however many streams follow it (each stream still keeps its own
 * cursor and gets only the events after it). Reads that fail are not kept.
 */
import type { AgentState } from '../../workflows/model/agent/agent-state';

/** One read: the cursor it was made with, when, and the state it gives. */
interface Read {
  afterSeq: number;
  at: number;
  state: Promise<AgentState>;
}

/** Shared reads for `read(id, afterSeq)`; a read is reused for `maxAgeMs`. */
export class SharedStateReads {
  private readonly reads = new Map<string, Read>();

  constructor(
    private readonly read: (id: string, afterSeq: number) => Promise<AgentState>,
    private readonly maxAgeMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** The agent's state with the events after `afterSeq`, from a fresh enough read that covers it. */
  async state(id: string, afterSeq: number): Promise<AgentState> {
    const at = this.now();
    this.forgetOld(at);
    const kept = this.reads.get(id);
    // A read made with an earlier cursor holds every event this one wants.
    if (kept && kept.afterSeq <= afterSeq) {
      const state = await kept.state;
      return { ...state, events: state.events.filter((event) => event.seq > afterSeq) };
    }
    const read: Read = { afterSeq, at, state: this.read(id, afterSeq) };
    this.reads.set(id, read);
    try {
      return await read.state;
    } catch (err) {
      if (this.reads.get(id) === read) this.reads.delete(id);
      throw err;
    }
  }

  /** Drops reads past their age, so the map holds only the agents streamed just now. */
  private forgetOld(now: number): void {
    for (const [id, read] of this.reads) if (now - read.at >= this.maxAgeMs) this.reads.delete(id);
  }
}
