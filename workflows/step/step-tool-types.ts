/**
 * What a step's tool calls share: the context they run in and what a call gives back
 * (step-tools.ts runs calls; call-approval.ts and nested-calls.ts decide and run parts of them).
 */
import type { EarlierApproval } from '../model/tools/approval-reuse';
import type { AnswerOf, SpecOf } from '../model/interactions/answer-types';
import type { InteractionKind } from '../model/interactions/interaction-types';
import type { PolicyDecision } from '../model/tools/policy-decision';
import type { ToolCallRecord } from '../model/tools/tool-types';
import type { FinishExtras } from '../model/tools/finish-step';
import type { AgentLink } from './agent-link';
import type { LoopGuards } from './loop-guards';
import type { RoundLedger } from '../model/step/round-ledger';
import type { StepInput } from './step-types';
import type { ImageRef } from '../model/llm/llm-types';

/** What one tool call gave back: the tool message, a record, and the result if it finished. */
export interface CallResult {
  content: string;
  /** An image for the model to see after the tool results (a vision model only). */
  image?: ImageRef;
  record?: ToolCallRecord;
  finished?: string;
  /** With `finished`: a graph node's structured output (checked against its schema), a goal check. */
  extras?: FinishExtras;
  /** The call failed in a way that counts against the step's tool error budget (a person's rejection does not). */
  failed?: boolean;
  /** A person (or the spent budget) refused the call. */
  rejected?: boolean;
}

export interface StepToolsContext {
  input: StepInput;
  /** Opens an interaction at the agent and waits for the answer. */
  askAgent<K extends InteractionKind>(requestId: string, spec: SpecOf<K>): Promise<AnswerOf<K>>;
  /** What the step spent and did since its last report: sub-calls (model, sub_agent) count here. */
  ledger: RoundLedger;
  /** The line to the agent: whether it holds the step, and the nested agents to pass a hold to. */
  link: Pick<AgentLink, 'mustWait' | 'whenFree' | 'nestedStarted' | 'nestedEnded' | 'budgetLeft'>;
  /** The step's loop guards: approvals already decided in this step are not asked again. */
  guards?: LoopGuards;
}

/** What a catalogue tool call gave back, and the policy decision that let it run or refused it. */
export interface ToolOutcome {
  ok: boolean;
  output: string;
  /** An image the call read, by reference. */
  image?: ImageRef;
  policy?: PolicyDecision;
  /** Refused by a person (or the spent budget): not held against the step's tool error budget. */
  rejected?: boolean;
  /** Run on an approval given earlier (the agent's `context.approvals`, approval-reuse.ts), not asked again. */
  reusedApproval?: EarlierApproval;
  /** When the tool began to run, past its approval and any hold: the call's time counts from here. */
  ranFrom?: number;
}
