/**
 * Acceptance 7, 8 and 9 — the summary (and its mechanical fallback), ReAct mode, LLM faults
 * seen through the agent, and cancellation mid-execution.
 */
import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WorkflowFailedError } from '@temporalio/client';
import { ApplicationFailure, CancelledFailure } from '@temporalio/common';
import { reply } from '../fake-llm/replies';
import { byRoute } from '../fake-llm/routes';
import { agentTestbed } from '../harness/agent-testbed';
import { startAgent, stateOf, waitForState } from '../harness/agents';
import { finish, plan, planReply, step } from '../harness/plans';
import { lastAttempts } from '../harness/activity-attempts';
import { recordHistory } from '../harness/histories';
import { testConfig, withWorker } from '../harness/test-env';
import { waitUntil } from '../../testkit/wait-until';

const bed = agentTestbed();

test('the final answer comes from the summary call, in the plan language', async () => {
  bed.llm.respondWith(
    byRoute({
      plan: [planReply(plan([step('s1'), step('s2')], { language: 'fr' }))],
      'step:s1': [finish('un')],
      'step:s2': [finish('deux')],
      summary: [reply.text('Réponse finale', { usage: { promptTokens: 10, completionTokens: 5 } })],
    }),
  );
  await withWorker(bed.config, async () => {
    const handle = await startAgent(bed.client, bed.config, { task: 'en français' });
    const result = await handle.result();
    expect(result.answer).toBe('Réponse finale');
    const summaryPrompt = JSON.stringify(bed.llm.requestsFor('summary')[0]?.body.messages);
    expect(summaryPrompt).toContain('\\"fr\\"');
    expect(summaryPrompt).toContain('un');
    expect(summaryPrompt).toContain('deux');
    const state = await stateOf(handle);
    expect(state.phase).toBe('completed');
    expect(state.result).toBe('Réponse finale');
    const stepTokens = state.steps.reduce((n, s) => n + s.usage.totalTokens, 0);
    expect(stepTokens).toBe(sumUsage('step'));
    // The agent's total is every call the fake answered: planner, steps and summary.
    expect(state.usage.totalTokens).toBe(sumUsage('plan') + sumUsage('step') + sumUsage('summary'));
    expect(sumUsage('summary')).toBe(15);
    await recordHistory('agent-summary', handle);
  });
});

/** Total tokens the fake reported in its answers for a purpose. */
function sumUsage(purpose: string): number {
  return bed.llm.requestsFor(purpose).reduce((n, r) => n + (r.reportedTokens ?? 0), 0);
}

test('when the summary call fails for good, a mechanical summary is the answer', async () => {
  bed.llm.respondWith(
    byRoute({
      plan: [planReply(plan([step('s1', [], { title: 'Gather facts' })]))],
      'step:s1': [finish('the facts')],
      summary: [reply.error(400, 'context too long')],
    }),
  );
  await withWorker(bed.config, async () => {
    const handle = await startAgent(bed.client, bed.config, { task: 'summarise' });
    const result = await handle.result();
    expect(result.answer).toContain('Gather facts (completed)');
    expect(result.answer).toContain('the facts');
    expect((await stateOf(handle)).events.some((e) => e.message.includes('mechanical summary'))).toBe(true);
  });
});

test('ReAct mode runs one step on the whole task, with no planner call', async () => {
  bed.llm.respondWith(byRoute({ 'step:task': [finish('direct answer')] }));
  await withWorker(bed.config, async () => {
    const handle = await startAgent(bed.client, bed.config, { task: 'just do it', mode: { plan: false } });
    expect(await handle.result()).toMatchObject({ status: 'completed', answer: 'direct answer' });
    expect(bed.llm.requestsFor('plan')).toHaveLength(0);
    expect(JSON.stringify(bed.llm.requests[0]?.body.messages)).toContain('just do it');
    expect((await stateOf(handle)).steps.map((s) => s.id)).toEqual(['task']);
  });
});

test('LLM faults: a 429 waits its Retry-After, a 500 retries, then planning goes on', async () => {
  bed.llm.respondWith(
    byRoute({
      plan: [reply.rateLimited(2), reply.error(500, 'internal error'), planReply(plan([step('s1')]))],
      'step:s1': [finish('ok')],
      summary: [reply.text('done')],
    }),
  );
  await withWorker(bed.config, async () => {
    const handle = await startAgent(bed.client, bed.config, { task: 'flaky endpoint' });
    expect(await handle.result()).toMatchObject({ status: 'completed', answer: 'done' });
    const [first, second] = bed.llm.requestsFor('plan').map((r) => r.receivedAt);
    expect((second ?? 0) - (first ?? 0)).toBeGreaterThanOrEqual(1_900);
    expect(bed.llm.requestsFor('plan')).toHaveLength(3);
    // The plan call succeeded on its third attempt, the one after the 500, which was retryable.
    const [planCall, ...others] = await lastAttempts(handle, 'plan r1');
    expect(others).toEqual([]);
    expect(planCall?.attempt).toBe(3);
    expect(planCall?.previousFailure).toMatchObject({ type: 'LLM_UNAVAILABLE', nonRetryable: false });
    expect(planCall?.previousFailure?.message).toMatch(/^LLM endpoint answered 500: .*internal error/);
    expect((await stateOf(handle)).steps.map((s) => [s.id, s.status, s.result])).toEqual([['s1', 'completed', 'ok']]);
  });
});

test('a 401 fails the agent at once with a clear error in state and in the workflow result', async () => {
  bed.llm.respondWith(byRoute({ plan: [reply.error(401, 'invalid api key')] }));
  await withWorker(bed.config, async () => {
    const handle = await startAgent(bed.client, bed.config, { task: 'no key' });
    const error = await handle.result().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WorkflowFailedError);
    const cause = (error as WorkflowFailedError).cause;
    expect(cause instanceof ApplicationFailure && cause.type).toBe('LLM_AUTH');
    expect(cause?.message).toContain('invalid api key'); // the endpoint's words reach the person
    const state = await stateOf(handle);
    expect(state.phase).toBe('failed');
    expect(state.failure).toEqual({ code: 'LLM_AUTH' });
    expect(state.error).toContain('401');
    expect(bed.llm.requests).toHaveLength(1);
  });
});

test('cancel mid-execution stops the running step and its LLM call; finished results are kept', async () => {
  bed.llm.respondWith(
    byRoute({
      plan: [planReply(plan([step('s1'), step('s2', ['s1'])]))],
      'step:s1': [finish('kept result')],
      'step:s2': [reply.hang()],
    }),
  );
  const watch = await startHangUpWatch(bed.llm.baseUrl);
  // The model call's own time limit must not be what ends the hanging request.
  const config = testConfig(bed.llm, { OPENAI_BASE_URL: watch.baseUrl, CAIRN_LLM_TIMEOUT_MS: '120000' });
  try {
    await withWorker(config, async () => {
      const handle = await startAgent(bed.client, config, { task: 'long job' });
      await waitForState(handle, 's2 running', (s) => s.steps[1]?.status === 'running');
      await bed.llm.waitForRequests(3);
      expect(watch.hungUp).toEqual([]);
      const cancelledAt = Date.now();
      await handle.cancel();
      const error = await handle.result().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(WorkflowFailedError);
      expect((error as WorkflowFailedError).cause).toBeInstanceOf(CancelledFailure);
      const state = await stateOf(handle);
      expect(state.phase).toBe('cancelled');
      expect(state.steps.map((s) => [s.id, s.status, s.result])).toEqual([
        ['s1', 'completed', 'kept result'],
        ['s2', 'cancelled', undefined],
      ]);
      const child = bed.client.workflow.getHandle(`${handle.workflowId}/step-s2`);
      expect((await child.describe()).status.name).toBe('CANCELLED');
      const events = (await child.fetchHistory()).events ?? [];
      expect(events.some((e) => e.activityTaskCancelRequestedEventAttributes)).toBe(true);
      // The worker itself hung up on the model's in-flight request (its only one for s2).
      // Closing the watch after waiting lets a call that was never aborted end, so the worker can stop.
      const cut = await waitUntil("the worker hung up on s2's model request", () =>
        watch.hungUp.find((h) => h.step === 's2'),
      ).finally(() => watch.close());
      expect(cut.at).toBeGreaterThanOrEqual(cancelledAt);
      expect(bed.llm.requests.filter((r) => r.headers['x-cairn-step'] === 's2')).toHaveLength(1);
    });
  } finally {
    await watch.close();
  }
});

/** A request whose client closed the connection before the answer was sent. */
interface HungUp {
  step: string | undefined;
  at: number;
}

/**
 * A pass-through in front of the scripted LLM that notes every request whose client hung up
 * before its answer — how this file sees that a cancelled activity really aborted its HTTP call
 * rather than leaving it open until a timeout.
 */
async function startHangUpWatch(target: string) {
  const hungUp: HungUp[] = [];
  const upstreamOrigin = new URL(target).origin;
  const server = createServer((req, res) => {
    const upstream = httpRequest(new URL(req.url ?? '/', upstreamOrigin), { method: req.method, headers: req.headers });
    upstream.on('response', (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => res.destroy());
    res.on('close', () => {
      if (res.writableFinished) return;
      const step = req.headers['x-cairn-step'];
      hungUp.push({ step: typeof step === 'string' ? step : undefined, at: Date.now() });
      upstream.destroy();
    });
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    hungUp,
    /** Stops the watch, cutting open requests; safe to call twice. */
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        if (server.listening) server.close(() => resolve());
        else resolve();
      }),
  };
}
