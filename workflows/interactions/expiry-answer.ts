/**
 * What an interaction that outlived its timeout resolves to, by policy (docs/contracts.md#agent-input): `reject`
 * declines, `default` takes the safe default. (`fail` is carried out by the asker.)
 * Pure: unit-tested without Temporal.
 */
import type { Answer, InteractionSpec } from './interaction-types';

const NO_ANSWER: Answer = { text: '(no answer: the question expired)' };

/** The answer recorded for an expired interaction under `reject` or `default`. */
export function expiryAnswer(spec: InteractionSpec, policy: 'reject' | 'default'): Answer {
  switch (spec.kind) {
    case 'tool.approval':
      return { decision: 'reject', digest: spec.digest, reason: 'nobody approved it in time' };
    case 'plan.check':
      return { decision: policy === 'default' ? 'confirm' : 'cancel' };
    case 'step.failure':
      return { decision: policy === 'default' ? 'skip' : 'abort' };
    case 'budget':
    case 'deadline':
      return { decision: 'stop' };
    case 'ask.form': {
      if (policy !== 'default') return NO_ANSWER;
      const defaults = spec.fields.flatMap((f) => (f.default === undefined ? [] : [[f.key, f.default] as const]));
      return { values: Object.fromEntries(defaults) };
    }
    case 'ask.query':
    case 'ask.select':
      return NO_ANSWER;
  }
}
