/**
 * The `fail` step-failure policy stops the rest of the plan: when one step fails, the other
 * running steps are cancelled — they end `cancelled`, their child workflows close as cancelled,
 * their in-flight tool and model calls get a cancellation request, and a running tool sees its
 * abort signal fire — and the agent fails naming the step.
 */
import { WorkflowFailedError } from '@temporalio/client';
import { z } from 'zod';
import { defineTool } from '../../activities/tools/define-tool';
import { reply } from '../fake-llm/replies';
import { byRoute } from '../fake-llm/routes';
import { agentTestbed } from '../harness/agent-testbed';
import { startAgent, stateOf, waitForState } from '../harness/agents';
import { plan, planReply, step } from '../harness/plans';
import { withWorker } from '../harness/test-env';
import { waitUntil } from '../../testkit/wait-until';

const bed = agentTestbed();

/** `slow` runs until its call is aborted; `gate` returns once a `slow` call and step s3's model call are in flight. */
function tools() {
  const started: string[] = [];
  const aborted: string[] = [];
  const slow = defineTool({
    name: 'slow',
    description: 'Works until stopped.',
    effect: 'read',
    input: z.object({}),
    run: (_args, { idempotencyKey, signal }) => {
      started.push(idempotencyKey);
      return new Promise((resolve) =>
        signal.addEventListener('abort', () => {
          aborted.push(idempotencyKey);
          resolve('stopped');
        }),
      );
    },
  });
  const gate = defineTool({
    name: 'gate',
    description: 'Waits until the siblings are busy.',
    effect: 'read',
    input: z.object({}),
    run: async () => {
      await waitUntil(
        's2 runs a tool and s3 calls the model',
        () => started.length > 0 && bed.llm.requests.some((r) => r.headers['x-cairn-step'] === 's3'),
      );
      return 'open';
    },
  });
  return { started, aborted, definitions: [slow, gate] };
}

test('onStepFailure fail: a failing step cancels the running siblings and their in-flight calls; the agent fails', async () => {
  const { aborted, definitions } = tools();
  bed.llm.respondWith(
    byRoute({
      plan: [planReply(plan([step('s1'), step('s2'), step('s3')]))],
      // s1 fails (a 400 is not retried) only once s2's tool call and s3's model call are in flight.
      'step:s1': [reply.toolCall('gate', {}, 'g1'), reply.error(400, 'bad request')],
      'step:s2': [reply.toolCall('slow', {}, 'w1')],
      'step:s3': [reply.hang()],
    }),
  );
  await withWorker(
    bed.config,
    async () => {
      const handle = await startAgent(bed.client, bed.config, { task: 'fail fast', onStepFailure: 'fail' });
      const settled = await waitForState(
        handle,
        'every step settled',
        (s) => s.steps.length > 0 && s.steps.every((x) => !['pending', 'running', 'waiting'].includes(x.status)),
      );
      expect(settled.steps.map((s) => [s.id, s.status])).toEqual([
        ['s1', 'failed'],
        ['s2', 'cancelled'],
        ['s3', 'cancelled'],
      ]);
      const error = await handle.result().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(WorkflowFailedError);
      expect((error as WorkflowFailedError).cause?.message).toMatch(/step s1 failed: .*LLM_REJECTED/);
      expect((await stateOf(handle)).phase).toBe('failed');

      for (const id of ['s2', 's3']) {
        const child = bed.client.workflow.getHandle(`${handle.workflowId}/step-${id}`);
        expect((await child.describe()).status.name).toBe('CANCELLED');
        const events = (await child.fetchHistory()).events ?? [];
        expect(events.some((e) => e.activityTaskCancelRequestedEventAttributes)).toBe(true);
      }
      // The running tool call was told to stop (its abort signal fired), and stopped.
      await waitUntil('the slow tool saw its abort', () => aborted.length === 1);
      expect(aborted).toEqual([`${handle.workflowId}/s2/w1`]);
      expect(bed.llm.requests.filter((r) => r.headers['x-cairn-step'] === 's3')).toHaveLength(1);
    },
    definitions,
  );
});
