/**
 * A step's ReAct loop against a model that loses its way, and a strict server (issue 16,
 * weaknesses 5–7): malformed tool arguments are answered with an error and never re-sent (a
 * llama.cpp-like server would refuse every later request); a reply's calls beyond the cap do
 * not run; the same call is refused after a few runs and the step ends on its error budget
 * with STEP_TOOL_ERRORS; an approval is asked once per digest; a conversation is cut to the
 * model's context instead of overflowing it.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import { z } from 'zod';
import { defineTool } from '../../activities/tools/define-tool';
import { lookupTool } from '../../testkit/lookup-tool';
import { reply } from '../fake-llm/replies';
import { byRoute } from '../fake-llm/routes';
import type { RecordedRequest } from '../fake-llm/scripted-llm';
import {
  contextWindow,
  quirk,
  rejectUnparsableArguments,
  requestTokens,
  unparsableArguments,
} from '../fake-llm/step-quirks';
import { stepWorkflowId } from '../../workflows/base/ids';
import { agentTestbed } from '../harness/agent-testbed';
import { answer, startAgent, stateOf, waitForInteraction, type AgentHandle, agentFile } from '../harness/agents';
import { finish } from '../harness/plans';
import { recordHistory } from '../harness/histories';
import { testConfig, withWorker, uniqueId } from '../harness/test-env';

const bed = agentTestbed();

/** Records the history of the agent's one step (ReAct mode: `task`) for replay tests. */
function recordStep(name: string, handle: AgentHandle): Promise<void> {
  return recordHistory(name, bed.client.workflow.getHandle(stepWorkflowId(handle.workflowId, 'task')));
}

/** The step's requests, in order (ReAct mode: one step, `task`). */
const stepRequests = (): RecordedRequest[] => bed.llm.requestsFor('step');

/** The tool message answering `callId` in `request`. */
function toolMessage(request: RecordedRequest | undefined, callId: string): string {
  const message = request?.body.messages.find((m) => m.role === 'tool' && m.tool_call_id === callId);
  return typeof message?.content === 'string' ? message.content : '';
}

/** The tool calls of the assistant messages in `request`. */
function assistantCalls(request: RecordedRequest | undefined): { id: string; arguments: string }[] {
  const messages: ChatCompletionMessageParam[] = request?.body.messages ?? [];
  return messages.flatMap((m) =>
    m.role === 'assistant'
      ? (m.tool_calls ?? []).flatMap((c) =>
          c.type === 'function' ? [{ id: c.id, arguments: c.function.arguments }] : [],
        )
      : [],
  );
}

test('malformed tool arguments get a tool error and are re-sent as {}, so a strict server keeps answering', async () => {
  const lookup = lookupTool();
  bed.llm.respondWith(
    rejectUnparsableArguments(
      byRoute({ 'step:task': [quirk.malformedCall('lookup', '{"key": "k1"', 'bad1'), finish('recovered')] }),
    ),
  );
  await withWorker(
    bed.config,
    async () => {
      const handle = await startAgent(bed.client, bed.config, { task: 'look k1 up', mode: { plan: false } });
      expect(await handle.result()).toMatchObject({ status: 'completed', answer: 'recovered' });
      await recordStep('step-malformed-arguments', handle);
    },
    [lookup.tool],
  );
  expect(stepRequests()).toHaveLength(2);
  expect(bed.llm.requests.filter((r) => unparsableArguments(r).length > 0)).toEqual([]);
  expect(assistantCalls(stepRequests()[1])).toEqual([{ id: 'bad1', arguments: '{}' }]);
  expect(toolMessage(stepRequests()[1], 'bad1')).toBe(
    'error: invalid arguments for lookup: not valid JSON\n' +
      '(The arguments were not a JSON object and are shown as {} in this conversation. You sent: "{\\"key\\": \\"k1\\"")',
  );
  expect(lookup.calls).toEqual([]);
});

test('calls of one reply beyond maxToolCallsPerReply do not run; each is answered with why', async () => {
  const lookup = lookupTool();
  const keys = ['k0', 'k1', 'k2', 'k3', 'k4', 'k5', 'k6'];
  bed.llm.respondWith(
    byRoute({
      'step:task': [
        quirk.manyCalls(
          'lookup',
          keys.map((key) => ({ key })),
        ),
        finish('looked up'),
      ],
    }),
  );
  await withWorker(
    bed.config,
    async () => {
      const handle = await startAgent(bed.client, bed.config, { task: 'look many up', mode: { plan: false } });
      expect(await handle.result()).toMatchObject({ status: 'completed' });
      const state = await stateOf(handle);
      const guardEvents = state.events.filter((e) => e.type === 'step.guard');
      expect(guardEvents.map((e) => e.message)).toEqual([
        expect.stringMatching(/^lookup not run: at most 5 tool calls of one reply run, and this was call 6/),
        expect.stringMatching(/^lookup not run: at most 5 tool calls of one reply run, and this was call 7/),
      ]);
      await recordStep('step-guard-per-reply', handle);
    },
    [lookup.tool],
  );
  expect(lookup.calls.map((c) => c.key)).toEqual(keys.slice(0, 5));
  const second = stepRequests()[1];
  const ids = assistantCalls(second).map((c) => c.id);
  expect(ids).toHaveLength(7);
  expect(toolMessage(second, ids[4] ?? '')).toBe('value-of-k4');
  expect(toolMessage(second, ids[5] ?? '')).toMatch(/^error: not run: at most 5 tool calls of one reply run/);
  expect(toolMessage(second, ids[6] ?? '')).toMatch(/^error: not run: at most 5 tool calls of one reply run/);
});

test('the same failing call runs 3 times, is then refused, and the step ends on its error budget with STEP_TOOL_ERRORS', async () => {
  const runs: string[] = [];
  const openRecord = defineTool({
    name: 'open_record',
    description: 'Open a record by id.',
    effect: 'read',
    input: z.object({ id: z.string() }),
    run: ({ id }) => {
      runs.push(id);
      return Promise.reject(new Error(`no record ${id}`));
    },
  });
  bed.llm.respondWith(byRoute({ 'step:task': quirk.sameCall('open_record', { id: 'r1' }, 12) }));
  await withWorker(
    bed.config,
    async () => {
      const handle = await startAgent(bed.client, bed.config, { task: 'open r1', mode: { plan: false } });
      await expect(handle.result()).rejects.toThrow();
      const state = await stateOf(handle);
      expect(state.steps[0]?.status).toBe('failed');
      expect(state.failure).toEqual({ code: 'STEP_FAILED', stepId: 'task', cause: 'STEP_TOOL_ERRORS' });
      expect(state.steps[0]?.error).toContain('ended after 10 failed tool calls (the limit is 10)');
      const notes = state.events.filter((e) => e.type === 'step.guard').map((e) => e.message);
      expect(notes.filter((n) => /already made 3 times in this step/.test(n))).toHaveLength(7);
      expect(notes.at(-1)).toMatch(/ended after 10 failed tool calls/);
      await recordStep('step-guard-tool-errors', handle);
    },
    [openRecord],
  );
  expect(runs).toEqual(['r1', 'r1', 'r1']);
  expect(stepRequests()).toHaveLength(10);
  const last = stepRequests()[9];
  const refusedId = assistantCalls(last).at(-1)?.id ?? '';
  expect(toolMessage(last, refusedId)).toMatch(
    /^error: not run: this exact call \(open_record with the same arguments\)/,
  );
});

test('an approval is asked once per digest in a step: approved runs again without asking, rejected is refused', async () => {
  const workspace = mkdtempSync(join(tmpdir(), 'approve-once-'));
  const config = testConfig(bed.llm, { CAIRN_WORKSPACE: workspace });
  const a = { path: 'a.txt', content: 'A' };
  const b = { path: 'b.txt', content: 'B' };
  bed.llm.respondWith(
    byRoute({
      'step:task': [
        reply.toolCall('write_file', a, 'w1'),
        reply.toolCall('write_file', a, 'w2'),
        reply.toolCall('write_file', b, 'w3'),
        reply.toolCall('write_file', b, 'w4'),
        finish('done'),
      ],
    }),
  );
  const agentId = uniqueId('agent-test');
  await withWorker(config, async () => {
    const handle = await startAgent(bed.client, config, { task: 'write', mode: { plan: false } }, agentId);
    const first = await waitForInteraction(handle, 'tool.approval');
    expect(first.arguments).toEqual(a);
    await answer(handle, first.id, { decision: 'approve', digest: first.digest });
    const second = await waitForInteraction(handle, 'tool.approval');
    expect(second.arguments).toEqual(b);
    await answer(handle, second.id, { decision: 'reject', digest: second.digest, reason: 'not b' });
    expect(await handle.result()).toMatchObject({ status: 'completed', answer: 'done' });
    const state = await stateOf(handle);
    expect(state.interactions.filter((i) => i.kind === 'tool.approval')).toHaveLength(2);
    expect(state.events.filter((e) => e.type === 'step.guard').map((e) => e.message)).toEqual([
      expect.stringMatching(/^write_file sha256:\w+: approved before in this step, not asked again$/),
      expect.stringMatching(/^write_file sha256:\w+: rejected before in this step, not asked again$/),
    ]);
    await recordStep('step-guard-approval-once', handle);
  });
  expect(readFileSync(agentFile(workspace, agentId, 'a.txt'), 'utf8')).toBe('A');
  expect(toolMessage(stepRequests()[2], 'w2')).toBe('wrote 1 bytes to a.txt');
  expect(toolMessage(stepRequests()[4], 'w4')).toMatch(
    /^error: a person already rejected this exact call in this step/,
  );
});

test('a long step is cut to the model context window (head, note, latest rounds) instead of overflowing it', async () => {
  const CONTEXT = 3_000;
  const keys = Array.from({ length: 12 }, (_, i) => `k${i}`);
  const lookup = lookupTool(Object.fromEntries(keys.map((k) => [k, `${k}:${'x'.repeat(1_500)}`])));
  bed.llm.respondWith(
    contextWindow(
      CONTEXT,
      byRoute({
        'step:task': [...keys.map((key) => reply.toolCall('lookup', { key }, `c-${key}`)), finish('all read')],
      }),
    ),
  );
  await withWorker(
    bed.config,
    async () => {
      const input = { task: 'read every key', mode: { plan: false }, model: { contextTokens: CONTEXT } };
      const handle = await startAgent(bed.client, bed.config, input);
      expect(await handle.result()).toMatchObject({ status: 'completed', answer: 'all read' });
      await recordStep('step-context-cut', handle);
    },
    [lookup.tool],
  );
  const requests = stepRequests();
  expect(requests).toHaveLength(13);
  expect(Math.max(...requests.map(requestTokens))).toBeLessThanOrEqual(CONTEXT);
  const last = requests[12];
  const task = last?.body.messages[1];
  expect(task?.role).toBe('user');
  expect(typeof task?.content === 'string' ? task.content : '').toMatch(
    /^Overall task: read every key[\s\S]*\[\d+ earlier messages of this conversation/,
  );
  // The latest round is there, with its result; the earliest is not.
  expect(toolMessage(last, 'c-k11')).toMatch(/^k11:x/);
  expect(toolMessage(last, 'c-k0')).toBe('');
});

test('a reply that writes a tool call as text (a server that drops tools) is flagged on the timeline', async () => {
  const written = JSON.stringify({ name: 'finish_step', arguments: { result: 'done' } });
  bed.llm.respondWith(byRoute({ 'step:task': [reply.text(written)] }));
  await withWorker(bed.config, async () => {
    const handle = await startAgent(bed.client, bed.config, { task: 'finish', mode: { plan: false } });
    expect(await handle.result()).toMatchObject({ status: 'completed', answer: written });
    const notes = (await stateOf(handle)).events.filter((e) => e.type === 'step.guard').map((e) => e.message);
    expect(notes).toEqual([expect.stringMatching(/^the model wrote what looks like a tool call as text/)]);
  });
});
