/**
 * Why an agent ends itself early. While it runs, `AgentEnding` records why its own scope was
 * cancelled — a budget or deadline decision stops it, the `cancel` expiry policy cancels it — so
 * that its end (agent-finish.ts) knows which ending it is; a cancellation from outside is the
 * scope's own.
 */
import type { CancellationScope } from '@temporalio/workflow';

/** Why the agent cancelled its own scope: a decision that stops it, or the `cancel` expiry policy. */
export type EndingCause = { kind: 'stop'; reason: string } | { kind: 'expiry'; reason: string };

/** The agent's own reasons to end early; a cancellation from outside is the scope's. */
export class AgentEnding {
  private why: EndingCause | undefined;

  constructor(private readonly scope: CancellationScope) {}

  /** Ends the agent early as `stopped` (a budget or deadline decision): steps and calls stop, finished work stays. */
  stop(reason: string): void {
    // A stop outranks an expiry, and the first stop stands.
    if (this.why?.kind !== 'stop') this.why = { kind: 'stop', reason };
    this.scope.cancel();
  }

  /** The `cancel` expiry policy: the agent is cancelled, saying which question expired. */
  expire(reason: string): void {
    if (this.why?.kind !== 'stop') this.why = { kind: 'expiry', reason };
    this.scope.cancel();
  }

  /** Why the agent ended itself, if it did. */
  get cause(): EndingCause | undefined {
    return this.why;
  }

  /** Whether the agent is ending (stopped, or cancelled from anywhere): usage still counts, nobody is asked. */
  get underway(): boolean {
    return this.why?.kind === 'stop' || this.scope.consideredCancelled;
  }
}
