/**
 * A tool's time is its own run, not the wait for its approval (issue 47): a write whose approval
 * is answered seconds after it opened, by a tool that writes at once, reports a time shorter than
 * that wait — before, the time counted from before the approval was asked. Its transcript's
 * record and the agent's state say the same.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { said, reply } from '../fake-llm/replies';
import { byRoute } from '../fake-llm/routes';
import { agentTestbed } from '../harness/agent-testbed';
import { answer, startAgent, stateOf, waitForInteraction } from '../harness/agents';
import { finish, plan, planReply, step } from '../harness/plans';
import { withWorker } from '../harness/test-env';

const bed = agentTestbed();

/** How long the person takes to approve: far longer than writing a short file takes. */
const APPROVAL_WAIT_MS = 3_000;

test("a write's time leaves out the wait for its approval", async () => {
  bed.llm.respondWith(
    byRoute({
      plan: [planReply(plan([step('s1')]))],
      'step:s1': [
        said('I will write the note.', reply.toolCall('write_file', { path: 'note.md', content: 'hi\n' }, 'w1')),
        finish('written'),
      ],
      summary: [reply.text('done')],
    }),
  );
  await withWorker(bed.config, async () => {
    const handle = await startAgent(bed.client, bed.config, { task: 'write a note' });
    const approval = await waitForInteraction(handle, 'tool.approval', 's1');
    await sleep(APPROVAL_WAIT_MS);
    await answer(handle, approval.id, { decision: 'approve', digest: approval.digest }, 'alice');
    expect(await handle.result()).toMatchObject({ status: 'completed' });
    const state = await stateOf(handle);
    const answered = state.interactions.find((i) => i.id === approval.id);
    // The approval did wait that long, in the workflow's own time.
    expect((answered?.answeredAt ?? 0) - (answered?.createdAt ?? 0)).toBeGreaterThanOrEqual(APPROVAL_WAIT_MS);
    const step = state.steps.find((s) => s.id === 's1');
    const [write] = step?.toolCalls ?? [];
    expect(write).toMatchObject({ name: 'write_file', outcome: 'ok' });
    // Causal, not a race: the tool ran after the approval was answered and before its step ended,
    // so its own time fits in that window; a time that counted the wait (3 s and more) would not.
    if (answered?.answeredAt === undefined || step?.endedAt === undefined) throw new Error('no answer or step end');
    expect(write?.durationMs).toBeLessThanOrEqual(step.endedAt - answered.answeredAt);
  });
});
