/**
 * The `ask_user` tool's request after validation, and the typed form field it can carry, as zod
 * schemas with their types. Kept apart from the interaction schema because both sides need them:
 * the `ask_user` rules (ask-schema.ts, validate-form.ts) produce them and the question kinds
 * (kinds/) describe what they open with them. Pure zod.
 */
import { z } from 'zod';
import { FORM_FIELD_TYPES } from './form-field-types';

/** The `kind`s of an `ask_user` call, each opening the question kind of the same name (`ask.<kind>`). */
export const ASK_KINDS = ['query', 'select', 'form'] as const;

/** A typed form field written by the LLM (`ask.form`), with only the properties its type uses. */
export const formFieldSchema = z.object({
  key: z.string(),
  label: z.string(),
  type: z.enum(FORM_FIELD_TYPES),
  required: z.boolean(),
  default: z.union([z.string(), z.number(), z.boolean(), z.array(z.string())]).optional(),
  min: z.number().optional(),
  max: z.number().optional(),
  maxLength: z.number().optional(),
  options: z.array(z.string()).optional(),
});

/** The `ask_user` tool's arguments, after validation. */
export const askRequestSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('query'), prompt: z.string() }),
  z.object({ kind: z.literal('select'), prompt: z.string(), options: z.array(z.string()), multiple: z.boolean() }),
  z.object({ kind: z.literal('form'), prompt: z.string(), fields: z.array(formFieldSchema) }),
]);

/** A typed form field written by the LLM (`ask.form`). */
export type FormField = z.infer<typeof formFieldSchema>;

/** The `ask_user` tool's arguments, after validation. */
export type AskRequest = z.infer<typeof askRequestSchema>;

/** The `kind` of an `ask_user` call. */
export type AskKind = (typeof ASK_KINDS)[number];

/** An `ask_user` request of kind `K`. */
export type AskRequestOf<K extends AskKind> = Extract<AskRequest, { kind: K }>;
