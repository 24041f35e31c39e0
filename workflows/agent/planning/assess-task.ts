/**
 * `mode.assess`: one cheap `assess` call before planning judges the task simple, moderate or
 * complex, recorded in `state.assessment` and on the timeline. An unreadable reply counts as
 * moderate (plan as usual). The planner of a complex task thinks harder (`reasoning_effort:
 * high` where the endpoint takes it).
 */
import { stageModel } from '../../model/llm/model-stages';
import { llmCall } from '../../runtime/activity-proxies';
import type { ModelSettings } from '../../model/llm/llm-types';
import { ASSESSOR_SYSTEM_PROMPT, readAssessReply, type Complexity } from '../../model/plan/assess-reply';
import type { AgentRun } from '../agent-run';
import { noteModel, noteStreaming } from '../../model/agent/agent-state';
import { plannerTaskMessage } from '../../model/agent/prompts';

/** The task's complexity, assessed once and recorded. */
export async function assessTask(run: AgentRun): Promise<Complexity> {
  const { settings, state } = run;
  if (run.hold.held()) await run.hold.whenFree();
  const reply = await llmCall('assess', {
    purpose: 'assess',
    ownerId: run.agentId,
    messages: [
      { role: 'system', content: ASSESSOR_SYSTEM_PROMPT },
      { role: 'user', content: plannerTaskMessage(settings.task, settings.files, run.prompts) },
    ],
    json: true,
    schema: 'assess',
    ...(settings.model ? { model: settings.model } : {}),
  });
  run.meter.add(reply.usage);
  noteModel(state, reply.model);
  noteStreaming(state, reply.streamed);
  const judged = readAssessReply(reply.content);
  const complexity = judged ?? 'moderate';
  state.assessment = { complexity };
  const how = { simple: 'one step, no plan', moderate: 'plan', complex: 'plan with reasoning turned up' }[complexity];
  run.event({
    type: 'task.assessed',
    message: `${complexity}${judged ? '' : ' (the reply could not be read)'}: ${how}`,
  });
  return complexity;
}

/** The planner's model settings: the agent's, with reasoning turned up for a complex task. */
export function plannerModel(run: AgentRun): ModelSettings | undefined {
  const model = stageModel(run.settings.model, run.settings.modelStages, 'plan');
  if (run.state.assessment?.complexity !== 'complex') return model;
  return { ...model, reasoningEffort: model?.reasoningEffort ?? 'high' };
}
