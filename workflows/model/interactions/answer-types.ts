/**
 * The answer each interaction kind gets, by kind — so `ask('plan.check', …)` returns exactly a
 * plan-check answer and callers need no `'decision' in` narrowing. Pure types.
 */
import type { z } from 'zod';
import type { answerSchemas } from './interaction-schema';
import type { Interaction, InteractionKind, InteractionSpec } from './interaction-types';

/** The answer of each interaction kind, from its schema (its module in kinds/, `answerSchemas`). */
export type AnswerByKind = { [K in InteractionKind]: z.infer<(typeof answerSchemas)[K]> };

/** The answer of kind `K`. */
export type AnswerOf<K extends InteractionKind> = AnswerByKind[K];

/** The question part of an interaction of kind `K`. */
export type SpecOf<K extends InteractionKind> = Extract<InteractionSpec, { kind: K }>;

/** An interaction of kind `K`. */
export type InteractionOf<K extends InteractionKind> = Extract<Interaction, { kind: K }>;
