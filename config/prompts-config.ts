/**
 * A prompt overrides file: a JSON object, built-in template name → the text to use instead
 * (workflows/model/prompts/templates.ts). Read and checked in full before use, so a bad file can stop
 * the worker with one line naming the file, the template and the variable instead of surfacing
 * in a model call. Read at start from `CAIRN_PROMPTS_FILE` (config/config.ts); each agent reads the
 * worker's texts once, at its start, and keeps them for its whole life (workflows/model/prompts/prompt-overrides.ts).
 */
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { promptOverrideProblem } from '../workflows/model/prompts/check-overrides';
import type { PromptTexts } from '../workflows/model/prompts/templates';

/** The environment variable naming the overrides file. */
export const promptsEnvShape = { CAIRN_PROMPTS_FILE: z.string().min(1).optional() };

const overridesSchema = z.record(z.string(), z.string());

/** Reads and checks an overrides file: its texts, or the one line that says what is wrong. */
export function loadPromptsFile(path: string): { texts: PromptTexts } | { problem: string } {
  const where = `CAIRN_PROMPTS_FILE (${path})`;
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    return { problem: `${where}: cannot read it: ${err instanceof Error ? err.message : String(err)}` };
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    return { problem: `${where}: not JSON: ${err instanceof Error ? err.message : String(err)}` };
  }
  const parsed = overridesSchema.safeParse(json);
  if (!parsed.success) return { problem: `${where}: must be a JSON object of template name → text` };
  const problem = promptOverrideProblem(parsed.data);
  // Checked: every key is a template name, so the record is the texts.
  return problem === undefined ? { texts: parsed.data } : { problem: `${where}: ${problem}` };
}

/** The overrides named by `CAIRN_PROMPTS_FILE`: none when unset, else the file's texts or its one problem line. */
export function promptOverridesFrom(path: string | undefined): { texts: PromptTexts } | { problem: string } {
  return path === undefined ? { texts: {} } : loadPromptsFile(path);
}
