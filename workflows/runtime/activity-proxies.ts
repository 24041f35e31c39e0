/**
 * The activity stubs workflows call, one per option profile. LLM calls go to their
 * own task queue, `<workflow task queue>-llm`, whose workers share one server-side rate limit
 * (`maxTaskQueueActivitiesPerSecond`): a real global LLM rate limit across every worker.
 */
import { proxyActivities, proxyLocalActivities, workflowInfo } from '@temporalio/workflow';
import type { Activities } from '../contract/activities';
import { catalogueProfile, llmProfile, previewProfile, toolProfile } from '../model/activity-profiles';
import type { LlmCallInput, LlmCallResult } from '../model/llm/llm-call-schema';
import { llmTaskQueue } from '../base/llm-task-queue';

const { callLlm } = proxyActivities<Activities>(llmProfile);
export const { runTool, listTools, decideToolCall } = proxyActivities<Activities>(toolProfile);
/** How a write awaiting approval would change its file (activities/tools/preview-call.ts). */
export const { previewToolCall } = proxyActivities<Activities>(previewProfile);
/** The tool catalogue as a local activity: it is in the worker's memory (agent/tool-catalogue.ts). */
export const { listTools: listToolsLocally, readPrompts: readPromptsLocally } =
  proxyLocalActivities<Activities>(catalogueProfile);

/** One model call on the LLM task queue, with a summary for the Temporal UI. */
export function llmCall(summary: string, input: LlmCallInput): Promise<LlmCallResult> {
  const taskQueue = llmTaskQueue(workflowInfo().taskQueue, input.model?.endpoint);
  return callLlm.executeWithOptions({ summary, taskQueue }, [input]);
}
