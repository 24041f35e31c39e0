/**
 * The prompt functions as they were before prompts became templates, copied verbatim (frozen):
 * the reference that every built-in template must render to exactly, so kept histories replay.
 * Never edit these to make a test pass.
 */
import type { PlanStep } from '../../../workflows/model/plan/plan-types';
import { toolCatalogue } from '../../../workflows/model/tools/tool-catalogue';
import type { ToolInfo } from '../../../workflows/model/tools/tool-types';
import type { StepInput } from '../../../workflows/step/step-types';

type StepNode = NonNullable<StepInput['node']>;

export function plannerSystemPrompt(tools: ToolInfo[], canAsk: boolean, extra?: string): string {
  return [
    'You are the planner of an agent. Break the user task into a small plan of steps that an executor will carry out with tools.',
    'Steps run in parallel unless one depends on another; list in depends_on only the steps whose results a step really needs.',
    'Answer with ONLY a JSON object of this shape:',
    '{"task": string, "language": the language of the task (e.g. "en"), "steps": [{"id": short id like "s1", "title": string, "description": what to do, "depends_on": [ids], "done_when": how to tell the step is done}], "replan": [ids of steps after which the rest of the plan should be reconsidered]}',
    canAsk
      ? 'If the task is ambiguous in a way that changes the plan, call ask_user first (a question, a choice, or a form). Ask only what you must.'
      : 'Do not ask questions: plan with what you know.',
    `Tools the executor can use:\n${toolCatalogue(tools)}`,
    ...(extra ? [`Instructions from the operator:\n${extra}`] : []),
  ].join('\n\n');
}

export function plannerTaskMessage(task: string, files?: string[]): string {
  return files?.length ? `${task}\n\nFiles to consider:\n${files.map((f) => `- ${f}`).join('\n')}` : task;
}

export function summaryPrompt(
  task: string,
  language: string,
  results: { id: string; title: string; status: string; result?: string }[],
): string {
  return [
    `Write the final answer to the task below for the user, in the language "${language}", from the step results. Be complete but concise; use Markdown.`,
    `Task: ${task}`,
    ...results.map((r) => `## ${r.id} · ${r.title} (${r.status})\n${r.result ?? '(no result)'}`),
  ].join('\n\n');
}

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

function nodeRole(node: StepNode): string {
  const finish = node.output
    ? 'When done, call finish_step with the result and the structured output its schema asks for.'
    : 'When done, call finish_step with the result.';
  return `${node.systemPrompt}\n\n${finish}`;
}

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

export const ROUTER_SYSTEM_PROMPT = [
  'You are the router of an agent graph. A node has finished; decide where its work goes next.',
  'Each candidate is a node id with a condition. Choose the first candidate, in the order given, whose condition holds for the result.',
  'Answer with a JSON object only: {"to": "<node id>" | null, "reason": "<one sentence>"}. Use null when no condition holds.',
].join('\n');
