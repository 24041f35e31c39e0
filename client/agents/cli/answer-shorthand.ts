/**
 * `cairn answer <id> <interactionId> <answer>`: the answer as JSON, or one word for the common
 * answers of the interaction's kind (`approve`, `reject`, `confirm`, …). The word is looked up
 * by the open interaction's kind, so it always becomes that kind's own answer shape; a word
 * that kind has no answer for is refused, naming the ones it has. Pure.
 */
import type { Interaction, InteractionKind } from '../../../workflows/model/interactions/interaction-types';
import type { AnswerOf } from '../../../workflows/model/interactions/answer-types';
import { completeAnswer } from '../complete-answer';
import { UsageError } from '../../cli/cli-exit';

/**
 * The one-word answers, by kind. Partial shapes: a `tool.approval`'s digest is filled in from the
 * interaction (complete-answer.ts). Answers that need a value (a text, a budget) have no word.
 */
export const ANSWER_SHORTHANDS: { readonly [K in InteractionKind]: Readonly<Record<string, Partial<AnswerOf<K>>>> } = {
  'tool.approval': { approve: { decision: 'approve' }, reject: { decision: 'reject' } },
  'plan.check': { confirm: { decision: 'confirm' }, cancel: { decision: 'cancel' } },
  'step.failure': { retry: { decision: 'retry' }, skip: { decision: 'skip' }, abort: { decision: 'abort' } },
  budget: { stop: { decision: 'stop' } },
  deadline: { stop: { decision: 'stop' } },
  'ask.query': {},
  'ask.select': {},
  'ask.form': {},
};

/** The answer argument as typed: JSON, or a word naming a shorthand. */
export type AnswerArgument = { json: unknown } | { shorthand: string };

/** Reads the answer argument; text that is neither JSON nor a word is a usage error. */
export function parseAnswerArgument(text: string): AnswerArgument {
  try {
    return { json: JSON.parse(text) as unknown };
  } catch (err) {
    if (/^[a-z]+$/.test(text.trim())) return { shorthand: text.trim() };
    throw new UsageError(
      `the answer is neither JSON nor a shorthand word: ${err instanceof Error ? err.message : String(err)}`,
    );
  }
}

/**
 * The answer to send to `interaction` (undefined when the agent has no interaction of that id):
 * JSON as given, a word as the kind's answer; either with an approval's digest filled in.
 * @throws UsageError for a word the interaction's kind has no answer for, or with no interaction.
 */
export function resolveAnswer(
  argument: AnswerArgument,
  interaction: Interaction | undefined,
  interactionId: string,
): unknown {
  if ('json' in argument) return interaction ? completeAnswer(interaction, argument.json) : argument.json;
  const word = argument.shorthand;
  if (!interaction) throw new UsageError(`the agent has no interaction ${interactionId}, so "${word}" answers nothing`);
  const words: Readonly<Record<string, object>> = ANSWER_SHORTHANDS[interaction.kind];
  const answer = Object.hasOwn(words, word) ? words[word] : undefined;
  if (answer === undefined) {
    const known = Object.keys(words);
    throw new UsageError(
      `"${word}" is not an answer to ${interactionId} (${interaction.kind}): ` +
        (known.length > 0 ? `use ${known.join(' or ')}, or the answer as JSON` : 'give the answer as JSON') +
        ' (cairn run --help lists the shapes)',
    );
  }
  return completeAnswer(interaction, answer);
}
