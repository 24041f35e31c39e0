/**
 * The interaction kinds, in one list, and everything the rest of Cairn knows about kinds derived
 * from their modules: the question union, the answer schemas, the shape texts and keys of
 * incoming answers, the `answerRoles` schema, and the module of a kind to dispatch to (expiry
 * answers, answer checks, questions a step may open). Adding a kind is adding its module to
 * {@link KIND_MODULES}. The order is the contract's (docs/contracts.md#interactions-and-answers).
 * Pure: runs inside the workflow sandbox.
 */
import { z } from 'zod';
import { askForm } from './ask-form';
import { askQuery } from './ask-query';
import { askSelect } from './ask-select';
import { budget } from './budget';
import { deadline } from './deadline';
import type { AskKind, AskRequest } from '../ask-request-schema';
import type { KindModule } from './kind-module';
import { planCheck } from './plan-check';
import { stepFailure } from './step-failure';
import { toolApproval } from './tool-approval';

/** Every interaction kind's module. */
export const KIND_MODULES = [
  askQuery,
  askSelect,
  askForm,
  planCheck,
  toolApproval,
  stepFailure,
  budget,
  deadline,
] as const;

type Modules = typeof KIND_MODULES;
type AnyModule = Modules[number];

/*
 * Tuples of one part of each module, element by element (a mapped type over a type parameter
 * keeps a tuple a tuple): what `z.discriminatedUnion` and `z.union` take.
 */
type Kinds<T extends readonly unknown[]> = { [I in keyof T]: T[I] extends { kind: infer K } ? K : never };
type Specs<T extends readonly unknown[]> = { [I in keyof T]: T[I] extends { spec: infer S } ? S : never };
type Answers<T extends readonly unknown[]> = { [I in keyof T]: T[I] extends { answer: infer A } ? A : never };
type SpecsWith<T extends readonly unknown[], R extends z.ZodRawShape> = {
  [I in keyof T]: T[I] extends { spec: z.ZodObject<infer S> } ? z.ZodObject<S & R, z.core.$strip> : never;
};

/** The name of an interaction kind. */
export type KindName = AnyModule['kind'];

/** Each element of the module list mapped by `pick` — a tuple of the same length, typed per element. */
function mapModules<T>(pick: (module: KindModule) => unknown): T {
  // The list is a tuple of distinct types: TypeScript cannot type `map` over it, the caller names the result.
  return KIND_MODULES.map((module: KindModule) => pick(module)) as T;
}

/** Every kind's name, in the contract's order. */
export const INTERACTION_KINDS = mapModules<Kinds<Modules>>((m) => m.kind);

/** The question part of an interaction, by kind. */
export const interactionSpecSchema = z.discriminatedUnion(
  'kind',
  mapModules<Specs<Modules>>((m) => m.spec),
);

/**
 * Every kind's question with `record` added (what the state keeps around it), as the members of
 * a union on `kind`.
 */
export function specsWith<R extends z.ZodRawShape>(record: R) {
  return mapModules<SpecsWith<Modules, R>>((m) => m.spec.extend(record));
}

/** A table by kind, one value per module. */
function byKind<T extends { [M in AnyModule as M['kind']]: unknown }>(pick: (module: KindModule) => unknown): T {
  // fromEntries loses the keys' types; every kind is there, by construction.
  return Object.fromEntries(KIND_MODULES.map((module: KindModule) => [module.kind, pick(module)])) as T;
}

/** The answer each interaction kind takes, normalised as the audit record keeps it. */
export const answerSchemas = byKind<{ [M in AnyModule as M['kind']]: M['answer'] }>((m) => m.answer);

/** Any answer; which one an interaction takes follows from its kind ({@link answerSchemas}). */
export const answerSchema = z.union(mapModules<Answers<Modules>>((m) => m.answer));

/** What each kind's answer looks like, for the "not an object" message. */
export const SHAPES = byKind<Record<KindName, string>>((m) => m.incoming.shape);

/** The key every answer of a kind has: an answer without it is one of another kind (or none). */
export const KIND_KEYS = byKind<Record<KindName, string>>((m) => m.incoming.key);

type Families = { [M in AnyModule as M['answerRoles']['family']]: M['answerRoles']['roles'] };

/**
 * The agent input's `answerRoles`: a role per family of interactions (all optional) — one
 * family for the clarifying questions (`ask`), one per other kind — each among the roles its
 * kinds allow.
 */
export const answerRolesSchema = z
  .object(
    // fromEntries loses the keys' types; every family is there, by construction.
    Object.fromEntries(
      KIND_MODULES.map((module: KindModule) => [module.answerRoles.family, module.answerRoles.roles]),
    ) as Families,
  )
  .partial()
  .strict();

/** The `answerRoles` key of each interaction kind. */
export const ROLE_FAMILIES = byKind<{ [M in AnyModule as M['kind']]: M['answerRoles']['family'] }>(
  (m) => m.answerRoles.family,
);

/**
 * The kinds a step may open (the `stepInteraction` signal): the questions, held to the rules of
 * `ask_user`, and the kinds with a step schema of their own (approvals of its own calls).
 */
export const STEP_KINDS: readonly KindName[] = KIND_MODULES.filter(
  (module: KindModule) => module.askUser !== undefined || module.fromStep !== undefined,
).map((module) => module.kind);

/** The question kind each `ask_user` kind opens. */
const MODULE_BY_ASK_KIND: Partial<Record<AskKind, KindModule>> = Object.fromEntries(
  KIND_MODULES.flatMap((module: KindModule) => (module.askUser ? [[module.askUser.kind, module]] : [])),
);

/**
 * The question a valid `ask_user` request asks, by the module of the question kind it opens
 * (`ask.query`, `ask.select`, `ask.form`).
 */
export function askedSpec(request: AskRequest): z.output<KindModule['spec']> {
  const asker = MODULE_BY_ASK_KIND[request.kind]?.askUser;
  if (asker === undefined) throw new Error(`unreachable: no interaction kind opens an ask_user ${request.kind}`);
  return asker.toSpec(request);
}

const MODULE_BY_KIND = byKind<Record<KindName, KindModule>>((m) => m);

/**
 * The module of `kind`, seen as any kind's: what dispatches by kind calls (its answers are of
 * that kind, which the caller may say).
 */
export const moduleOf = (kind: KindName): KindModule => MODULE_BY_KIND[kind];

/** The module of a kind named by an untrusted string; undefined when it names no kind. */
export const findModule = (name: string): KindModule | undefined =>
  Object.hasOwn(MODULE_BY_KIND, name) ? MODULE_BY_KIND[name as KindName] : undefined;
