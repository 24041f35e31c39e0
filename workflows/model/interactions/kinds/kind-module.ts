/**
 * What a module of one interaction kind (kinds/<kind>.ts) owns: everything about its kind — the
 * question it asks, the answer it keeps, what an incoming answer must look like, who may answer
 * it, what it resolves to when it expires unanswered and the rules its answer must meet. The
 * registry (registry.ts) derives every per-kind schema, table and dispatch from these modules,
 * so adding a kind is one module there (plus its controls on the web page and in the CLI).
 * Pure types: the workflow sandbox, the HTTP API and tests share them.
 */
import type { z } from 'zod';
import type { PlanCheck } from '../../plan/plan-types';
import type { AnswerRejection } from '../answer-rejection';
import type { AskKind, AskRequest } from '../ask-request-schema';

/** The expiry policies that give an unanswered interaction an answer (`fail` and `cancel` give none). */
export type AnsweringPolicy = 'reject' | 'default';

/** The answer of a question that expired without one: it has no answer of its own kind. */
export interface NoAnswer {
  text: string;
}

/** What an answer check may need beyond the interaction: rules that live elsewhere (injected). */
export interface CheckContext {
  /** Validates an edited plan like an LLM plan. */
  readonly checkPlan: (value: unknown) => PlanCheck;
}

/** An answer checked by its kind: the normalised answer, or the first broken rule. */
export type KindCheck<A> = { ok: true; answer: A } | AnswerRejection;

/** The shape of an incoming answer: zod checks it before the kind's own rules run. */
export type IncomingSchema = z.ZodType<Record<string, unknown>>;

/**
 * One interaction kind. The type parameters are inferred by {@link defineKind}; the defaults are
 * the registry's view of any kind, where it dispatches by `kind` (methods, so a module of one
 * kind is such a module too).
 */
export interface KindModule<
  K extends string = string,
  S extends z.ZodObject = z.ZodObject,
  A extends z.ZodObject = z.ZodObject,
  I extends IncomingSchema = IncomingSchema,
  F extends string = string,
  R extends z.ZodEnum = z.ZodEnum,
> {
  /** The kind's name, `kind` of its interactions (docs/contracts.md#interactions-and-answers). */
  readonly kind: K;
  /** The question, as the agent state keeps it: `kind`, `prompt` and the kind's own fields. */
  readonly spec: S;
  /** The answer, normalised, as the audit record keeps it. */
  readonly answer: A;
  /** What an incoming answer must look like before the kind's rules run. */
  readonly incoming: {
    /** Its zod schema, with the messages an answerer sees (`decision: must be one of …`). */
    readonly schema: I;
    /** Its one-line shape, for the "not an object" message: `{ decision: retry | skip | abort }`. */
    readonly shape: string;
    /** The key every answer of the kind has: an answer without it is one of another kind (or none). */
    readonly key: string;
  };
  /** Who may answer: the agent input's `answerRoles` key for the kind and the roles it may name. */
  readonly answerRoles: { readonly family: F; readonly roles: R };
  /**
   * For a question an `ask_user` call opens: that call's `kind`, and the question a valid call
   * asks. A step may open it too, held to the same rules.
   */
  readonly askUser?: {
    readonly kind: AskKind;
    /** The question of a valid request of that `kind` (the registry passes no other). */
    toSpec(request: AskRequest): z.output<S>;
  };
  /** For another kind a step may open: what the step's question must be. */
  readonly fromStep?: z.ZodType<z.output<S>>;
  /** The answer recorded when the interaction expires under `reject` or `default`. */
  expire(spec: z.output<S>, policy: AnsweringPolicy): z.output<A> | NoAnswer;
  /**
   * The kind's rules for an answer of the right shape, and its normalised form. Rejections name
   * the offending field (`answer.<path>`) with `INVALID_ANSWER`.
   */
  check(spec: z.output<S>, answer: z.output<I>, context: CheckContext): KindCheck<z.output<A>>;
}

/**
 * A kind's module, its types inferred from the parts (so `check` sees this kind's question and
 * parsed answer). Returns `module` itself.
 */
export function defineKind<
  const K extends string,
  S extends z.ZodObject<{ kind: z.ZodLiteral<K>; prompt: z.ZodString }>,
  A extends z.ZodObject,
  I extends IncomingSchema,
  const F extends string,
  R extends z.ZodEnum,
>(module: KindModule<K, S, A, I, F, R>): KindModule<K, S, A, I, F, R> {
  return module;
}
