/**
 * The summary: the model writes the final answer from the step results in the
 * plan's language; if that call fails, a mechanical summary (each step, status, result) is
 * used instead, so a finished agent always has an answer.
 */
import { stageModel, withModel } from '../model/llm/model-stages';
import { ActivityFailure } from '@temporalio/workflow';
import { llmCall } from '../runtime/activity-proxies';
import type { AgentRun } from './agent-run';
import { mechanicalSummary, summaryPrompt } from '../model/agent/prompts';

export async function summarize(run: AgentRun): Promise<string> {
  const { state, settings } = run;
  const results = state.steps.map((s) => ({
    id: s.id,
    title: s.title,
    status: s.status,
    ...(s.result !== undefined ? { result: s.result } : {}),
    ...(s.error !== undefined ? { error: s.error } : {}),
  }));
  run.conversations.append('summary', {
    role: 'user',
    content: summaryPrompt(state.plan?.task ?? settings.task, state.plan?.language ?? 'en', results, run.prompts),
  });
  // Paused or over budget: no new model call (no await at all when free: replay stays the same).
  if (run.hold.held()) await run.hold.whenFree();
  try {
    const reply = await llmCall('summary', {
      purpose: 'summary',
      ownerId: run.agentId,
      ...run.conversations.input('summary'),
      ...withModel(stageModel(settings.model, settings.modelStages, 'summary')),
    });
    run.meter.add(reply.usage);
    for (const notice of reply.notices ?? []) run.event({ type: 'llm.notice', message: `summary: ${notice}` });
    if (reply.finishReason === 'length') {
      run.event({ type: 'llm.cut', message: 'summary: the reply was cut at its token limit; it is kept as it is' });
    }
    if (reply.content?.trim()) {
      run.event({ type: 'summary', message: 'summary written by the model' });
      return reply.content.trim();
    }
  } catch (err) {
    if (!(err instanceof ActivityFailure)) throw err;
  }
  run.event({ type: 'summary', message: 'summary call failed: mechanical summary used' });
  return mechanicalSummary(results);
}
