/**
 * What an interaction that outlived its timeout resolves to, by policy (docs/contracts.md#agent-input): `reject`
 * declines, `default` takes the safe default — each kind's module says what that is for it.
 * (`fail` is carried out by the asker.) Pure: unit-tested without Temporal.
 */
import type { Answer, InteractionSpec } from './interaction-types';
import type { AnsweringPolicy } from './kinds/kind-module';
import { moduleOf } from './kinds/registry';

/** The answer recorded for an expired interaction under `reject` or `default`. */
export function expiryAnswer(spec: InteractionSpec, policy: AnsweringPolicy): Answer {
  // The module of this very kind answers: an answer of its kind, or a question's "no answer".
  return moduleOf(spec.kind).expire(spec, policy) as Answer;
}
