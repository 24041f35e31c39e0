/**
 * Per-model LLM settings, from the JSON in `CAIRN_LLM_MODELS`: the reply budget (`max_tokens`)
 * per purpose, and the capabilities pinned for a model instead of learned from the endpoint's
 * refusals. `"*"` applies to every model; a model's own entry wins field by field:
 *
 *   { "*": { "maxTokens": { "step": 1024 } },
 *     "gemma3": { "responseFormat": "json_object", "strict": false, "tools": true } }
 *
 * Every bad entry is refused with one line naming it.
 */
import { z } from 'zod';
import { issueLines } from '../workflows/base/issue-lines';

const tokens = z
  .number({ error: 'expected a number of tokens' })
  .int('expected a whole number')
  .positive('expected a number above 0');

/** `max_tokens` per purpose of a call (docs/contracts.md#llm-protocol). */
const maxTokensSchema = z.strictObject({
  plan: tokens.optional(),
  replan: tokens.optional(),
  step: tokens.optional(),
  summary: tokens.optional(),
  model: tokens.optional(),
  route: tokens.optional(),
  verify: tokens.optional(),
  assess: tokens.optional(),
  chat: tokens.optional(),
  'route-message': tokens.optional(),
  compress: tokens.optional(),
  title: tokens.optional(),
});

/** How far structured output goes: a JSON Schema, any JSON object, or plain text read tolerantly. */
export const RESPONSE_FORMATS = ['json_schema', 'json_object', 'text'] as const;

/** One model's settings; every field optional. */
export const llmModelSettingsSchema = z.strictObject({
  maxTokens: maxTokensSchema.optional(),
  /** The best response format the endpoint takes for this model. */
  responseFormat: z.enum(RESPONSE_FORMATS).optional(),
  /** Whether `strict: true` may be sent (on the JSON Schema and on tools). */
  strict: z.boolean().optional(),
  /** Whether the endpoint passes tools on to this model (false: warn, steps cannot call tools). */
  tools: z.boolean().optional(),
});

/** Settings of one model. */
export type LlmModelSettings = z.infer<typeof llmModelSettingsSchema>;
/** Model name (or `*`) → settings. */
export type LlmModelTable = Record<string, LlmModelSettings>;

/** The environment variable holding the table. */
export const llmModelsEnvShape = { CAIRN_LLM_MODELS: z.string().min(1).optional() };

/** Reads and checks the table, or says what is wrong (one line per problem). */
export function loadLlmModels(text: string | undefined): { models: LlmModelTable } | { problems: string[] } {
  if (text === undefined) return { models: {} };
  let raw: unknown;
  try {
    raw = JSON.parse(text) as unknown;
  } catch (err) {
    return { problems: [`CAIRN_LLM_MODELS: expected JSON, ${err instanceof Error ? err.message : String(err)}`] };
  }
  const parsed = z
    .record(z.string().trim().min(1, 'a model name must not be empty'), llmModelSettingsSchema)
    .safeParse(raw);
  if (parsed.success) return { models: parsed.data };
  return { problems: issueLines(parsed.error, '(table)').map((line) => `CAIRN_LLM_MODELS: ${line}`) };
}

/** The settings that apply to `model`: its own entry over the `*` entry. */
export function settingsFor(table: LlmModelTable, model: string): LlmModelSettings {
  const all = table['*'] ?? {};
  const own = table[model] ?? {};
  return { ...all, ...own, maxTokens: { ...all.maxTokens, ...own.maxTokens } };
}
