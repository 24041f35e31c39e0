/**
 * `step.failure`: a step failed under the failure policy `ask`; a person decides `{ decision:
 * retry | skip | abort }`. Expired, the step is skipped (`default`) or the agent aborted
 * (`reject`). Pure.
 */
import { z } from 'zod';
import { STEERING_ROLES, accept, decision } from './answer-rules';
import { defineKind } from './kind-module';

export const stepFailure = defineKind({
  kind: 'step.failure',
  spec: z.object({ kind: z.literal('step.failure'), prompt: z.string(), error: z.string() }),
  answer: z.object({ decision: z.enum(['retry', 'skip', 'abort']) }),
  incoming: {
    schema: z.object({ decision: decision(['retry', 'skip', 'abort']) }),
    shape: '{ decision: retry | skip | abort }',
    key: 'decision',
  },
  answerRoles: { family: 'step.failure', roles: z.enum(STEERING_ROLES) },
  expire: (_spec, policy) => ({ decision: policy === 'default' ? ('skip' as const) : ('abort' as const) }),
  check: (_spec, answer) => accept({ decision: answer.decision }),
});
