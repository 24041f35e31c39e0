/**
 * What an operator sees of an agent without querying it: the `AgentPhase` and
 * `AgentAwaitingInput` search attributes (upserted only when they change — each upsert is a
 * history event) and the Temporal UI's current details (plan progress as Markdown).
 */
import { setCurrentDetails, upsertSearchAttributes } from '@temporalio/workflow';
import { AgentAwaitingInputKey, AgentPhaseKey } from '../search-attributes';
import { openInteractions, type AgentState } from './agent-state';
import { progressMarkdown } from './progress-markdown';

export class AgentVisibility {
  private shown = '';

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

  /** Refreshes the current details only (not a history event: served by a built-in query). */
  refreshDetails(): void {
    setCurrentDetails(progressMarkdown(this.state));
  }
}
