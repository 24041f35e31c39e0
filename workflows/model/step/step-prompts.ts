/**
 * The words a step says to the model: its system prompt and its task message — its own
 * description, the agent's files, and the results of the steps it depends on, nothing else. Pure, so identical on
 * replay.
 */
import type { PlanStep } from '../plan/plan-types';
import { render, type PromptTexts } from '../prompts/templates';
import { toolCatalogue } from '../tools/tool-catalogue';
import type { ToolInfo } from '../tools/tool-types';

/** What of the graph node a step visits its prompt uses (step-types.ts's `StepInput['node']`). */
interface StepNode {
  systemPrompt: string;
  output?: Record<string, unknown>;
}

/** System prompt of a step's ReAct loop (a graph node's: its own system prompt first). */
export function stepSystemPrompt(
  tools: ToolInfo[],
  canAsk: boolean,
  extra?: string,
  node?: StepNode,
  texts?: PromptTexts,
): string {
  const catalogue = toolCatalogue(tools);
  return [
    node
      ? render(
          node.output ? 'node.system_output' : 'node.system',
          { node_prompt: node.systemPrompt, tools: catalogue },
          texts,
        )
      : render('step.system', { tools: catalogue }, texts),
    ...(canAsk ? [render('step.can_ask', {}, texts)] : []),
    ...(extra ? [render('operator.instructions', { instructions: extra }, texts)] : []),
  ].join('\n\n');
}

/**
 * The step's own task, the files the agent was given (a list only when there are any, so a step
 * without files reads as it always has) and the results of the steps it depends on — nothing else.
 */
export function stepTaskMessage(
  task: string,
  step: PlanStep,
  dependencies: { id: string; title: string; result: string }[],
  texts?: PromptTexts,
  files: readonly string[] = [],
): string {
  return [
    render('step.task', { task, step_id: step.id, step_title: step.title, step_description: step.description }, texts),
    ...(step.done_when ? [render('step.done_when', { done_when: step.done_when }, texts)] : []),
    ...(files.length ? [render('step.files', { files: files.map((f) => `- ${f}`).join('\n') }, texts)] : []),
    ...(dependencies.length
      ? [render('step.dependencies', {}, texts), ...dependencies.map((d) => render('step.dependency', { ...d }, texts))]
      : []),
  ].join('\n\n');
}
