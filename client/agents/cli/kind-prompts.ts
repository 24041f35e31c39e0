/**
 * The CLI's question for each interaction kind (docs/contracts.md#interactions-and-answers):
 * free text, single or multiple choice, a form field by field, the plan with confirm / revise /
 * edit / cancel, a tool call with approve / reject, a failed step with retry / skip / abort, a
 * spent budget with raise / stop, a reached deadline with extend / stop. The table is typed by
 * kind, so a kind without its prompt does not compile; a unit test also compares it with the
 * kinds' modules (workflows/model/interactions/kinds/) and the web page's controls.
 */
import type { Interaction, InteractionKind } from '../../../workflows/model/interactions/interaction-types';
import type { AnswerRequest } from './answer-source';
import { askForm } from './form-answers';
import type { Prompter } from '../../cli/prompter';
import { formatApproval, formatPlan } from './render';
import { formatGraph } from '../../graphs/cli/render-graph';
import { describeChanges } from '../../../workflows/model/plan/plan-changes';
import type { Graph } from '../../../workflows/model/graph/graph-schema';

type Of<K extends InteractionKind> = Extract<Interaction, { kind: K }>;

/** What a prompt has besides its interaction. */
export interface PromptContext {
  ask: Prompter;
  request: AnswerRequest;
  /** The last entries of each form, by interaction id, so a rejection re-asks only the named field. */
  lastForm: Map<string, Record<string, unknown>>;
  /** Reads an edited plan file. */
  readText: (path: string) => Promise<string>;
}

/** Asks a person for the answer to one interaction of kind `K`. */
export type KindPrompt<K extends InteractionKind> = (interaction: Of<K>, context: PromptContext) => Promise<unknown>;

const required = (value: string) => (value.trim() === '' ? 'required' : true);

/** The prompt of every interaction kind. */
export const KIND_PROMPTS: { [K in InteractionKind]: KindPrompt<K> } = {
  'ask.query': async (interaction, { ask }) => ({
    text: (await ask.text(interaction.prompt, { validate: required })).trim(),
  }),
  'ask.select': askSelect,
  'ask.form': async (interaction, { ask, request, lastForm }) => {
    if (request.rejection === undefined) ask.show(interaction.prompt);
    const again = request.rejection !== undefined ? request.rejectedField : undefined;
    const answer = await askForm(ask, interaction, lastForm.get(interaction.id), again);
    lastForm.set(interaction.id, answer.values);
    return answer;
  },
  'plan.check': checkPlan,
  'tool.approval': askApproval,
  'step.failure': askStepFailure,
  budget: askBudget,
  deadline: askDeadline,
};

/** Asks with the prompt of the interaction's kind. */
export function promptFor<K extends InteractionKind>(kind: K, interaction: Of<K>, context: PromptContext) {
  return KIND_PROMPTS[kind](interaction, context);
}

async function askSelect(interaction: Of<'ask.select'>, { ask }: PromptContext): Promise<unknown> {
  const choices = interaction.options.map((value) => ({ value }));
  if (!interaction.multiple) return { values: [await ask.select(interaction.prompt, choices)] };
  const atLeastOne = (values: string[]) => (values.length > 0 ? true : 'choose at least one option');
  return { values: await ask.multiSelect(interaction.prompt, choices, { validate: atLeastOne }) };
}

/** Shows the plan; confirm, revise with feedback, edit (a JSON file or the editor) or cancel. */
async function checkPlan(interaction: Of<'plan.check'>, context: PromptContext): Promise<unknown> {
  const { ask } = context;
  if (interaction.graph) return checkGraph(interaction, interaction.graph, context);
  // A replanned remainder's check says what the replan changed since the last confirmed plan.
  const changes = interaction.changes ? `\nsince the last check: ${describeChanges(interaction.changes)}` : '';
  const plan = interaction.plan ? formatPlan(interaction.plan) : '';
  ask.show(`${interaction.prompt} (revision ${interaction.revision})${changes}\n${plan}`);
  const decision = await ask.select('Decision', [
    { value: 'confirm', name: 'confirm — run this plan' },
    { value: 'revise', name: 'revise — give the planner feedback' },
    { value: 'edit', name: 'edit — supply a changed plan (JSON)' },
    { value: 'cancel', name: 'cancel the agent' },
  ]);
  if (decision === 'revise') return { decision, feedback: await ask.text('Feedback', { validate: required }) };
  if (decision === 'edit') return { decision, plan: await editedPlan(interaction, context) };
  return { decision };
}

/** Shows a graph agent's graph; confirm or cancel (a graph is not revised or edited at its check). */
async function checkGraph(interaction: Of<'plan.check'>, graph: Graph, { ask }: PromptContext): Promise<unknown> {
  ask.show(`${interaction.prompt}\n${formatGraph(graph)}`);
  const decision = await ask.select('Decision', [
    { value: 'confirm', name: 'confirm — run this graph' },
    { value: 'cancel', name: 'cancel the agent' },
  ]);
  return { decision };
}

/** A changed plan read from a JSON file, or written in the editor; asks again until it parses. */
async function editedPlan(interaction: Of<'plan.check'>, { ask, readText }: PromptContext): Promise<unknown> {
  for (;;) {
    const path = (await ask.text('Path to the changed plan JSON (empty: open an editor)')).trim();
    try {
      const text =
        path === ''
          ? await ask.editor('Edit the plan', JSON.stringify(interaction.plan, null, 2))
          : await readText(path);
      return JSON.parse(text) as unknown;
    } catch (err) {
      if (err instanceof Error && /abort|ExitPrompt/i.test(err.name)) throw err;
      ask.show(`✗ ${err instanceof Error ? err.message : String(err)}`);
    }
  }
}

async function askApproval(interaction: Of<'tool.approval'>, { ask }: PromptContext): Promise<unknown> {
  ask.show(`${interaction.prompt}\n${formatApproval(interaction)}`);
  const decision = await ask.select('Allow this call?', [
    { value: 'approve', name: 'approve' },
    { value: 'reject', name: 'reject (the model must find another way)' },
  ]);
  const { digest } = interaction;
  if (decision === 'approve') return { decision, digest };
  const reason = (await ask.text('Reason (optional)')).trim();
  return { decision, digest, ...(reason ? { reason } : {}) };
}

async function askStepFailure(interaction: Of<'step.failure'>, { ask }: PromptContext): Promise<unknown> {
  ask.show(`${interaction.prompt}\n  error: ${interaction.error}`);
  const decision = await ask.select('What now?', [
    { value: 'retry', name: 'retry the step' },
    { value: 'skip', name: 'skip it (and the steps that depend on it)' },
    { value: 'abort', name: 'abort the agent' },
  ]);
  return { decision };
}

async function askBudget(interaction: Of<'budget'>, { ask }: PromptContext): Promise<unknown> {
  const { costUsd, costBudgetUsd, tokenBudget: tokens } = interaction;
  const cost = typeof costUsd === 'number' ? `$${costUsd.toFixed(4)}` : 'unknown';
  ask.show(`${interaction.prompt}\n  used ${interaction.usedTokens} of ${tokens ?? '(no limit)'} tokens, cost ${cost}`);
  const decision = await ask.select('Budget', [
    { value: 'raise', name: 'raise the budget' },
    { value: 'stop', name: 'stop the agent' },
  ]);
  if (decision === 'stop') return { decision };
  if (tokens === undefined && costBudgetUsd !== undefined) {
    const spent = costUsd ?? 0;
    const more = (value: number | undefined) =>
      value !== undefined && value > spent ? true : `must be above ${spent}`;
    return { decision, costBudgetUsd: await ask.number('New cost budget (USD)', { required: true, validate: more }) };
  }
  const above = (value: number | undefined) =>
    value !== undefined && value > interaction.usedTokens ? true : `must be above ${interaction.usedTokens}`;
  const tokenBudget = await ask.number('New token budget', { required: true, validate: above });
  return { decision, tokenBudget };
}

async function askDeadline(interaction: Of<'deadline'>, { ask }: PromptContext): Promise<unknown> {
  ask.show(interaction.prompt);
  const decision = await ask.select('Deadline', [
    { value: 'extend', name: 'extend the deadline' },
    { value: 'stop', name: 'stop the agent' },
  ]);
  if (decision === 'stop') return { decision };
  const positive = (value: number | undefined) => (value !== undefined && value > 0 ? true : 'must be above 0');
  const minutes = await ask.number('Minutes more', { required: true, validate: positive });
  return { decision, deadlineMs: Math.round((minutes ?? 0) * 60_000) };
}
