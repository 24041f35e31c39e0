/**
 * The price table: what each model costs, in US dollars per million tokens — prompt,
 * completion and cached prompt (tokens the endpoint served from its cache; the prompt price
 * when left out). Read at worker start from the JSON file `CAIRN_PRICES_FILE`:
 *
 *   { "gpt-4o-mini": { "prompt": 0.15, "completion": 0.6, "cachedPrompt": 0.075 } }
 *
 * A call to a model the table does not name has an unknown cost (never 0). Every bad entry is
 * refused with one line naming it.
 */
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { issueLines } from '../workflows/base/issue-lines';
import type { TokenUsage } from '../workflows/model/llm/llm-types';

const perMillion = z
  .number({ error: 'expected a number of US dollars per million tokens' })
  .nonnegative('must not be negative')
  .max(10_000, 'must be at most 10000 (dollars per million tokens)');

const modelPriceSchema = z
  .strictObject({ prompt: perMillion, completion: perMillion, cachedPrompt: perMillion.optional() })
  .refine((p) => p.cachedPrompt === undefined || p.cachedPrompt <= p.prompt, {
    error: 'cachedPrompt must not be above prompt',
    path: ['cachedPrompt'],
  });

/** The price table file: model name → prices. */
export const priceTableSchema = z.record(z.string().trim().min(1, 'a model name must not be empty'), modelPriceSchema);

/** Prices per million tokens of one model. */
export type ModelPrice = z.infer<typeof modelPriceSchema>;
/** Model name → prices. */
export type PriceTable = Record<string, ModelPrice>;

/** The environment variable naming the price table file. */
export const priceEnvShape = { CAIRN_PRICES_FILE: z.string().min(1).optional() };

/** Reads and checks the price table file, or says what is wrong (one line per problem). */
export function loadPriceTable(path: string | undefined): { prices: PriceTable } | { problems: string[] } {
  if (path === undefined) return { prices: {} };
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, 'utf8')) as unknown;
  } catch (err) {
    return {
      problems: [`CAIRN_PRICES_FILE: cannot read ${path}: ${err instanceof Error ? err.message : String(err)}`],
    };
  }
  const parsed = priceTableSchema.safeParse(raw);
  if (parsed.success) return { prices: parsed.data };
  return { problems: issueLines(parsed.error, '(table)').map((line) => `CAIRN_PRICES_FILE (${path}): ${line}`) };
}

/** The cost of one call's usage at `price`, in US dollars; `null` (unknown) without a price. */
export function costOf(usage: TokenUsage, price: ModelPrice | undefined): number | null {
  if (!price) return null;
  const cached = Math.min(usage.cachedPromptTokens ?? 0, usage.promptTokens);
  const dollars =
    (usage.promptTokens - cached) * price.prompt +
    cached * (price.cachedPrompt ?? price.prompt) +
    usage.completionTokens * price.completion;
  return dollars / 1_000_000;
}
