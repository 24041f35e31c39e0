/**
 * The price table: validation of CAIRN_PRICES_FILE (one line per bad entry) and the cost of a
 * call's usage, cached prompt tokens included; no price → unknown (null), never 0.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, loadConfig } from '../../config/config';
import { costOf, loadPriceTable } from '../../config/price-config';
import { addUsage, zeroUsage } from '../../workflows/model/llm/usage';

function file(content: string): string {
  const path = join(mkdtempSync(join(tmpdir(), 'prices-')), 'prices.json');
  writeFileSync(path, content);
  return path;
}

test('a valid table is read; no file means an empty table', () => {
  const path = file(JSON.stringify({ 'gpt-4o-mini': { prompt: 0.15, completion: 0.6, cachedPrompt: 0.075 } }));
  expect(loadPriceTable(path)).toEqual({
    prices: { 'gpt-4o-mini': { prompt: 0.15, completion: 0.6, cachedPrompt: 0.075 } },
  });
  expect(loadPriceTable(undefined)).toEqual({ prices: {} });
  expect(loadConfig({ CAIRN_PRICES_FILE: path }).prices['gpt-4o-mini']?.completion).toBe(0.6);
});

test('bad tables are refused, naming the entry and the rule', () => {
  const problems = (content: string) => {
    const loaded = loadPriceTable(file(content));
    return 'problems' in loaded ? loaded.problems.join('\n') : 'accepted';
  };
  expect(problems('{ not json')).toMatch(/CAIRN_PRICES_FILE: cannot read/);
  expect(problems(JSON.stringify({ m: { prompt: -1, completion: 1 } }))).toMatch(/m\.prompt: must not be negative/);
  expect(problems(JSON.stringify({ m: { prompt: 1 } }))).toMatch(/m\.completion/);
  expect(problems(JSON.stringify({ m: { prompt: 1, completion: 1, cachedPrompt: 2 } }))).toMatch(
    /m\.cachedPrompt: cachedPrompt must not be above prompt/,
  );
  expect(problems(JSON.stringify({ m: { prompt: 1, completion: 1, extra: 1 } }))).not.toBe('accepted');
  expect(() => loadConfig({ CAIRN_PRICES_FILE: file('[]') })).toThrow(ConfigError);
});

test('cost of a call: prompt, cached prompt and completion at their prices; unknown without a price', () => {
  const price = { prompt: 2, completion: 8, cachedPrompt: 1 };
  const usage = { promptTokens: 1000, completionTokens: 100, totalTokens: 1100, cachedPromptTokens: 400 };
  expect(costOf(usage, price)).toBeCloseTo((600 * 2 + 400 * 1 + 100 * 8) / 1e6, 12);
  expect(costOf(usage, { prompt: 2, completion: 8 })).toBeCloseTo((1000 * 2 + 100 * 8) / 1e6, 12);
  expect(costOf(usage, undefined)).toBeNull();
});

test('sums: known + known is known; anything + unknown stays unknown', () => {
  const total = zeroUsage();
  addUsage(total, { promptTokens: 1, completionTokens: 1, totalTokens: 2, costUsd: 0.5 });
  expect(total.costUsd).toBe(0.5);
  addUsage(total, { promptTokens: 1, completionTokens: 1, totalTokens: 2, costUsd: null });
  expect(total.costUsd).toBeNull();
  addUsage(total, { promptTokens: 1, completionTokens: 1, totalTokens: 2, costUsd: 1 });
  expect(total.costUsd).toBeNull();
  expect(total.totalTokens).toBe(6);
});
