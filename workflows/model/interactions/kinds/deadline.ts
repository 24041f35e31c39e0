/**
 * `deadline`: the agent's deadline was reached under `onDeadline: "ask"`. The answer is
 * `{ decision: extend | stop, deadlineMs? }`: `extend` needs `deadlineMs`, how much longer from
 * now. Expired, the agent stops. Pure.
 */
import { z } from 'zod';
import { STEERING_ROLES, accept, decision, expected, invalid } from './answer-rules';
import { defineKind } from './kind-module';

export const deadline = defineKind({
  kind: 'deadline',
  spec: z.object({
    kind: z.literal('deadline'),
    prompt: z.string(),
    /** The deadline that was reached (workflow time, ms since the epoch). */
    deadlineAt: z.number(),
  }),
  answer: z.object({ decision: z.enum(['extend', 'stop']), deadlineMs: z.number().optional() }),
  incoming: {
    schema: z.object({
      decision: decision(['extend', 'stop']),
      deadlineMs: z.number(expected('a number')).int('must be a whole number').positive('must be positive').optional(),
    }),
    shape: '{ decision: extend | stop, deadlineMs? }',
    key: 'decision',
  },
  answerRoles: { family: 'deadline', roles: z.enum(STEERING_ROLES) },
  expire: () => ({ decision: 'stop' as const }),
  check: (_spec, { decision, deadlineMs }) => {
    if (decision === 'stop') return accept({ decision });
    if (deadlineMs === undefined) return invalid('deadlineMs', 'deadlineMs: an extension needs how long (ms from now)');
    return accept({ decision, deadlineMs });
  },
});
