/**
 * `cairn answer`'s answer argument (client/agents/cli/answer-shorthand.ts): JSON as given, or one word
 * turned into the open interaction's own answer shape — approve/reject for a tool approval (its
 * digest filled in), confirm/cancel for a plan check, retry/skip/abort for a failed step, stop for
 * a budget or deadline; a word the kind has no answer for is refused, naming the ones it has.
 */
import type { Interaction } from '../../workflows/model/interactions/interaction-types';
import { parseAnswerArgument, resolveAnswer } from '../../client/agents/cli/answer-shorthand';
import { UsageError } from '../../client/cli/cli-exit';

const approval = { id: 'i2', kind: 'tool.approval', digest: 'sha256:abc' } as unknown as Interaction;
const check = { id: 'i1', kind: 'plan.check' } as unknown as Interaction;
const failure = { id: 'i3', kind: 'step.failure' } as unknown as Interaction;
const budget = { id: 'i4', kind: 'budget' } as unknown as Interaction;
const query = { id: 'i5', kind: 'ask.query' } as unknown as Interaction;

const answer = (text: string, interaction: Interaction | undefined) =>
  resolveAnswer(parseAnswerArgument(text), interaction, interaction?.id ?? 'i9');

test('a word becomes the kind’s own answer', () => {
  expect(answer('approve', approval)).toEqual({ decision: 'approve', digest: 'sha256:abc' });
  expect(answer('reject', approval)).toEqual({ decision: 'reject', digest: 'sha256:abc' });
  expect(answer('confirm', check)).toEqual({ decision: 'confirm' });
  expect(answer('cancel', check)).toEqual({ decision: 'cancel' });
  expect(answer('skip', failure)).toEqual({ decision: 'skip' });
  expect(answer('stop', budget)).toEqual({ decision: 'stop' });
});

test('JSON is sent as given, an approval’s digest filled in as before', () => {
  expect(answer('{"decision":"revise","feedback":"shorter"}', check)).toEqual({
    decision: 'revise',
    feedback: 'shorter',
  });
  expect(answer('{"decision":"reject","reason":"no"}', approval)).toEqual({
    decision: 'reject',
    reason: 'no',
    digest: 'sha256:abc',
  });
  expect(answer('{"text":"engineers"}', undefined)).toEqual({ text: 'engineers' });
});

test('a word the kind has no answer for is refused, naming the ones it has', () => {
  expect(() => answer('approve', check)).toThrow(
    new UsageError(
      '"approve" is not an answer to i1 (plan.check): use confirm or cancel, or the answer as JSON (cairn run --help lists the shapes)',
    ),
  );
  expect(() => answer('confirm', query)).toThrow(
    '"confirm" is not an answer to i5 (ask.query): give the answer as JSON (cairn run --help lists the shapes)',
  );
  expect(() => answer('constructor', approval)).toThrow('"constructor" is not an answer to i2');
  expect(() => answer('approve', undefined)).toThrow('the agent has no interaction i9, so "approve" answers nothing');
  expect(() => answer('{oops', check)).toThrow(UsageError);
});
