/**
 * What a step spent and did since its last report to the agent: the token usage of its model
 * calls and sub-calls, and the tool calls that finished. The round's report takes both (and the
 * ledger starts again); a step cancelled mid-round hands them back with its partial result; a
 * nested agent started meanwhile is given the tree's budget less what is spent here. One owner
 * for a round's usage and records, which the round, the tools and the link read but never share.
 */
import type { TokenUsage } from '../llm/llm-types';
import type { ToolCallRecord } from '../tools/tool-types';
import { addUsage, zeroUsage } from '../llm/usage';

/** What the ledger holds: usage and finished tool calls since the last report. */
export interface Unreported {
  usage: TokenUsage;
  toolCalls: ToolCallRecord[];
}

export class RoundLedger {
  private usage: TokenUsage = zeroUsage();
  private toolCalls: ToolCallRecord[] = [];

  /** Counts a model call's (or a sub-call's) usage. */
  spend(usage: TokenUsage): void {
    addUsage(this.usage, usage);
  }

  /** Keeps a tool call that finished. */
  record(call: ToolCallRecord): void {
    this.toolCalls.push(call);
  }

  /** What the step spent since its last report (a copy). */
  spent(): TokenUsage {
    return { ...this.usage };
  }

  /** What is unreported now (copies), without settling it: a cancelled step's last report. */
  peek(): Unreported {
    return { usage: { ...this.usage }, toolCalls: [...this.toolCalls] };
  }

  /** Takes what is unreported for a report, and starts again. */
  settle(): Unreported {
    const taken = { usage: this.usage, toolCalls: this.toolCalls };
    this.usage = zeroUsage();
    this.toolCalls = [];
    return taken;
  }
}
