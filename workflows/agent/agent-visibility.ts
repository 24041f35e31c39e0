/**
 * What an operator sees of an agent without querying it: the `AgentPhase`, `AgentAwaitingInput`,
 * `AgentTokens` and `AgentCostUsd` search attributes (upserted only when they change — each upsert is a
 * history event) and the Temporal UI's current details (plan progress as Markdown).
 */
import { patched, setCurrentDetails, upsertSearchAttributes, workflowInfo } from '@temporalio/workflow';
import { AgentAwaitingInputKey, AgentCostUsdKey, AgentPhaseKey, AgentTokensKey } from '../contract/search-attributes';
import { knownCost } from '../model/llm/usage';
import { openInteractions, type AgentState } from '../model/agent/agent-state';
import { progressMarkdown } from '../model/agent/progress-markdown';
import { PATCHES } from '../base/patches';

export class AgentVisibility {
  private shown = '';
  private spendShown = '';

  constructor(private readonly state: AgentState) {}

  /** Brings the search attributes and current details in line with the state. */
  sync(): void {
    const awaiting = openInteractions(this.state).length > 0;
    const key = `${this.state.phase}/${awaiting}`;
    if (this.shown !== key) {
      this.shown = key;
      upsertSearchAttributes([
        { key: AgentPhaseKey, value: this.state.phase },
        { key: AgentAwaitingInputKey, value: awaiting },
      ]);
    }
    this.refreshDetails();
  }

  /**
   * Upserts `AgentTokens` and `AgentCostUsd` when they changed; called at step boundaries and
   * when the agent ends. A cost that becomes unknown (a call to a model without a price) clears
   * `AgentCostUsd` in the same upsert, so a list never shows a stale, too-low cost. Runs recorded
   * before these attributes existed replay without them (the patch marker).
   */
  syncSpend(): void {
    const tokens = this.state.usage.totalTokens;
    const cost = knownCost(this.state.usage);
    const key = `${tokens}/${cost ?? ''}`;
    if (this.spendShown === key || !patched(PATCHES.spendAttributes)) return;
    this.spendShown = key;
    // Read from the run (search attributes are carried across continue-as-new), not remembered.
    const clearCost = cost === undefined && workflowInfo().typedSearchAttributes.get(AgentCostUsdKey) !== undefined;
    upsertSearchAttributes([
      { key: AgentTokensKey, value: tokens },
      ...(cost !== undefined ? [{ key: AgentCostUsdKey, value: cost }] : []),
      ...(clearCost ? [{ key: AgentCostUsdKey, value: null }] : []),
    ]);
  }

  /** Refreshes the current details only (not a history event: served by a built-in query). */
  refreshDetails(): void {
    setCurrentDetails(progressMarkdown(this.state));
  }
}
