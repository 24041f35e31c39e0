/**
 * Acceptance 6 — step-failure policies (`continue`, `ask` with retry / skip / abort) and
 * replanning after a step listed in `replan`; and the code a failed agent carries
 * (docs/contracts.md#error-codes): a failure of a type outside the list counts as `STEP_FAILED`.
 */
import { WorkflowFailedError } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import { z } from 'zod';
import type { ToolDefinition } from '../../activities/tools/define-tool';
import { isErrorCode } from '../../workflows/base/error-codes';
import { reply } from '../fake-llm/replies';
import { byRoute } from '../fake-llm/routes';
import { agentTestbed } from '../harness/agent-testbed';
import { answer, startAgent, stateOf, waitForInteraction, type AgentHandle } from '../harness/agents';
import { finish, plan, planReply, step } from '../harness/plans';
import { recordHistory } from '../harness/histories';
import { withWorker } from '../harness/test-env';
import { steerSignal } from '../../workflows/contract/thread-contract';
import { waitUntil } from '../../testkit/wait-until';

const bed = agentTestbed();

/** s1 fails (the model rejects the request); s2 depends on it; s3 does not. */
const threeSteps = plan([step('s1'), step('s2', ['s1']), step('s3')]);
const statuses = async (handle: Parameters<typeof stateOf>[0]) =>
  Object.fromEntries((await stateOf(handle)).steps.map((s) => [s.id, s.status]));

test('continue: dependents are skipped, independent steps finish, the agent completes', async () => {
  bed.llm.respondWith(
    byRoute({
      plan: [planReply(threeSteps)],
      'step:s1': [reply.error(400, 'bad request')],
      'step:s3': [finish('three')],
      summary: [reply.text('partial answer')],
    }),
  );
  await withWorker(bed.config, async () => {
    const handle = await startAgent(bed.client, bed.config, { task: 'resilient', onStepFailure: 'continue' });
    expect(await handle.result()).toMatchObject({ status: 'completed', answer: 'partial answer' });
    expect(await statuses(handle)).toEqual({ s1: 'failed', s2: 'skipped', s3: 'completed' });
    expect((await stateOf(handle)).steps[0]?.error).toMatch(/LLM_REJECTED/);
  });
});

test('ask → retry runs the step again and it completes', async () => {
  bed.llm.respondWith(
    byRoute({
      plan: [planReply(threeSteps)],
      'step:s1': [reply.error(400), finish('one, second time')],
      'step:s2': [finish('two')],
      'step:s3': [finish('three')],
      summary: [reply.text('answer')],
    }),
  );
  await withWorker(bed.config, async () => {
    const handle = await startAgent(bed.client, bed.config, { task: 'ask me', onStepFailure: 'ask' });
    const failure = await waitForInteraction(handle, 'step.failure', 's1');
    expect(failure.error).toMatch(/LLM_REJECTED/);
    await answer(handle, failure.id, { decision: 'retry' });
    await handle.result();
    expect(await statuses(handle)).toEqual({ s1: 'completed', s2: 'completed', s3: 'completed' });
    const state = await stateOf(handle);
    expect(state.steps[0]).toMatchObject({ attempts: 2, result: 'one, second time' });
    await recordHistory('agent-step-failure-retry', handle);
  });
});

test('a steer while a failed step waits for its decision is held and heard by its retry', async () => {
  bed.llm.respondWith(
    byRoute({
      plan: [planReply(plan([step('s1')]))],
      'step:s1': [reply.error(400), finish('done with the newer file')],
      summary: [reply.text('answer')],
    }),
  );
  await withWorker(bed.config, async () => {
    const handle = await startAgent(bed.client, bed.config, { task: 'ask me', onStepFailure: 'ask' });
    const failure = await waitForInteraction(handle, 'step.failure', 's1');
    await handle.signal(steerSignal, { text: 'use the newer file', by: 'ann' });
    await waitUntil('the message held', async () =>
      (await stateOf(handle)).heldSteers?.length === 1 ? true : undefined,
    );
    await answer(handle, failure.id, { decision: 'retry' });
    await handle.result();
    const [, retried] = bed.llm.requests.filter((r) => r.headers['x-cairn-step'] === 's1');
    expect(JSON.stringify(retried?.body.messages)).toContain('use the newer file');
    const state = await stateOf(handle);
    expect(state.heldSteers).toBeUndefined();
    expect(state.events.filter((e) => e.type === 'message.steered').map((e) => e.message)).toEqual([
      'ann with no step running (held for the next steps; s1 waits for a failure decision): use the newer file',
      'the held message to s1',
    ]);
  });
});

test('ask → skip skips the step and its dependents', async () => {
  bed.llm.respondWith(
    byRoute({
      plan: [planReply(threeSteps)],
      'step:s1': [reply.error(400)],
      'step:s3': [finish('three')],
      summary: [reply.text('answer')],
    }),
  );
  await withWorker(bed.config, async () => {
    const handle = await startAgent(bed.client, bed.config, { task: 'ask me', onStepFailure: 'ask' });
    const failure = await waitForInteraction(handle, 'step.failure', 's1');
    await answer(handle, failure.id, { decision: 'skip' });
    await handle.result();
    expect(await statuses(handle)).toEqual({ s1: 'skipped', s2: 'skipped', s3: 'completed' });
  });
});

test('ask → abort fails the agent', async () => {
  bed.llm.respondWith(
    byRoute({
      plan: [planReply(plan([step('s1')]))],
      'step:s1': [reply.error(400)],
    }),
  );
  await withWorker(bed.config, async () => {
    const handle = await startAgent(bed.client, bed.config, { task: 'ask me', onStepFailure: 'ask' });
    const failure = await waitForInteraction(handle, 'step.failure', 's1');
    await answer(handle, failure.id, { decision: 'abort' });
    await expect(handle.result()).rejects.toThrow(WorkflowFailedError);
    const state = await stateOf(handle);
    expect(state.phase).toBe('failed');
    expect(state.error).toMatch(/step s1 failed/);
  });
});

test('replan after a listed step: the planner sees the results, completed steps are kept', async () => {
  const first = plan([step('s1'), step('s2', ['s1'])], { replan: ['s1'] });
  const remaining = plan([step('r2', ['s1'], { title: 'Revised follow-up' })]);
  bed.llm.respondWith(
    byRoute({
      plan: [planReply(first)],
      replan: [planReply(remaining)],
      'step:s1': [finish('FINDINGS-OF-S1')],
      'step:r2': [finish('follow-up done')],
      summary: [reply.text('answer')],
    }),
  );
  await withWorker(bed.config, async () => {
    const handle = await startAgent(bed.client, bed.config, { task: 'adaptive' });
    await handle.result();
    const [replanRequest] = bed.llm.requestsFor('replan');
    const content = replanRequest?.body.messages.at(-1)?.content;
    const replanText = typeof content === 'string' ? content : '';
    expect(replanText).toContain('FINDINGS-OF-S1');
    expect(replanText).toContain('"id":"s2"'); // the current plan
    const state = await stateOf(handle);
    expect(state.revision).toBe(2);
    expect(state.steps.map((s) => [s.id, s.status, s.result])).toEqual([
      ['s1', 'completed', 'FINDINGS-OF-S1'],
      ['r2', 'completed', 'follow-up done'],
    ]);
    expect(bed.llm.requestsFor('step').filter((r) => r.headers['x-cairn-step'] === 's1')).toHaveLength(1);
    expect(state.events.map((e) => e.type)).toContain('replan');
    await recordHistory('agent-replan', handle);
  });
});

/**
 * A tool whose input has no JSON Schema form (a Date): listing the catalogue throws a plain
 * `Error`, which the SDK hands on as a failure of type `Error` — a type outside Cairn's codes.
 */
const undescribableTool: ToolDefinition<{ at: Date }> = {
  name: 'remind_at',
  description: 'Sets a reminder',
  input: z.object({ at: z.date() }),
  effect: 'read',
  run: () => Promise.resolve('set'),
};

/** The code (ApplicationFailure type) an agent's workflow failure carries. */
async function failureCode(handle: AgentHandle): Promise<string | undefined> {
  const error = await handle.result().catch((e: unknown) => e);
  expect(error).toBeInstanceOf(WorkflowFailedError);
  const cause = (error as WorkflowFailedError).cause;
  return cause instanceof ApplicationFailure ? (cause.type ?? undefined) : undefined;
}

test('a failure of a type outside the code list fails the agent as STEP_FAILED, with its message; a listed code is kept', async () => {
  bed.llm.respondWith(byRoute({ plan: [reply.error(400, 'no such model')] }));
  await withWorker(
    bed.config,
    async () => {
      const foreign = await startAgent(bed.client, bed.config, { task: 'remind me', tools: ['remind_at'] });
      expect(await failureCode(foreign)).toBe('STEP_FAILED');
      const state = await stateOf(foreign);
      expect(state.phase).toBe('failed');
      expect(state.error).toMatch(/Date cannot be represented in JSON Schema/);
      expect(isErrorCode('Error')).toBe(false);

      // The same path with a code from the list (the planner's call refused): the code stays.
      const listed = await startAgent(bed.client, bed.config, { task: 'plan it', tools: ['read_file'] });
      expect(await failureCode(listed)).toBe('LLM_REJECTED');
    },
    [undescribableTool],
  );
});
