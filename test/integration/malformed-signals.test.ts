/**
 * Garbage signals, sent with the real `temporal` CLI as an operator would from a terminal or the
 * Temporal UI's form, change nothing: the agent keeps answering `state`, records each refused
 * signal in its timeline, and completes after valid answers. Covers the public `answer` signal
 * and the internal `stepProgress`, `stepInteraction` (to the agent) and `stepAnswer` (to a step).
 */
import { execFileSync } from 'node:child_process';
import { reply } from '../fake-llm/replies';
import { byRoute } from '../fake-llm/routes';
import { agentTestbed } from '../harness/agent-testbed';
import { answer, startAgent, stateOf, waitForInteraction } from '../harness/agents';
import { finish, plan, planReply, step } from '../harness/plans';
import { runInfo } from '../harness/run-info';
import { withWorker } from '../harness/test-env';
import { waitUntil } from '../../testkit/wait-until';

const bed = agentTestbed();

/** `temporal workflow signal` against the test server; the input is sent exactly as written. */
function signal(workflowId: string, name: string, input: string): void {
  const { temporalCli, temporalAddress } = runInfo();
  execFileSync(
    temporalCli,
    ['workflow', 'signal', '--address', temporalAddress, '--workflow-id', workflowId, '--name', name, '--input', input],
    { stdio: 'pipe' },
  );
}

test('malformed answer, stepProgress, stepInteraction and stepAnswer signals are refused; the agent completes', async () => {
  bed.llm.respondWith(
    byRoute({
      plan: [planReply(plan([step('s1')]))],
      'step:s1': [reply.toolCall('ask_user', { kind: 'query', prompt: 'Which colour?' }, 'ask-1'), finish('blue')],
      summary: [reply.text('done')],
    }),
  );
  await withWorker(bed.config, async () => {
    const handle = await startAgent(bed.client, bed.config, { task: 'garbage in', mode: { confirmPlan: true } });
    const id = handle.workflowId;
    const check = await waitForInteraction(handle, 'plan.check');

    signal(id, 'answer', 'null');
    signal(id, 'answer', '{"interactionId":42}');
    signal(
      id,
      'stepProgress',
      '{"stepId":"s1","round":1,"usage":{"promptTokens":1,"completionTokens":1,"totalTokens":2},"toolCalls":5}',
    );
    signal(
      id,
      'stepInteraction',
      '{"stepId":"s1","requestId":"r1","spec":{"kind":"ask.select","prompt":"Pick","options":[],"multiple":false}}',
    );
    signal(id, 'stepInteraction', '{"stepId":"ghost","requestId":"r2","spec":{"kind":"ask.query","prompt":"Who?"}}');

    // The state query keeps answering, and shows each refusal — and nothing else changed.
    const refused = await waitUntil('five refused signals in the timeline', async () => {
      const state = await stateOf(handle);
      const rejected = state.events.filter((e) => e.type === 'answer.rejected' || e.type === 'signal.rejected');
      return rejected.length === 5 ? state : undefined;
    });
    const messages = refused.events.map((e) => e.message);
    expect(messages).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^answer rejected: payload: /),
        expect.stringMatching(/^answer rejected: interactionId: /),
        expect.stringMatching(/^stepProgress signal rejected: toolCalls: /),
        expect.stringMatching(/^stepInteraction signal rejected: spec\.options: /),
        expect.stringMatching(/^stepInteraction signal rejected: stepId: no step "ghost"/),
      ]),
    );
    expect(refused.interactions.map((i) => [i.id, i.status])).toEqual([[check.id, 'open']]);
    expect(refused.phase).toBe('awaiting_input');
    expect(refused.steps.map((s) => [s.id, s.status, s.usage.totalTokens])).toEqual([['s1', 'pending', 0]]);

    // A valid answer by signal goes through.
    signal(id, 'answer', JSON.stringify({ interactionId: check.id, answer: { decision: 'confirm' }, by: 'ops' }));
    const question = await waitForInteraction(handle, 'ask.query');

    // Garbage sent straight to the step that waits is refused there; it keeps waiting.
    const stepId = `${id}/step-s1`;
    signal(stepId, 'stepAnswer', 'null');
    signal(stepId, 'stepAnswer', '{"requestId":"ask-1","interactionId":"x","answer":"blue"}');
    await answer(handle, question.id, { text: 'blue' });

    expect(await handle.result()).toMatchObject({ status: 'completed', answer: 'done' });
    const history = await bed.client.workflow.getHandle(stepId).fetchHistory();
    const failedTasks = (history.events ?? []).filter((e) => e.workflowTaskFailedEventAttributes);
    expect(failedTasks).toHaveLength(0);
    const toolMessage = bed.llm
      .requestsFor('step')
      .at(-1)
      ?.body.messages.find((m) => m.role === 'tool' && m.tool_call_id === 'ask-1');
    expect(toolMessage?.content).toBe(JSON.stringify({ text: 'blue' }));
  });
});
