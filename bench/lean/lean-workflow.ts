/**
 * The lean Temporal baseline: the simplest correct Temporal program for Cairn's agent shapes.
 * One workflow per agent; the plan, every model call of every step, every tool call and the
 * summary are activities on the workflow's own task queue; no child workflows, no signals, no
 * queries, no validation. Steps run as soon as their dependencies are done, at most
 * `maxParallelSteps` at once. Bundled on its own (bench/lean/lean-worker.ts).
 */
import { proxyActivities } from '@temporalio/workflow';
import type { LeanActivities } from './lean-activities';
import type { LeanAgentInput, LeanAgentResult, LeanMessage, LeanPlan } from './lean-types';

const { callModel, lookup } = proxyActivities<LeanActivities>({
  startToCloseTimeout: '5 minutes',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute', maximumAttempts: 6 },
});

/** Rounds of one step: model call, then the tool it asked for, until it calls finish_step. */
async function runStep(step: LeanPlan['steps'][number]): Promise<string> {
  const messages: LeanMessage[] = [{ role: 'user', content: step.description }];
  for (;;) {
    const answer = await callModel({ purpose: 'step', stepId: step.id, messages });
    const call = answer.toolCalls[0];
    if (!call) return answer.content ?? '';
    if (call.name === 'finish_step') return call.arguments;
    messages.push({
      role: 'assistant',
      content: answer.content,
      tool_calls: [{ id: call.id, type: 'function', function: { name: call.name, arguments: call.arguments } }],
    });
    const { key } = JSON.parse(call.arguments) as { key: string };
    messages.push({ role: 'tool', tool_call_id: call.id, content: await lookup(key) });
  }
}

export { leanThread } from './lean-thread';

/** Plan, run the steps in dependency order (at most `maxParallelSteps` at once), summarise. */
export async function leanAgent(input: LeanAgentInput): Promise<LeanAgentResult> {
  const planned = await callModel({ purpose: 'plan', messages: [{ role: 'user', content: input.task }] });
  const plan = JSON.parse(planned.content ?? '{}') as LeanPlan;
  const results: Record<string, string> = {};
  const running = new Map<string, Promise<void>>();
  const pending = [...plan.steps];
  while (pending.length > 0 || running.size > 0) {
    for (const step of [...pending]) {
      if (running.size >= input.maxParallelSteps) break;
      if (!step.depends_on.every((d) => d in results)) continue;
      pending.splice(pending.indexOf(step), 1);
      running.set(
        step.id,
        runStep(step).then((result) => {
          results[step.id] = result;
          running.delete(step.id);
        }),
      );
    }
    if (running.size === 0) throw new Error('the plan has steps whose dependencies never finish');
    await Promise.race(running.values());
  }
  const summary = await callModel({
    purpose: 'summary',
    messages: [{ role: 'user', content: `Summarise: ${JSON.stringify(results)}` }],
  });
  return { steps: results, summary: summary.content ?? '' };
}
