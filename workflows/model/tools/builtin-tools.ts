/**
 * Built-in tools that workflows carry out themselves, because they are LLM calls or child
 * workflows rather than plain activities: `model` (a sub-call with its own system prompt) and
 * `sub_agent` (a nested agent that plans and executes, never waiting for a plan check).
 */
import { z } from 'zod';
import type { LlmToolSpec } from '../llm/llm-types';
import type { ToolInfo } from './tool-types';

export const modelArgsSchema = z.object({
  task: z.string().min(1).describe('What the model should do or answer'),
  systemPrompt: z.string().optional().describe('Its own system prompt, e.g. a role or an output format'),
});

export const subAgentArgsSchema = z.object({
  task: z.string().min(1).describe('A self-contained task for a nested agent, which plans and executes it'),
});

function info(name: string, description: string, schema: z.ZodType): ToolInfo & LlmToolSpec {
  const parameters = z.toJSONSchema(schema) as Record<string, unknown>;
  return { name, description, effect: 'read', idempotent: true, needsApproval: false, parameters };
}

/**
 * Workflow-run built-ins, by name, as the tool catalogue and the model see them. Built on
 * demand (activities and the CLI need them; workflow code only needs the argument schemas).
 */
export function workflowBuiltins(): Record<string, ToolInfo & LlmToolSpec> {
  return {
    model: info(
      'model',
      'Ask a language model a separate question with its own instructions (e.g. translate, classify, draft) and get its answer.',
      modelArgsSchema,
    ),
    sub_agent: info(
      'sub_agent',
      'Hand a larger self-contained task to a nested agent that makes its own plan and returns its final answer.',
      subAgentArgsSchema,
    ),
  };
}
