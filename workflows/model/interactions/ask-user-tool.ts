/**
 * The `ask_user` tool as the model is offered it (its JSON Schema derived from the zod schema of
 * its arguments, never written twice), and the interaction a valid request opens. Pure.
 */
import { z } from 'zod';
import { askArgsSchema } from './ask-schema';
import type { AskRequest, InteractionSpec } from './interaction-types';
import { askedSpec } from './kinds/registry';

/** A function tool as offered to an OpenAI-compatible model. */
export interface AskUserTool {
  name: 'ask_user';
  description: string;
  /** JSON Schema of the arguments (input side: fields with defaults are optional). */
  parameters: Record<string, unknown>;
}

/**
 * The `ask_user` tool definition; `parameters` is `z.toJSONSchema(askArgsSchema, { io: 'input' })`.
 * Built on demand: only the LLM activity needs it, and workflow modules load once per workflow.
 */
export const askUserTool = (): AskUserTool => ({
  name: 'ask_user',
  description: [
    'Ask the human a question and wait for the answer, which comes back as this tool result.',
    'Ask only for what you cannot find out with other tools or decide sensibly yourself:',
    'missing requirements, a choice between materially different approaches, preferences.',
    'Questions are limited, so ask everything you need in one call.',
    'Kinds: "query" — a free-text question (prompt only);',
    '"select" — the human picks from 2 to 20 distinct `options` (set `multiple` to allow several);',
    '"form" — several typed `fields` at once (input, textarea, number, select, multiselect, boolean, date),',
    'each with a unique `key`; the answer is an object keyed by field key.',
  ].join(' '),
  parameters: z.toJSONSchema(askArgsSchema, { io: 'input' }),
});

/** Maps a valid `ask_user` request to the interaction it opens (`ask.query` / `ask.select` / `ask.form`). */
export function toInteractionSpec(request: AskRequest): InteractionSpec {
  // The module of the question kind this request opens built it: a question of that kind.
  return askedSpec(request) as InteractionSpec;
}
