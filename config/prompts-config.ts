/**
 * A prompt overrides file: a JSON object, built-in template name → the text to use instead
 * (workflows/prompts/templates.ts). Read and checked in full before use, so a bad file can stop
 * the worker with one line naming the file, the template and the variable instead of surfacing
 * in a model call. Not yet read from the environment: the workflows cannot receive overrides yet.
 */
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { promptOverrideProblem } from '../workflows/prompts/check-overrides';
import type { PromptTexts } from '../workflows/prompts/templates';

const overridesSchema = z.record(z.string(), z.string());

/** Reads and checks an overrides file: its texts, or the one line that says what is wrong. */
export function loadPromptsFile(path: string): { texts: PromptTexts } | { problem: string } {
  const where = `prompts file ${path}`;
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
