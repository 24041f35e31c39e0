/**
 * The words Cairn says to the model: planner, step and summary prompts, and the correction
 * and tool-result messages. Pure functions of their inputs, so prompts are testable and
 * identical on replay.
 */
import type { Plan } from '../plan/plan-types';
import type { ReusableStep } from '../plan/plan-reuse';
import { render, type PromptTexts } from '../prompts/templates';
import { toolCatalogue } from '../tools/tool-catalogue';
import type { ToolInfo } from '../tools/tool-types';

/** System prompt of the planner; `texts` replace built-in templates (the operator's overrides). */
export function plannerSystemPrompt(tools: ToolInfo[], canAsk: boolean, extra?: string, texts?: PromptTexts): string {
  return [
    render(
      'planner.system',
      {
        ask_rule: render(canAsk ? 'planner.can_ask' : 'planner.cannot_ask', {}, texts),
        tools: toolCatalogue(tools),
      },
      texts,
    ),
    ...(extra ? [render('operator.instructions', { instructions: extra }, texts)] : []),
  ].join('\n\n');
}

/** The first user message of a planner conversation. */
export function plannerTaskMessage(task: string, files?: string[], texts?: PromptTexts): string {
  return files?.length
    ? render('planner.task_files', { task, files: files.map((f) => `- ${f}`).join('\n') }, texts)
    : task;
}

/** How much of an offered step's result the planner's list shows (the task carries the turns in full). */
const REUSABLE_PREVIEW_CHARS = 300;

/**
 * The planner's task message in a thread's turn: the task message, then the earlier turns'
 * finished steps it may adopt with `reuse` (plan-reuse.ts); without any, the task message alone.
 */
export function plannerTurnMessage(
  task: string,
  files: string[] | undefined,
  reusable: readonly ReusableStep[] = [],
  texts?: PromptTexts,
): string {
  const message = plannerTaskMessage(task, files, texts);
  if (reusable.length === 0) return message;
  const steps = reusable.map((r) => {
    const result =
      r.result.length > REUSABLE_PREVIEW_CHARS ? `${r.result.slice(0, REUSABLE_PREVIEW_CHARS)} …` : r.result;
    return render('planner.reusable_step', { agent_id: r.agentId, step_id: r.stepId, title: r.title, result }, texts);
  });
  return `${message}\n\n${render('planner.reusable', { steps: steps.join('\n') }, texts)}`;
}

/** Tells the planner what was wrong with its last plan. */
export function planCorrectionMessage(errors: string[]): string {
  return `That plan cannot be used:\n${errors.map((e) => `- ${e}`).join('\n')}\nReturn the corrected plan as a JSON object only.`;
}

/** Tells the planner its reply was cut at its token limit before it ended. */
export function cutReplyError(): string {
  return 'your reply was cut at its token limit before it ended; answer again, shorter: fewer steps, brief titles and descriptions';
}

/**
 * What stays in the planner's conversation of a rejected reply: a short note instead of the
 * reply itself, so a long bad plan is not re-sent with every later call (it overflowed contexts).
 */
export function rejectedReplyNote(content: string | null): string {
  return `(a reply that could not be used, ${content?.length ?? 0} characters, left out here; the problems follow)`;
}

/** The human's requested changes to the proposed plan. */
export function planRevisionMessage(feedback: string): string {
  return `The user reviewed the plan and asks for changes:\n${feedback}\nReturn the revised plan as a JSON object only.`;
}

/** Asks for the remaining steps after some have run. */
export function replanMessage(
  plan: Plan,
  results: { id: string; title: string; status: string; result?: string }[],
): string {
  return [
    'Some steps have run. Their results:',
    ...results.map((r) => `## ${r.id} · ${r.title} (${r.status})\n${r.result ?? '(no result)'}`),
    `The current plan:\n${JSON.stringify(plan)}`,
    'Return a JSON plan of the steps that remain to be done (the same shape as before). Do not repeat the finished steps; new steps may depend on them by id.',
  ].join('\n\n');
}

/** Prompt of the final summary. */
export function summaryPrompt(
  task: string,
  language: string,
  results: { id: string; title: string; status: string; result?: string }[],
  texts?: PromptTexts,
): string {
  return [
    render('summary.prompt', { language, task }, texts),
    ...results.map((r) =>
      render(
        'summary.result',
        { id: r.id, title: r.title, status: r.status, result: r.result ?? '(no result)' },
        texts,
      ),
    ),
  ].join('\n\n');
}

/**
 * The answer used when the summary call fails or the agent was stopped: each step, its status
 * and result — for a step cancelled with a partial result, that, marked as partial.
 */
export function mechanicalSummary(
  results: { id: string; title: string; status: string; result?: string; error?: string; partial?: string }[],
): string {
  return results
    .map((r) =>
      r.partial !== undefined && r.result === undefined
        ? `### ${r.title} (${r.status}, partial result)\n${r.partial}`
        : `### ${r.title} (${r.status})\n${r.result ?? r.error ?? '(no result)'}`,
    )
    .join('\n\n');
}
