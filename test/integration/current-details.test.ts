/**
 * The Temporal UI's current details follow every step change, not only phase changes: a step
 * that completes while another waits for a person shows as completed at once. A thread's list its
 * turns and what it waits on; an agent's waiting line names the tool and file an approval is for.
 */
import type { temporal } from '@temporalio/proto';
import { z } from 'zod';
import { defineTool } from '../../activities/tools/define-tool';
import { stepWorkflowId } from '../../workflows/base/ids';
import { stateQuery } from '../../workflows/contract/messages';
import { reply, said } from '../fake-llm/replies';
import { byRoute } from '../fake-llm/routes';
import { agentTestbed } from '../harness/agent-testbed';
import { answer, startAgent, waitForInteraction, waitForState, type AgentHandle } from '../harness/agents';
import { finish, plan, planReply, step } from '../harness/plans';
import { withWorker } from '../harness/test-env';
import { ThreadClient } from '../../client/threads/thread-client';
import { waitUntil } from '../../testkit/wait-until';

const bed = agentTestbed();

async function currentDetails(handle: Pick<AgentHandle, 'query'>): Promise<string> {
  const metadata = await handle.query<temporal.api.sdk.v1.IWorkflowMetadata>('__temporal_workflow_metadata');
  return metadata.currentDetails ?? '';
}

test('current details follow a step that finishes while another waits', async () => {
  const gate = defineTool({
    name: 'gate',
    description: 'Waits until s1 waits for an answer.',
    effect: 'read',
    input: z.object({}),
    run: async (_args, { idempotencyKey }) => {
      const agentId = idempotencyKey.slice(0, idempotencyKey.indexOf('/s2/'));
      await waitUntil('s1 waits', async () => {
        const state = await bed.client.workflow.getHandle(agentId).query(stateQuery);
        return state.steps.find((s) => s.id === 's1')?.status === 'waiting';
      });
      return 'open';
    },
  });
  bed.llm.respondWith(
    byRoute({
      plan: [planReply(plan([step('s1'), step('s2')]))],
      'step:s1': [reply.toolCall('ask_user', { kind: 'query', prompt: 'Go on?' }), finish('one')],
      'step:s2': [reply.toolCall('gate', {}), finish('two')],
      summary: [reply.text('done')],
    }),
  );
  await withWorker(
    bed.config,
    async () => {
      const handle = await startAgent(bed.client, bed.config, { task: 'details' });
      const question = await waitForInteraction(handle, 'ask.query', 's1');
      await waitForState(handle, 's2 completed', (s) => s.steps.find((x) => x.id === 's2')?.status === 'completed');
      const details = await currentDetails(handle);
      await answer(handle, question.id, { text: 'yes' });
      await handle.result();
      expect(details).toContain('- ● `s2` Step s2');
    },
    [gate],
  );
});

test("a step's current details show its latest round: the model's last line and its calls", async () => {
  bed.llm.respondWith(
    byRoute({
      plan: [planReply(plan([step('s1')]))],
      'step:s1': [
        said(
          'Looking at the notes first.\nI will ask before going on.',
          reply.toolCall('ask_user', { kind: 'query', prompt: 'Go on?' }),
        ),
        finish('one'),
      ],
      summary: [reply.text('done')],
    }),
  );
  await withWorker(bed.config, async () => {
    const handle = await startAgent(bed.client, bed.config, { task: 'latest line' });
    const question = await waitForInteraction(handle, 'ask.query', 's1');
    const stepHandle = bed.client.workflow.getHandle(stepWorkflowId(handle.workflowId, 's1'));
    const waiting = await currentDetails(stepHandle);
    await answer(handle, question.id, { text: 'yes' });
    await handle.result();
    expect(waiting).toBe('**Round 1** — I will ask before going on.\n- `ask_user` pending');
    // The closed step answers by replay: its last round, the finish_step call settled.
    expect(await currentDetails(stepHandle)).toMatch(/^\*\*Round 2\*\*\n- `finish_step` /);
  });
});

test("a thread's current details list its turns and say what it waits on: its running turn's agent, then the next message", async () => {
  const write = { path: 'notes/brief.md', content: 'The brief.' };
  bed.llm.respondWith(
    byRoute({
      'route-message': [reply.json({ kind: 'task', reason: 'work' })],
      plan: [planReply(plan([step('w1')]))],
      'step:w1': [said('I will save the brief.', reply.toolCall('write_file', write)), finish('saved')],
      summary: [reply.text('Saved.')],
      title: [reply.text('Saving the brief')],
    }),
  );
  const threads = new ThreadClient(bed.client, bed.config.taskQueue);
  await withWorker(bed.config, async () => {
    const { id } = await threads.open({ text: 'Save the brief to notes/brief.md' });
    const thread = bed.client.workflow.getHandle(id);
    const agentId = `${id}/turn-1`;
    const agent: AgentHandle = bed.client.workflow.getHandle(agentId);
    const approval = await waitForInteraction(agent, 'tool.approval', 'w1');
    const waiting = await waitUntil('the thread shows its running turn', async () => {
      const details = await currentDetails(thread);
      return details.includes('Waiting on: its running turn') ? details : undefined;
    });
    expect(waiting).toContain(`- ◔ msg-1 task → \`${agentId}\`: Save the brief to notes/brief.md`);
    expect(waiting).toContain(`Waiting on: its running turn msg-1, agent \`${agentId}\``);
    // The agent's waiting line names the tool and the file it waits to write.
    expect(await currentDetails(agent)).toContain(
      `- ${approval.id} tool.approval in \`w1\`: write_file notes/brief.md`,
    );

    await answer(agent, approval.id, { decision: 'approve', digest: approval.digest });
    await agent.result();
    const after = await waitUntil('the thread waits for its next message', async () => {
      const details = await currentDetails(thread);
      return details.includes('Waiting on: the next message') ? details : undefined;
    });
    expect(after).toMatch(/^\*\*Saving the brief\*\* · 1 turn\n/);
    expect(after).toContain(`- ● msg-1 task → \`${agentId}\`: Save the brief`);
    await thread.terminate('thread details test over');
  });
});
