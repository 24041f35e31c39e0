/**
 * Transient tool errors are retried by the tool activity's retry policy: a tool that throws a
 * retryable ApplicationFailure fails its activity attempt (honouring its retry delay) instead of
 * becoming a tool error at once. When the retries of a call that is safe to repeat are used up,
 * the model is told, and the step goes on.
 */
import { ApplicationFailure } from '@temporalio/common';
import { z } from 'zod';
import { defineTool } from '../../activities/tools/define-tool';
import { reply } from '../fake-llm/replies';
import { byRoute } from '../fake-llm/routes';
import { agentTestbed } from '../harness/agent-testbed';
import { startAgent, type AgentHandle } from '../harness/agents';
import { finish, plan, planReply, step } from '../harness/plans';
import { withWorker } from '../harness/test-env';

const bed = agentTestbed();

/** The attempts of the step's `runTool` activities, in order. */
async function toolAttempts(handle: AgentHandle): Promise<number[]> {
  const events = (await bed.client.workflow.getHandle(`${handle.workflowId}/step-s1`).fetchHistory()).events ?? [];
  const runTool = new Set(
    events.flatMap((e) =>
      e.activityTaskScheduledEventAttributes?.activityType?.name === 'runTool' ? [String(e.eventId)] : [],
    ),
  );
  return events.flatMap((e) => {
    const started = e.activityTaskStartedEventAttributes;
    return started && runTool.has(String(started.scheduledEventId)) ? [started.attempt ?? 0] : [];
  });
}

/** What the model was told for tool call `callId` in the step's second request. */
const toolMessage = (callId: string) =>
  bed.llm.requestsFor('step')[1]?.body.messages.find((m) => m.role === 'tool' && m.tool_call_id === callId)?.content;

/** A read tool that throws a retryable failure on its first `failures` calls. */
function flakyTool(failures: number) {
  const calls = { count: 0 };
  const tool = defineTool({
    name: 'flaky',
    description: 'Fails transiently, then works.',
    effect: 'read',
    input: z.object({}),
    run: () => {
      calls.count += 1;
      if (calls.count <= failures) {
        throw ApplicationFailure.create({ message: 'upstream answered 503', nextRetryDelay: 10 });
      }
      return Promise.resolve('worked');
    },
  });
  return { tool, calls };
}

const script = () =>
  byRoute({
    plan: [planReply(plan([step('s1')]))],
    'step:s1': [reply.toolCall('flaky', {}, 'f1'), finish('ok')],
    summary: [reply.text('done')],
  });

test('a retryable tool failure is retried by the activity policy; the model sees the result', async () => {
  const { tool, calls } = flakyTool(1);
  bed.llm.respondWith(script());
  await withWorker(
    bed.config,
    async () => {
      const handle = await startAgent(bed.client, bed.config, { task: 'flaky tool' });
      expect(await handle.result()).toMatchObject({ status: 'completed' });
      expect(calls.count).toBe(2);
      expect(await toolAttempts(handle)).toEqual([2]);
      expect(toolMessage('f1')).toBe('worked');
    },
    [tool],
  );
});

test('when the retries of an idempotent call are used up, the model is told and the step goes on', async () => {
  const { tool, calls } = flakyTool(99);
  bed.llm.respondWith(script());
  await withWorker(
    bed.config,
    async () => {
      const handle = await startAgent(bed.client, bed.config, { task: 'broken tool' });
      expect(await handle.result()).toMatchObject({ status: 'completed' });
      expect(calls.count).toBe(3);
      expect(await toolAttempts(handle)).toEqual([3]);
      expect(toolMessage('f1')).toBe('error: flaky failed: upstream answered 503');
    },
    [tool],
  );
});
