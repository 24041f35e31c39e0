/**
 * What a fault cost, read off the disk: samples each agent's writes (its `chaos_append` lines
 * and `write_file` files) several times a second. After a fault at moment t, an agent that
 * still had writes to make stalls until its next write lands; the longest such stall over the
 * agents is the fault's cost to the agents it hit (a history host's agents wait for their
 * shards to move; everyone waits out a frontend or database restart). The same figure for a
 * run without a fault is the baseline to compare with.
 */
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { intendedWrites, logFileOf } from '../chaos/agent-script';
import { agentWorkspaceDir } from '../config/agent-workspace';

/** How often the disk is sampled. */
const SAMPLE_MS = 100;

async function writesOf(workspace: string, id: string): Promise<number> {
  const log = await readFile(join(agentWorkspaceDir(workspace, id), logFileOf(id)), 'utf8').catch(() => '');
  const lines = log.split('\n').filter(Boolean).length;
  const files = await Promise.all(
    intendedWrites(id).files.map((f) =>
      stat(join(agentWorkspaceDir(workspace, id), f.path)).then(
        () => 1,
        () => 0,
      ),
    ),
  );
  return lines + files.reduce((a, b) => a + b, 0);
}

export class ProgressWatch {
  /** Per agent: `[performance.now(), writes]` at each change. */
  private readonly changes = new Map<string, [number, number][]>();
  private readonly timer: NodeJS.Timeout;
  private sampling = false;

  constructor(
    private readonly workspace: string,
    private readonly ids: string[],
  ) {
    ids.forEach((id) => this.changes.set(id, [[performance.now(), 0]]));
    this.timer = setInterval(() => void this.sample(), SAMPLE_MS);
  }

  private async sample(): Promise<void> {
    if (this.sampling) return;
    this.sampling = true;
    try {
      const now = performance.now();
      const counts = await Promise.all(this.ids.map((id) => writesOf(this.workspace, id)));
      this.ids.forEach((id, i) => {
        const seen = this.changes.get(id) ?? [];
        const count = counts[i] ?? 0;
        if (count !== seen.at(-1)?.[1]) seen.push([now, count]);
      });
    } finally {
      this.sampling = false;
    }
  }

  /** Stops sampling (after one last sample). */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    while (this.sampling) await new Promise((resolve) => setTimeout(resolve, SAMPLE_MS));
    await this.sample();
  }

  /**
   * The longest wait, from `moment` on, of an agent with writes still to make until its next
   * write landed (until now for one that never wrote again); 0 when every agent was done.
   */
  longestStallAfter(moment: number): number {
    let longest = 0;
    for (const [id, seen] of this.changes) {
      const total = intendedWrites(id).lines.length + intendedWrites(id).files.length;
      const before = seen.filter(([t]) => t <= moment).at(-1)?.[1] ?? 0;
      if (before >= total) continue;
      const next = seen.find(([t, n]) => t > moment && n > before);
      longest = Math.max(longest, (next?.[0] ?? performance.now()) - moment);
    }
    return longest;
  }
}
