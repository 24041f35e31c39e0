/**
 * Step failures keep their codes end to end: a step that fails on an LLM 401 fails the agent
 * with `STEP_FAILED` whose details name the step and the step's own code (`LLM_AUTH`), and the
 * agent state read through `GET /api/agents/:id` says the same in `failure` (its `error` text
 * stays as it was). A planner 401 fails the agent as `LLM_AUTH` itself, with no step.
 */
import type { OpenAPIHono } from '@hono/zod-openapi';
import { WorkflowFailedError } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import type { AgentState } from '../../workflows/model/agent/agent-state';
import { reply } from '../fake-llm/replies';
import { byRoute } from '../fake-llm/routes';
import { agentTestbed } from '../harness/agent-testbed';
import { testApp } from '../harness/http-app';
import { startAgent } from '../harness/agents';
import { plan, planReply, step } from '../harness/plans';
import { withWorker } from '../harness/test-env';

const bed = agentTestbed();

const appFor = (): OpenAPIHono => testApp(bed.client, bed.config.taskQueue);

async function stateOverHttp(id: string): Promise<AgentState> {
  const res = await appFor().request(`/api/agents/${id}`);
  expect(res.status).toBe(200);
  return (await res.json()) as AgentState;
}

/** The ApplicationFailure an agent's result failed with. */
async function failureOf(result: Promise<unknown>): Promise<ApplicationFailure> {
  const err = await result.catch((e: unknown) => e);
  expect(err).toBeInstanceOf(WorkflowFailedError);
  const cause = (err as WorkflowFailedError).cause;
  expect(cause).toBeInstanceOf(ApplicationFailure);
  return cause as ApplicationFailure;
}

test('a step failing on an LLM 401 fails the agent with STEP_FAILED naming the step and LLM_AUTH', async () => {
  bed.llm.respondWith(
    byRoute({
      plan: [planReply(plan([step('s1')]))],
      'step:s1': [reply.error(401, 'invalid api key')],
    }),
  );
  await withWorker(bed.config, async () => {
    const handle = await startAgent(bed.client, bed.config, { task: 'no key for steps' });
    const failure = await failureOf(handle.result());
    expect(failure.type).toBe('STEP_FAILED');
    expect(failure.details).toEqual([{ stepId: 's1', code: 'LLM_AUTH' }]);
    const state = await stateOverHttp(handle.workflowId);
    expect(state.phase).toBe('failed');
    expect(state.failure).toEqual({ code: 'STEP_FAILED', stepId: 's1', cause: 'LLM_AUTH' });
    expect(state.error).toEqual(expect.any(String)); // the text stays
    expect(state.steps.map((s) => [s.id, s.status])).toEqual([['s1', 'failed']]);
  });
});

test('a planner 401 fails the agent as LLM_AUTH, with no step in its failure', async () => {
  bed.llm.respondWith(byRoute({ plan: [reply.error(401, 'invalid api key')] }));
  await withWorker(bed.config, async () => {
    const handle = await startAgent(bed.client, bed.config, { task: 'no key at all' });
    const failure = await failureOf(handle.result());
    expect(failure.type).toBe('LLM_AUTH');
    expect(failure.details ?? []).toEqual([]);
    expect((await stateOverHttp(handle.workflowId)).failure).toEqual({ code: 'LLM_AUTH' });
  });
});
