/**
 * `plan.check`: a person checks the plan before it runs. The answer is `{ decision: confirm |
 * revise | edit | cancel, feedback?, plan? }`: `revise` needs feedback, `edit` a plan that passes
 * the plan rules (returned as they normalised it). Expired, the plan is confirmed (`default`)
 * or the agent cancelled (`reject`). A graph agent's check shows its graph and takes only the
 * `decisions` it lists (`confirm`, `cancel`). Pure.
 */
import { z } from 'zod';
import { planSchema } from '../../plan/plan-schema';
import { graphSchema } from '../../graph/graph-schema';
import { STEERING_ROLES, accept, decision, invalid, optionalText } from './answer-rules';
import { defineKind } from './kind-module';

/** Every decision of a plan check. */
export const PLAN_CHECK_DECISIONS = ['confirm', 'revise', 'edit', 'cancel'] as const;

export const planCheck = defineKind({
  kind: 'plan.check',
  spec: z.object({
    kind: z.literal('plan.check'),
    prompt: z.string(),
    /** The plan to check; absent when a graph is checked. */
    plan: planSchema.optional(),
    revision: z.number(),
    /** A graph agent's graph, checked instead of a plan (nodes, conditions, bounds). */
    graph: graphSchema.optional(),
    /** A replanned remainder's check: what the replan changed since the plan last confirmed. */
    changes: z
      .object({ added: z.array(z.string()), removed: z.array(z.string()), changed: z.array(z.string()) })
      .optional(),
    /** The decisions this check takes, when not all of them: a graph's is `confirm` or `cancel`. */
    decisions: z.array(z.enum(PLAN_CHECK_DECISIONS)).optional(),
  }),
  answer: z.object({
    decision: z.enum(PLAN_CHECK_DECISIONS),
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
  check: (spec, answer, { checkPlan }) => {
    const { decision, plan } = answer;
    if (spec.decisions && !spec.decisions.includes(decision))
      return invalid(
        'decision',
        `decision: this check takes ${spec.decisions.join(' or ')} (a graph cannot be revised or edited here)`,
      );
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
