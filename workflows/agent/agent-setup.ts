/**
 * What an agent reads from the worker once, at its start: the tool catalogue and the operator's
 * prompt texts, both local activities, recorded in history.
 *
 * Since `PATCHES.agentSetupAtOnce` both are read together, scheduled in one activation after the
 * patch call: a local activity runs inside the workflow task that asked for it, so the planner's
 * first model call is scheduled in that same task. No `patched()` may follow a local activity
 * here: the SDK may record a local activity's resolution in a workflow task of its own, and a
 * patch marker that then opens the next task does not match its call on replay (TMPRL1100).
 * Runs of released versions (0.3.0 and before) read the catalogue by a scheduled activity and
 * used the built-in templates; they replay that path.
 */
import { patched } from '@temporalio/workflow';
import { listTools, listToolsLocally, readPromptsLocally } from '../runtime/activity-proxies';
import { PATCHES } from '../base/patches';
import { promptTextsSchema } from '../model/prompts/prompt-texts';
import type { PromptTexts } from '../model/prompts/templates';
import type { ToolInfo } from '../model/tools/tool-types';

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
  return { tools: await listTools.executeWithOptions({ summary: 'tool catalogue' }, [allow]) };
}
