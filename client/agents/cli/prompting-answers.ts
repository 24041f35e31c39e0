/**
 * Answers from a person at the prompt: each interaction asked with the question that fits its
 * kind (kind-prompts.ts). After a rejection the validator's message is shown and the question
 * asked again (a form: only the field the rejection named).
 */
import { readFile } from 'node:fs/promises';
import type { Interaction } from '../../../workflows/model/interactions/interaction-types';
import type { AnswerRequest, AnswerSource } from './answer-source';
import { promptFor } from './kind-prompts';
import { withSignal, type Prompter } from '../../cli/prompter';

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
    return promptFor(interaction.kind, interaction, { ask, request, lastForm: this.lastForm, readText: this.readText });
  }
}
