/**
 * The first vertical slice, end to end on the real dev server: a workflow calls the LLM
 * activity through the real `openai` client against the scripted fake; retry behaviour
 * follows the error classification (429 honours Retry-After, 5xx retries, 401 does not).
 */
import { WorkflowFailedError, type Client } from '@temporalio/client';
import { ApplicationFailure, ActivityFailure } from '@temporalio/common';
import { llmCheckWorkflow } from '../../workflows/llm-check-workflow';
import { reply } from '../fake-llm/replies';
import { ScriptedLlm } from '../fake-llm/scripted-llm';
import { lastAttempts } from '../harness/activity-attempts';
import { recordHistory } from '../harness/histories';
import { closeClient, connectClient, testConfig, uniqueId, withWorker } from '../harness/test-env';

let client: Client;
let llm: ScriptedLlm;

beforeAll(async () => {
  client = await connectClient();
});
afterAll(async () => {
  await closeClient(client);
});
beforeEach(async () => {
  llm = await ScriptedLlm.start();
});
afterEach(async () => {
  await llm.close();
});

async function runCheck(prompt: string) {
  const config = testConfig(llm);
  return withWorker(config, async () => {
    const handle = await client.workflow.start(llmCheckWorkflow, {
      taskQueue: config.taskQueue,
      workflowId: uniqueId('llm-check'),
      args: [{ prompt }],
    });
    const outcome = await handle.result().then(
      (result) => ({ result, error: undefined }),
      (error: unknown) => ({ result: undefined, error }),
    );
    return { handle, ...outcome };
  });
}

function failureCode(error: unknown): string | undefined {
  if (!(error instanceof WorkflowFailedError) || !(error.cause instanceof ActivityFailure)) return undefined;
  const cause = error.cause.cause;
  return cause instanceof ApplicationFailure ? (cause.type ?? undefined) : undefined;
}

test('a workflow calls the model through the activity and returns its answer and usage', async () => {
  llm.enqueue(reply.text('pong', { usage: { promptTokens: 12, completionTokens: 1 } }));
  const { handle, result, error } = await runCheck('ping');
  expect(error).toBeUndefined();
  expect(result).toEqual({
    answer: 'pong',
    model: 'scripted-model',
    usage: { promptTokens: 12, completionTokens: 1, totalTokens: 13, costUsd: null }, // no price table: unknown
  });
  const [request] = llm.requests;
  expect(request?.headers['x-cairn-purpose']).toBe('model');
  expect(request?.headers['x-cairn-agent']).toBe(handle.workflowId);
  expect(request?.headers['x-cairn-step']).toBeUndefined();
  expect(request?.body.messages.at(-1)).toEqual({ role: 'user', content: 'ping' });
  await recordHistory('llm-check', handle);
});

test('a 429 is retried after its Retry-After, a 500 is retried, then the answer arrives', async () => {
  llm.enqueue(reply.rateLimited(2), reply.error(500, 'internal error'), reply.text('after retries'));
  const { handle, result } = await runCheck('ping');
  expect(result?.answer).toBe('after retries');
  const [first, second] = llm.requests.map((r) => r.receivedAt);
  // The default first retry interval is 1 s: waiting ≥ 2 s shows Retry-After was honoured.
  expect((second ?? 0) - (first ?? 0)).toBeGreaterThanOrEqual(1_900);
  expect(llm.requests).toHaveLength(3);
  // The answer came on the third attempt, after the 500 failed the second one as retryable.
  const [call] = await lastAttempts(handle, 'llm check');
  expect(call?.attempt).toBe(3);
  expect(call?.previousFailure).toMatchObject({ type: 'LLM_UNAVAILABLE', nonRetryable: false });
  expect(call?.previousFailure?.message).toMatch(/^LLM endpoint answered 500: .*internal error/);
});

test('a 401 fails at once with LLM_AUTH and is not retried', async () => {
  llm.enqueue(reply.error(401, 'bad key'));
  const { error } = await runCheck('ping');
  expect(failureCode(error)).toBe('LLM_AUTH');
  expect(llm.requests).toHaveLength(1);
});

test('malformed response body is retried as LLM_BAD_RESPONSE; a hang times out and is retried', async () => {
  llm.enqueue(reply.brokenBody(), reply.text('recovered'), reply.hang(), reply.text('recovered again'));
  const config = testConfig(llm, { CAIRN_LLM_TIMEOUT_MS: '500' });
  const [broken, hung] = await withWorker(config, async () => {
    const check = async () => {
      const handle = await client.workflow.start(llmCheckWorkflow, {
        taskQueue: config.taskQueue,
        workflowId: uniqueId('llm-check'),
        args: [{ prompt: 'ping' }],
      });
      return { answer: (await handle.result()).answer, attempts: await lastAttempts(handle, 'llm check') };
    };
    // One after the other: the fake answers its queue in order.
    return [await check(), await check()];
  });
  expect(broken).toMatchObject({ answer: 'recovered', attempts: [{ attempt: 2 }] });
  expect(broken?.attempts[0]?.previousFailure).toMatchObject({ type: 'LLM_BAD_RESPONSE', nonRetryable: false });
  expect(hung).toMatchObject({ answer: 'recovered again', attempts: [{ attempt: 2 }] });
  // Retried as a retryable failure. Its code is not checked here: under jest the abort reaches the
  // openai client as a DOMException from another realm, which it reports as a connection error
  // (LLM_UNAVAILABLE); in a plain Node worker it is LLM_TIMEOUT (see classify-llm-error.test.ts).
  expect(hung?.attempts[0]?.previousFailure).toMatchObject({ nonRetryable: false });
  expect(llm.requests).toHaveLength(4);
});
