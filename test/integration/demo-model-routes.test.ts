/**
 * The offline demo model's routers and structured outputs, on a real worker with no LLM
 * configured: a thread routes a question to chat and an instruction to a task with no router
 * error; both example graphs run to `completed` — the review loop goes round once and then
 * approves, the router sends a bug report to `triage` and a message no condition names to the
 * fallback.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@temporalio/client';
import { loadConfig, type CairnConfig } from '../../config/config';
import { ThreadClient } from '../../client/threads/thread-client';
import { reviewLoopGraph } from '../../examples/graphs/review-loop';
import { routerGraph } from '../../examples/graphs/router';
import { threadTurnWorkflowId } from '../../workflows/contract/thread-contract';
import { startAgent, stateOf } from '../harness/agents';
import { runInfo } from '../harness/run-info';
import { closeClient, connectClient, uniqueId, withWorker } from '../harness/test-env';

let client: Client;
beforeAll(async () => {
  client = await connectClient();
});
afterAll(async () => {
  await closeClient(client);
});

/** A worker configuration with no LLM endpoint: the offline demo model. */
function demoConfig(): CairnConfig {
  const config = loadConfig({
    TEMPORAL_ADDRESS: runInfo().temporalAddress,
    CAIRN_TASK_QUEUE: uniqueId('demo-queue'),
    CAIRN_WORKSPACE: mkdtempSync(join(tmpdir(), 'demo-')),
  });
  expect(config.llm.demo).toBe(true);
  return config;
}

test('a thread on the demo model routes a question to chat and an instruction to a task, with no router error', async () => {
  const config = demoConfig();
  const threads = new ThreadClient(client, config.taskQueue);
  await withWorker(config, async () => {
    const { id } = await threads.open({});
    expect(await threads.send(id, { text: 'What is durable execution?' })).toEqual({
      messageId: 'msg-1',
      disposition: 'answered',
    });
    expect(await threads.send(id, { text: 'Write a short note about durable execution' })).toEqual({
      messageId: 'msg-2',
      disposition: 'started',
    });
    const [question, instruction] = (await threads.get(id)).turns;
    expect(question).toMatchObject({ kind: 'chat', status: 'completed' });
    expect(question?.reason).toContain('[offline demo model]');
    expect(question?.reply).toContain('[offline demo model]');
    expect(instruction).toMatchObject({ kind: 'task', agentId: threadTurnWorkflowId(id, 2) });
    expect(instruction?.reason).toContain('[offline demo model]');
    for (const turn of [question, instruction]) expect(turn?.reason).not.toContain('unusable');
    // The task's agent needs a person for its write: it is not waited for here.
    await client.workflow.getHandle(threadTurnWorkflowId(id, 2)).cancel();
  });
});

test('the review loop on the demo model: the first review asks for changes, the second approves, the agent completes', async () => {
  const config = demoConfig();
  await withWorker(config, async () => {
    const handle = await startAgent(client, config, { task: 'Write a product announcement', graph: reviewLoopGraph });
    const result = await handle.result();
    expect(result).toMatchObject({ status: 'completed' });
    expect(result.answer).toContain('[offline demo model]');
    const state = await stateOf(handle);
    expect(state).toMatchObject({ phase: 'completed', demo: true });
    expect(state.path?.map((v) => [v.stepId, v.edge?.to])).toEqual([
      ['draft', 'review'],
      ['review', 'revise'],
      ['revise', 'review'],
      ['review-2', undefined],
    ]);
    expect(state.path?.[1]?.edge?.reason).toBe('output.approved equals false');
  });
});

test('the router graph on the demo model sends a bug report to triage and anything else to the fallback', async () => {
  const config = demoConfig();
  await withWorker(config, async () => {
    const bug = await startAgent(client, config, {
      task: 'I found a bug: the export button crashes the page',
      graph: routerGraph,
    });
    const other = await startAgent(client, config, { task: 'Say hello to the team', graph: routerGraph });
    expect(await bug.result()).toMatchObject({ status: 'completed' });
    expect(await other.result()).toMatchObject({ status: 'completed' });
    const bugPath = (await stateOf(bug)).path ?? [];
    expect(bugPath.map((v) => v.stepId)).toEqual(['classify', 'triage']);
    expect(bugPath[0]?.edge?.reason).toContain('[offline demo model]');
    expect(((await stateOf(other)).path ?? []).map((v) => v.stepId)).toEqual(['classify', 'answer']);
  });
});
