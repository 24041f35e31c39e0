/**
 * What the scripted planner and steps say in agent tests: a plan of steps with defaults, the
 * planner's reply carrying it, and a step's reply that finishes it.
 */
import type { Plan, PlanStep } from '../../workflows/model/plan/plan-types';
import { reply } from '../fake-llm/replies';

/** A step with defaults. */
export function step(id: string, dependsOn: string[] = [], extra: Partial<PlanStep> = {}): PlanStep {
  return { id, title: `Step ${id}`, description: `Do ${id}`, depends_on: dependsOn, ...extra };
}

/** A plan of `steps`. */
export function plan(steps: PlanStep[], extra: Partial<Plan> = {}): Plan {
  return { task: 'test task', language: 'en', steps, replan: [], ...extra };
}

/** The planner's reply carrying `value` as JSON content. */
export const planReply = (value: Plan) => reply.json(value);

/** A step's reply finishing with `result`. */
export const finish = (result: string) => reply.toolCall('finish_step', { result });
