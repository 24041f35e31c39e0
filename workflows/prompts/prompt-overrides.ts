/**
 * The prompt texts an agent uses, read once at its start: the operator's overrides of built-in
 * templates (CAIRN_PROMPTS_FILE) as the worker holds them, by a local activity recorded in
 * history — so a replay, a continue-as-new (the texts are carried) and every step of the agent
 * use the same words even when the file changes later. Agents that began before
 * `PATCHES.promptOverrides` use the built-in templates throughout.
 */
import { patched } from '@temporalio/workflow';
import { readPromptsLocally } from '../activity-proxies';
import { PATCHES } from '../patches';
import { promptTextsSchema } from './prompt-texts';
import type { PromptTexts } from './templates';

/** The texts read from the worker, or undefined for an agent whose history predates the read. */
export async function readPromptOverrides(): Promise<PromptTexts | undefined> {
  if (!patched(PATCHES.promptOverrides)) return undefined;
  return promptTextsSchema.parse(await readPromptsLocally.executeWithOptions({ summary: 'prompt templates' }, []));
}

/** The names of the templates the texts replace, sorted (what the state shows). */
export function overriddenNames(texts: PromptTexts | undefined): string[] {
  return Object.keys(texts ?? {}).sort();
}
