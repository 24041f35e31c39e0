/**
 * What every part of one agent run shares, handed to each part once: who the agent is, its
 * settings and state, its timeline and visibility, how it ends itself, and whether the server
 * suggests continuing as new. Parts that need another part take it as a constructor argument,
 * built first — the hold, then the board and the desk, then the meter and the deadline — so no
 * part reaches one that does not exist yet, and usage flows one way: report → board → meter.
 */
import type { AgentEnding } from './agent-ending';
import type { AgentSettings } from './agent-input';
import type { AgentEvent, AgentState } from './agent-state';

export interface AgentContext {
  readonly agentId: string;
  readonly settings: AgentSettings;
  readonly state: AgentState;
  /** Why the agent ends itself early (a stop, the `cancel` expiry policy), and whether it is ending. */
  readonly ending: AgentEnding;
  /** Adds a timeline event at workflow time. */
  announce(event: Omit<AgentEvent, 'seq' | 'at'>): void;
  /** The state changed in a way the Temporal UI shows (search attributes, current details). */
  changed(): void;
  /** Whether the server suggests continuing as new (or a newer Worker Deployment version is current). */
  rollOverDue(): boolean;
}
