/** The model endpoint of OPENAI_BASE_URL / OPENAI_API_KEY (config/config.ts), served on `<task queue>-llm`. */
export const DEFAULT_ENDPOINT = 'default';

/** A named endpoint's name (CAIRN_LLM_ENDPOINTS): lower-case letters, digits and `-`, at most 64 (it is part of a task queue's name). */
export const ENDPOINT_NAME = /^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$/;

/**
 * The task queue of LLM activities for a workflow task queue (shared by workflows and workers):
 * `<task queue>-llm` for the default endpoint, `<task queue>-llm-<endpoint>` for a named one.
 */
export function llmTaskQueue(taskQueue: string, endpoint?: string): string {
  return endpoint === undefined || endpoint === DEFAULT_ENDPOINT ? `${taskQueue}-llm` : `${taskQueue}-llm-${endpoint}`;
}
