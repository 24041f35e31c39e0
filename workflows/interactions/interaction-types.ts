/**
 * Interactions — questions to a human (DESIGN §3) — and their answers, as plain JSON types.
 * Several may be open at once; answered ones stay as an audit record.
 */
import type { Plan } from '../plan/plan-types';

/** A typed form field written by the LLM (DESIGN §3 `ask.form`). */
export interface FormField {
  key: string;
  label: string;
  type: 'input' | 'textarea' | 'number' | 'select' | 'multiselect' | 'boolean' | 'date';
  required: boolean;
  default?: string | number | boolean | string[];
  min?: number;
  max?: number;
  maxLength?: number;
  options?: string[];
}

/** The `ask_user` tool's arguments (DESIGN §5), after validation. */
export type AskRequest =
  | { kind: 'query'; prompt: string }
  | { kind: 'select'; prompt: string; options: string[]; multiple: boolean }
  | { kind: 'form'; prompt: string; fields: FormField[] };

/** What a `tool.approval` shows (issue: tools). */
export interface ApprovalRequest {
  tool: string;
  arguments: unknown;
  digest: string;
  why?: string;
}

/** The question part of an interaction, by kind. */
export type InteractionSpec =
  | { kind: 'ask.query'; prompt: string }
  | { kind: 'ask.select'; prompt: string; options: string[]; multiple: boolean }
  | { kind: 'ask.form'; prompt: string; fields: FormField[] }
  | { kind: 'plan.check'; prompt: string; plan: Plan; revision: number }
  | ({ kind: 'tool.approval'; prompt: string } & ApprovalRequest)
  | { kind: 'step.failure'; prompt: string; error: string }
  | { kind: 'budget'; prompt: string; usedTokens: number; tokenBudget: number };

export type InteractionKind = InteractionSpec['kind'];

/** Answers by interaction kind (DESIGN §5 "Answers"). */
export type Answer =
  | { text: string } // ask.query
  | { values: string[] } // ask.select
  | { values: Record<string, unknown> } // ask.form
  | { decision: 'confirm' | 'revise' | 'edit' | 'cancel'; feedback?: string; plan?: Plan } // plan.check
  | { decision: 'approve' | 'reject'; digest: string; reason?: string } // tool.approval
  | { decision: 'retry' | 'skip' | 'abort' } // step.failure
  | { decision: 'raise' | 'stop'; tokenBudget?: number }; // budget

/** An interaction as kept in agent state. */
export type Interaction = InteractionSpec & {
  id: string;
  status: 'open' | 'answered' | 'expired';
  stepId?: string;
  /** Workflow time (ms since epoch) it was opened. */
  createdAt: number;
  expiresAt?: number;
  /** Audit record, once answered. */
  answer?: Answer;
  by?: string;
  answeredAt?: number;
};

/** Payload of the `answer` signal and update (DESIGN §5). */
export interface AnswerInput {
  interactionId: string;
  answer: unknown;
  by?: string;
}

/** Result of validating an answer: the normalised answer, or the broken rule. */
export type AnswerCheck = { ok: true; answer: Answer } | { ok: false; error: string };
