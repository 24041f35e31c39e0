/**
 * `toolCatalogueWorkflow` — the tools the workers of a task queue offer, as their `listTools`
 * activity answers: every registered tool (built-in, user module, MCP server) and the tools the
 * workflows implement, each with its JSON Schema and whether its calls need approval. The HTTP
 * API's `GET /api/tools` and `cairn tools` run it under a short execution timeout, so "no worker
 * answered" is told apart from an empty catalogue.
 */
import type { ToolInfo } from './model/tools/tool-types';
import { listTools } from './runtime/activity-proxies';

/** Workflow type of the tool catalogue (contract). */
export const TOOL_CATALOGUE_WORKFLOW_TYPE = 'toolCatalogueWorkflow';

/** The task queue's tools, as one of its workers' `listTools` answers. */
export async function toolCatalogueWorkflow(): Promise<ToolInfo[]> {
  return listTools();
}
