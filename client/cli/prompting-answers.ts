/**
 * Answers from a person at the prompt: each interaction kind rendered as the question that fits
 * it — free text, single or multiple choice, a form field by field, the plan with
 * confirm / revise / edit / cancel, a tool call with approve / reject, a failed step with retry /
 * skip / abort, a spent budget with raise / stop. After a rejection the validator's message is
 * shown and the question asked again (a form: only the field the rejection named).
 */
import { readFile } from 'node:fs/promises';
import type { Interaction } from '../../workflows/interactions/interaction-types';
import type { AnswerRequest, AnswerSource } from './answer-source';
import { askForm } from './form-answers';
import { withSignal, type Prompter } from './prompter';
import { formatApproval, formatPlan } from './render';

type Of<K extends Interaction['kind']> = Extract<Interaction, { kind: K }>;

const required = (value: string) => (value.trim() === '' ? 'required' : true);

/** Asks a person; `readText` reads an edited plan file (injected for tests). */
export class PromptingAnswers implements AnswerSource {
  private readonly lastForm = new Map<string, Record<string, unknown>>();

  constructor(
    private readonly prompter: Prompter,
    private readonly readText: (path: string) => Promise<string> = (path) => readFile(path, 'utf8'),
  ) {}

  async answer(interaction: Interaction, request: AnswerRequest): Promise<unknown> {
    const ask = withSignal(this.prompter, request.signal);
    ask.show(`\n— ${interaction.id} · ${interaction.kind}${interaction.stepId ? ` · step ${interaction.stepId}` : ''}`);
    if (request.rejection !== undefined) ask.show(`✗ rejected: ${request.rejection}`);
    switch (interaction.kind) {
      case 'ask.query':
        return { text: (await ask.text(interaction.prompt, { validate: required })).trim() };
      case 'ask.select':
        return askSelect(ask, interaction);
      case 'ask.form': {
        if (request.rejection === undefined) ask.show(interaction.prompt);
        const again = request.rejection !== undefined ? request.rejectedField : undefined;
        const answer = await askForm(ask, interaction, this.lastForm.get(interaction.id), again);
        this.lastForm.set(interaction.id, answer.values);
        return answer;
      }
      case 'plan.check':
        return this.checkPlan(ask, interaction);
      case 'tool.approval':
        return askApproval(ask, interaction);
      case 'step.failure':
        return askStepFailure(ask, interaction);
      case 'budget':
        return askBudget(ask, interaction);
      case 'deadline':
        return askDeadline(ask, interaction);
    }
  }

  /** Shows the plan; confirm, revise with feedback, edit (a JSON file or the editor) or cancel. */
  private async checkPlan(ask: Prompter, interaction: Of<'plan.check'>): Promise<unknown> {
    ask.show(`${interaction.prompt} (revision ${interaction.revision})\n${formatPlan(interaction.plan)}`);
    const decision = await ask.select('Decision', [
      { value: 'confirm', name: 'confirm — run this plan' },
      { value: 'revise', name: 'revise — give the planner feedback' },
      { value: 'edit', name: 'edit — supply a changed plan (JSON)' },
      { value: 'cancel', name: 'cancel the agent' },
    ]);
    if (decision === 'revise') return { decision, feedback: await ask.text('Feedback', { validate: required }) };
    if (decision === 'edit') return { decision, plan: await this.editedPlan(ask, interaction) };
    return { decision };
  }

  /** A changed plan read from a JSON file, or written in the editor; asks again until it parses. */
  private async editedPlan(ask: Prompter, interaction: Of<'plan.check'>): Promise<unknown> {
    for (;;) {
      const path = (await ask.text('Path to the changed plan JSON (empty: open an editor)')).trim();
      try {
        const text =
          path === ''
            ? await ask.editor('Edit the plan', JSON.stringify(interaction.plan, null, 2))
            : await this.readText(path);
        return JSON.parse(text) as unknown;
      } catch (err) {
        if (err instanceof Error && /abort|ExitPrompt/i.test(err.name)) throw err;
        ask.show(`✗ ${err instanceof Error ? err.message : String(err)}`);
      }
    }
  }
}

async function askSelect(ask: Prompter, interaction: Of<'ask.select'>): Promise<unknown> {
  const choices = interaction.options.map((value) => ({ value }));
  if (!interaction.multiple) return { values: [await ask.select(interaction.prompt, choices)] };
  const atLeastOne = (values: string[]) => (values.length > 0 ? true : 'choose at least one option');
  return { values: await ask.multiSelect(interaction.prompt, choices, { validate: atLeastOne }) };
}

async function askApproval(ask: Prompter, interaction: Of<'tool.approval'>): Promise<unknown> {
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

async function askStepFailure(ask: Prompter, interaction: Of<'step.failure'>): Promise<unknown> {
  ask.show(`${interaction.prompt}\n  error: ${interaction.error}`);
  const decision = await ask.select('What now?', [
    { value: 'retry', name: 'retry the step' },
    { value: 'skip', name: 'skip it (and the steps that depend on it)' },
    { value: 'abort', name: 'abort the agent' },
  ]);
  return { decision };
}

async function askBudget(ask: Prompter, interaction: Of<'budget'>): Promise<unknown> {
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

async function askDeadline(ask: Prompter, interaction: Of<'deadline'>): Promise<unknown> {
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
