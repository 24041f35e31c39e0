/** The task queue of LLM activities for a workflow task queue (shared by workflows and workers). */
export function llmTaskQueue(taskQueue: string): string {
  return `${taskQueue}-llm`;
}
