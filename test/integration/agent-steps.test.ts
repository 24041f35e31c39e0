/**
 * Acceptance 5 — the step ReAct loop: tool calls as activities with results paired by call id,
 * unknown tools and invalid arguments as tool errors, the round limit, and a step's question
 * waiting while a parallel step finishes.
 */
import { WorkflowFailedError } from '@temporalio/client';
import { z } from 'zod';
import { reply } from '../fake-llm/replies';
import { byRoute } from '../fake-llm/routes';
import { agentTestbed } from '../harness/agent-testbed';
import { answer, startAgent, stateOf, waitForInteraction, waitForState } from '../harness/agents';
import { finish, plan, planReply, step } from '../harness/plans';
import { recordHistory } from '../harness/histories';
import { lookupTool } from '../../testkit/lookup-tool';
import { withWorker } from '../harness/test-env';

const bed = agentTestbed();

function toolMessages(stepId: string, index: number): Record<string, string> {
  const request = bed.llm.requests.filter((r) => r.headers['x-cairn-step'] === stepId)[index];
  return Object.fromEntries(
    (request?.body.messages ?? []).flatMap((m) =>
      m.role === 'tool' && typeof m.content === 'string' ? [[m.tool_call_id, m.content]] : [],
    ),
  );
}

test('tool calls run as activities, results pair by call id; unknown tools and bad arguments are tool errors', async () => {
  const lookup = lookupTool({ x: 'forty-two' });
  bed.llm.respondWith(
    byRoute({
      plan: [planReply(plan([step('s1')]))],
      'step:s1': [
        reply.toolCalls([
          { id: 'c1', name: 'lookup', arguments: { key: 'x' } },
          { id: 'c2', name: 'nosuch', arguments: {} },
          { id: 'c3', name: 'lookup', arguments: { key: 5 } },
        ]),
        finish('found forty-two'),
      ],
      summary: [reply.text('done')],
    }),
  );
  await withWorker(
    bed.config,
    async () => {
      const handle = await startAgent(bed.client, bed.config, { task: 'look it up' });
      await handle.result();
      const results = toolMessages('s1', 1);
      expect(results.c1).toBe('forty-two');
      expect(results.c2).toBe('error: unknown tool "nosuch"');
      expect(results.c3).toMatch(/^error: invalid arguments for lookup:\nkey: /);
      expect(lookup.calls).toEqual([{ key: 'x', idempotencyKey: `${handle.workflowId}/s1/c1` }]);
      const offered = bed.llm
        .requestsFor('step')[0]
        ?.body.tools?.map((t) => (t.type === 'function' ? t.function.name : ''));
      expect(offered).toEqual(expect.arrayContaining(['lookup', 'read_file', 'finish_step', 'ask_user']));
      // What the model sees is derived from the tool's zod schema, never a hand-written copy.
      const spec = bed.llm
        .requestsFor('step')[0]
        ?.body.tools?.find((t) => t.type === 'function' && t.function.name === 'lookup');
      expect(spec?.type === 'function' && spec.function.parameters).toEqual(z.toJSONSchema(lookup.tool.input));
      const child = bed.client.workflow.getHandle(`${handle.workflowId}/step-s1`);
      await recordHistory('step-tools', child);
      const history = await child.fetchHistory();
      const scheduled = (history.events ?? []).flatMap(
        (e) => e.activityTaskScheduledEventAttributes?.activityType?.name ?? [],
      );
      // Arguments are checked in the workflow: the invalid call c3 never reached an activity.
      expect(scheduled.filter((name) => name === 'runTool')).toHaveLength(1);
      const state = await stateOf(handle);
      expect(state.steps[0]?.toolCalls.map((c) => [c.callId, c.name, c.outcome])).toEqual([
        ['c1', 'lookup', 'ok'],
        ['c3', 'lookup', 'error'],
      ]);
    },
    [lookup.tool],
  );
});

test('maxStepRounds fails the step, saying so', async () => {
  const lookup = lookupTool();
  bed.llm.respondWith(
    byRoute({
      plan: [planReply(plan([step('s1')]))],
      'step:s1': [reply.toolCall('lookup', { key: 'a' }), reply.toolCall('lookup', { key: 'b' })],
    }),
  );
  await withWorker(
    bed.config,
    async () => {
      const handle = await startAgent(bed.client, bed.config, { task: 'loop', limits: { maxStepRounds: 2 } });
      const error = await handle.result().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(WorkflowFailedError);
      expect(String((error as WorkflowFailedError).cause?.message)).toMatch(
        /used all 2 rounds without calling finish_step/,
      );
      const state = await stateOf(handle);
      expect(state.phase).toBe('failed');
      expect(state.steps[0]?.status).toBe('failed');
      expect(state.steps[0]?.error).toMatch(/2 rounds/);
    },
    [lookup.tool],
  );
});

test('a step asks the user while a parallel step keeps running; both finish', async () => {
  bed.llm.respondWith(
    byRoute({
      plan: [planReply(plan([step('s1'), step('s2')]))],
      'step:s1': [reply.toolCall('ask_user', { kind: 'query', prompt: 'Which region?' }, 'q1'), finish('region noted')],
      'step:s2': [{ ...finish('s2 done'), delayMs: 300 }],
      summary: [reply.text('all done')],
    }),
  );
  await withWorker(bed.config, async () => {
    const handle = await startAgent(bed.client, bed.config, { task: 'parallel asks' });
    const question = await waitForInteraction(handle, 'ask.query', 's1');
    const meanwhile = await waitForState(handle, 's2 completed while s1 waits', (s) =>
      s.steps.some((x) => x.id === 's2' && x.status === 'completed'),
    );
    expect(meanwhile.steps.find((x) => x.id === 's1')?.status).toBe('waiting');
    await answer(handle, question.id, { text: 'eu-west' });
    expect(await handle.result()).toMatchObject({ status: 'completed', answer: 'all done' });
    expect(toolMessages('s1', 1).q1).toBe(JSON.stringify({ text: 'eu-west' }));
  });
});
