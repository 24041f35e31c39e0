/**
 * A step's question and the agent's continue-as-new, on a dev server of its own whose
 * suggestion comes after a few dozen history events. While s2's question is open, a sibling's
 * long loop pushes the agent's history past the threshold; the agent does not roll over under
 * its waiting step (steps are children of the run) but once the answer reached s2 and the
 * running steps settled. The next run carries the answered question in its state and routes a
 * new question from s3 — started only in that run — back to s3.
 */
import { agentWorkflow } from '../../workflows/agent/agent-workflow';
import { reply } from '../fake-llm/replies';
import { byRoute } from '../fake-llm/routes';
import type { RecordedRequest } from '../fake-llm/scripted-llm';
import { agentTestbed } from '../harness/agent-testbed';
import { rolloverServer, SUGGEST_AFTER_EVENTS } from '../harness/rollover-server';
import { answer, stateOf, waitForInteraction, type AgentHandle } from '../harness/agents';
import { finish, plan, planReply, step } from '../harness/plans';
import { lookupTool } from '../../testkit/lookup-tool';
import { testConfig, uniqueId, withWorker } from '../harness/test-env';
import { waitUntil } from '../../testkit/wait-until';

/** Rounds of the sibling's loop: enough progress signals to push the agent past the threshold. */
const LOOP_ROUNDS = 60;

// s1's 60 streamed rounds come first: on a busy machine the whole run passes jest's default minute.
jest.setTimeout(180_000);

const bed = agentTestbed();
const server = rolloverServer('step-question-can');

/** Run ids of a workflow id, oldest first. */
async function runIds(workflowId: string): Promise<string[]> {
  const runs: { runId: string; started: number }[] = [];
  for await (const run of server.client.workflow.list({ query: `WorkflowId = '${workflowId}'` })) {
    runs.push({ runId: run.runId, started: run.startTime.getTime() });
  }
  return runs.sort((a, b) => a.started - b.started).map((r) => r.runId);
}

function toolMessage(request: RecordedRequest | undefined, callId: string): string {
  const message = request?.body.messages.find((m) => m.role === 'tool' && m.tool_call_id === callId);
  return typeof message?.content === 'string' ? message.content : '';
}

const stepRequests = (stepId: string) => bed.llm.requests.filter((r) => r.headers['x-cairn-step'] === stepId);

test('a question open while the history passes the threshold is answered, then the agent rolls over', async () => {
  const lookup = lookupTool();
  const config = testConfig(bed.llm, { TEMPORAL_ADDRESS: server.address });
  const loop = Array.from({ length: LOOP_ROUNDS - 1 }, (_, i) => reply.toolCall('lookup', { key: `k${i}` }));
  bed.llm.respondWith(
    byRoute({
      plan: [planReply(plan([step('s1'), step('s2'), step('s3', ['s1', 's2'])]))],
      'step:s1': [...loop, finish('loop done')],
      'step:s2': [reply.toolCall('ask_user', { kind: 'query', prompt: 'Region?' }, 'q2'), finish('region noted')],
      'step:s3': [reply.toolCall('ask_user', { kind: 'query', prompt: 'Format?' }, 'q3'), finish('formatted')],
      summary: [reply.text('all done')],
    }),
  );
  await withWorker(config, async () => {
    const handle: AgentHandle = await server.client.workflow.start(agentWorkflow, {
      taskQueue: config.taskQueue,
      workflowId: uniqueId('agent-question-can'),
      args: [{ task: 'ask while looping', limits: { maxStepRounds: LOOP_ROUNDS } }],
    });
    const first = await waitForInteraction(handle, 'ask.query', 's2');
    await waitUntil('the agent history passed the threshold', async () => {
      const events = (await handle.fetchHistory()).events ?? [];
      return events.length > SUGGEST_AFTER_EVENTS;
    });
    // Still one run, the question still open: the agent waits for its busy step.
    expect(await runIds(handle.workflowId)).toHaveLength(1);
    expect((await stateOf(handle)).interactions.find((i) => i.id === first.id)?.status).toBe('open');
    await answer(handle, first.id, { text: 'eu-west' }, 'ann');

    // s3 starts only after s1's rounds, each a streamed model call: on a busy machine, well past 20 s.
    const second = await waitForInteraction(handle, 'ask.query', 's3', 120_000);
    const runs = await runIds(handle.workflowId);
    expect(runs.length).toBeGreaterThanOrEqual(2);
    await answer(handle, second.id, { text: 'markdown' }, 'bob');
    expect(await handle.result()).toMatchObject({ status: 'completed', answer: 'all done' });

    expect(toolMessage(stepRequests('s2')[1], 'q2')).toBe(JSON.stringify({ text: 'eu-west' }));
    expect(toolMessage(stepRequests('s3')[1], 'q3')).toBe(JSON.stringify({ text: 'markdown' }));
    // s3 was started by a later run, not by the one whose history passed the threshold.
    const firstRun = (await server.client.workflow.getHandle(handle.workflowId, runs[0]).fetchHistory()).events ?? [];
    const children = firstRun.flatMap((e) => e.startChildWorkflowExecutionInitiatedEventAttributes?.workflowId ?? []);
    expect(children).toEqual([`${handle.workflowId}/step-s1`, `${handle.workflowId}/step-s2`]);
    const state = await stateOf(handle);
    expect(state.interactions.map((i) => [i.id, i.stepId, i.status, i.by])).toEqual([
      [first.id, 's2', 'answered', 'ann'],
      [second.id, 's3', 'answered', 'bob'],
    ]);
    expect(state.steps.map((s) => s.status)).toEqual(['completed', 'completed', 'completed']);
    expect(lookup.calls).toHaveLength(LOOP_ROUNDS - 1);
  }, [lookup.tool]);
}, 180_000);
