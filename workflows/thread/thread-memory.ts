/**
 * What keeps a thread bounded and named: its summary of the turns folded away
 * (thread-compress.ts) and its title (thread-title.ts), carried across continue-as-new. The main
 * loop (thread-workflow.ts) asks for a title once the first routed message is handled, and folds turns
 * only between turns, with no message waiting (those that come meanwhile wait in the queue).
 */
import { upsertMemo } from '@temporalio/workflow';
import type { Turn, TurnsSummary } from '../contract/thread-contract';
import type { ThreadCalls } from './thread-calls';
import { compressTurns, foldCount } from './thread-compress';
import { withSummary } from '../model/thread/thread-context';
import { writeTitle } from './thread-title';
import { mechanicalTitle } from '../model/thread/thread-view';

export class ThreadMemory {
  constructor(
    private readonly turns: Turn[],
    private readonly compressAtChars: number,
    public title: string | undefined,
    public summary: TurnsSummary | undefined,
  ) {}

  /** The first routed message, while the thread has no title yet. */
  private untitled(): Turn | undefined {
    return this.title === undefined ? this.turns.find((t) => t.kind !== undefined) : undefined;
  }

  /** A message was routed and the thread has no title yet. */
  titleDue(): boolean {
    return this.untitled() !== undefined;
  }

  /** Names the thread after its first message with one `title` call, written to its memo and details. */
  async name(calls: ThreadCalls): Promise<void> {
    const first = this.untitled();
    if (first === undefined) return;
    // Settled before the call: the loop asks once, whatever arrives meanwhile.
    this.title = mechanicalTitle(first.text);
    this.title = await writeTitle(calls, first.messageId, first.text);
    upsertMemo({ title: this.title });
  }

  /** The oldest turns hold more than the threshold: a fold is due. */
  foldDue(): boolean {
    return this.foldable() > 0;
  }

  /** How many turns fold now (never the newest). */
  private foldable(): number {
    return foldCount(this.turns, this.compressAtChars);
  }

  /** Folds the oldest turns into the summary (one `compress` call, or the mechanical summary). */
  async fold(calls: ThreadCalls): Promise<void> {
    const count = this.foldable();
    if (count === 0) return;
    const folded = this.turns.slice(0, count);
    this.summary = await compressTurns(calls, this.summary, folded);
    // Messages that came meanwhile were appended: the folded ones are still the first.
    this.turns.splice(0, count);
  }

  /** Turns before `turn` as its context: the summary, then the turns kept. */
  context(turn: Turn): Turn[] {
    return withSummary(this.summary, this.turns.slice(0, this.turns.indexOf(turn)));
  }
}
