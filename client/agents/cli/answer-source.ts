/**
 * Where `cairn run` gets answers: a person at the prompt (`prompting-answers.ts`) or scripted
 * lines on stdin (`scripted-answers.ts`). The driver only sees this interface.
 */
import type { Interaction } from '../../../workflows/model/interactions/interaction-types';

/** What the driver passes with each request for an answer. */
export interface AnswerRequest {
  /** The validator's message when the previous answer to this interaction was rejected. */
  rejection?: string;
  /** The field that rejection named (`answer.values.pages`, …), read from the coded error. */
  rejectedField?: string;
  /** Aborted when the interaction stops being open or the agent ends. */
  signal?: AbortSignal;
}

/** A source of answers, asked once per open interaction (again after a rejection). */
export interface AnswerSource {
  /** The answer (docs/contracts.md#interactions-and-answers), or `undefined` when the source has no more answers. */
  answer(interaction: Interaction, request: AnswerRequest): Promise<unknown>;
}

/** Raised when scripted input ends while an interaction waits for an answer. */
export class InputEndedError extends Error {
  constructor(
    readonly agentId: string,
    readonly interaction: Interaction,
  ) {
    super(
      `input ended while ${interaction.id} (${interaction.kind}) waits for an answer; the agent keeps waiting — ` +
        `answer it with: cairn answer ${agentId} ${interaction.id} '<answer json>'`,
    );
    this.name = 'InputEndedError';
  }
}

/**
 * Fills what a script or a command line may leave out: a `tool.approval` answer without a
 * `digest` gets the interaction's digest (client/agents/complete-answer.ts, which the HTTP API uses too).
 */
export { completeAnswer } from '../complete-answer';
