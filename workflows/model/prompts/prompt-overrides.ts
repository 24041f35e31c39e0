/**
 * The prompt texts an agent uses are read once at its start (agent/agent-setup.ts): the
 * operator's overrides of built-in templates (CAIRN_PROMPTS_FILE) as the worker holds them, by a
 * local activity recorded in history — so a replay, a continue-as-new (the texts are carried)
 * and every step of the agent use the same words even when the file changes later. Agents of
 * released versions (0.3.0 and before) use the built-in templates throughout.
 */
import type { PromptTexts } from './templates';

/** The names of the templates the texts replace, sorted (what the state shows). */
export function overriddenNames(texts: PromptTexts | undefined): string[] {
  return Object.keys(texts ?? {}).sort();
}
