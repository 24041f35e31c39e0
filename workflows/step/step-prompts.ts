/**
 * The words a step says to the model: its system prompt and its task message — its own
 * description plus the results of the steps it depends on, nothing else. Pure, so identical on
 * replay.
 */
import type { PlanStep } from '../plan/plan-types';
import { toolCatalogue } from '../tools/tool-catalogue';
import type { ToolInfo } from '../tools/tool-types';
import type { StepInput } from './step-types';

/** The graph node a step visits. */
type StepNode = NonNullable<StepInput['node']>;

/** System prompt of a step's ReAct loop. */
export function stepSystemPrompt(tools: ToolInfo[], canAsk: boolean, extra?: string, node?: StepNode): string {
  return [
    node
      ? nodeRole(node)
      : 'You are the executor of one step of a larger plan. Use the tools to do the step, then call finish_step with the result.',
    `Tools:\n${toolCatalogue(tools)}`,
    canAsk ? 'Call ask_user only when you cannot continue without the user.' : '',
    ...(extra ? [`Instructions from the operator:\n${extra}`] : []),
  ]
    .filter((line) => line !== '')
    .join('\n\n');
}

/** An agent graph node's role: its own system prompt, then how it hands back its result (and output). */
function nodeRole(node: StepNode): string {
  const finish = node.output
    ? 'When done, call finish_step with the result and the structured output its schema asks for.'
    : 'When done, call finish_step with the result.';
  return `${node.systemPrompt}\n\n${finish}`;
}

/** The step's own task, with the results of the steps it depends on — and nothing else. */
export function stepTaskMessage(
  task: string,
  step: PlanStep,
  dependencies: { id: string; title: string; result: string }[],
): string {
  return [
    `Overall task: ${task}`,
    `Your step (${step.id}): ${step.title}\n${step.description}`,
    ...(step.done_when
      ? [`Done when: ${step.done_when}\nWhen you finish, say in finish_step's goal_check how this holds.`]
      : []),
    ...(dependencies.length
      ? [
          'Results of the steps this one depends on:',
          ...dependencies.map((d) => `## ${d.id} · ${d.title}\n${d.result}`),
        ]
      : []),
  ].join('\n\n');
}
