/**
 * `plan.check`: a person checks the plan before it runs. The answer is `{ decision: confirm |
 * revise | edit | cancel, feedback?, plan? }`: `revise` needs feedback, `edit` a plan that passes
 * the plan rules (returned as they normalised it). Expired, the plan is confirmed (`default`)
 * or the agent cancelled (`reject`). Pure.
 */
import { z } from 'zod';
import { planSchema } from '../../plan/plan-schema';
import { STEERING_ROLES, accept, decision, invalid, optionalText } from './answer-rules';
import { defineKind } from './kind-module';

export const planCheck = defineKind({
  kind: 'plan.check',
  spec: z.object({ kind: z.literal('plan.check'), prompt: z.string(), plan: planSchema, revision: z.number() }),
  answer: z.object({
    decision: z.enum(['confirm', 'revise', 'edit', 'cancel']),
    feedback: z.string().optional(),
    plan: planSchema.optional(),
  }),
  incoming: {
    schema: z.object({
      decision: decision(['confirm', 'revise', 'edit', 'cancel']),
      feedback: optionalText,
      plan: z.unknown().optional(),
    }),
    shape: '{ decision: confirm | revise | edit | cancel, feedback?, plan? }',
    key: 'decision',
  },
  answerRoles: { family: 'plan.check', roles: z.enum(STEERING_ROLES) },
  expire: (_spec, policy) => ({ decision: policy === 'default' ? ('confirm' as const) : ('cancel' as const) }),
  check: (_spec, answer, { checkPlan }) => {
    const { decision, plan } = answer;
    // Blank feedback counts as none; optional keys stay absent rather than empty.
    const feedback = answer.feedback ? { feedback: answer.feedback } : {};
    if (decision === 'revise' && !('feedback' in feedback))
      return invalid('feedback', 'feedback: a revise needs feedback');
    if (decision !== 'edit') return accept({ decision, ...feedback });
    if (plan === undefined) return invalid('plan', 'plan: an edit needs the changed plan');
    const checked = checkPlan(plan);
    if (!checked.ok)
      return invalid(checked.field ? `plan.${checked.field}` : 'plan', `plan: ${checked.errors.join('; ')}`);
    return accept({ decision, plan: checked.plan, ...feedback });
  },
});
