/**
 * The answer each interaction kind gets, by kind — so `ask('plan.check', …)` returns exactly a
 * plan-check answer and callers need no `'decision' in` narrowing. Pure types.
 */
import type { Answer, Interaction, InteractionKind, InteractionSpec } from './interaction-types';

type Decided<D extends string> = Extract<Answer, { decision: D }>;

/** The answer of each interaction kind. */
export interface AnswerByKind {
  'ask.query': Extract<Answer, { text: string }>;
  'ask.select': { values: string[] };
  'ask.form': { values: Record<string, unknown> };
  'plan.check': Decided<'confirm' | 'revise' | 'edit' | 'cancel'>;
  'tool.approval': Decided<'approve' | 'reject'>;
  'step.failure': Decided<'retry' | 'skip' | 'abort'>;
  budget: Decided<'raise' | 'stop'>;
}

/** The answer of kind `K`. */
export type AnswerOf<K extends InteractionKind> = AnswerByKind[K];

/** The question part of an interaction of kind `K`. */
export type SpecOf<K extends InteractionKind> = Extract<InteractionSpec, { kind: K }>;

/** An interaction of kind `K`. */
export type InteractionOf<K extends InteractionKind> = Extract<Interaction, { kind: K }>;
