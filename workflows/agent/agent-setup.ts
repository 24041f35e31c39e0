/**
 * What an agent reads from the worker once, at its start: the tool catalogue and the operator's
 * prompt texts, both local activities, recorded in history.
 *
 * Since `PATCHES.agentSetupAtOnce` both are read together, scheduled in one activation after the
 * patch call. The order matters for replay: the SDK may record a local activity's resolution in
 * a workflow task of its own, and a patch marker that then opens the next task does not match
 * its `patched()` call on replay (TMPRL1100, "patch marker … but there is no corresponding
 * change command") — so no `patched()` may follow a local activity here. Runs recorded before
 * the patch read the catalogue, then (behind `promptOverrides`) the texts, as they did.
 */
import { patched } from '@temporalio/workflow';
import { listToolsLocally, readPromptsLocally } from '../activity-proxies';
import { PATCHES } from '../patches';
import { promptTextsSchema } from '../prompts/prompt-texts';
import { readPromptOverrides } from '../prompts/prompt-overrides';
import type { PromptTexts } from '../prompts/templates';
import type { ToolInfo } from '../tools/tool-types';
import { readToolCatalogue } from './tool-catalogue';

/** The agent's tools (narrowed to its allow list) and prompt texts (undefined: the built-ins). */
export interface AgentSetup {
  tools: ToolInfo[];
  prompts?: PromptTexts;
}

/** Reads the catalogue and the prompt texts for an agent's first run. */
export async function readAgentSetup(allow: string[] | undefined): Promise<AgentSetup> {
  if (patched(PATCHES.agentSetupAtOnce)) {
    const [tools, texts] = await Promise.all([
      listToolsLocally.executeWithOptions({ summary: 'tool catalogue' }, [allow]),
      readPromptsLocally.executeWithOptions({ summary: 'prompt templates' }, []),
    ]);
    return { tools, prompts: promptTextsSchema.parse(texts) };
  }
  const tools = await readToolCatalogue(allow);
  const prompts = await readPromptOverrides();
  return prompts ? { tools, prompts } : { tools };
}
