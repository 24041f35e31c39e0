/**
 * An agent whose previous run was on an earlier release resumes on the current code
 * (docs/operations.md#the-carry-is-a-versioned-contract): each kept carry is handed to
 * `agentWorkflow` as its continue-as-new did, with the input that run had, and the agent goes
 * on — an open plan check carried over is answered, the steps not yet run are run, the
 * timeline goes on from its cursor — to completion.
 */
import { defaultPayloadConverter } from '@temporalio/common';
import { reply } from '../fake-llm/replies';
import { byRoute } from '../fake-llm/routes';
import { agentTestbed } from '../harness/agent-testbed';
import { answer, stateOf, waitForInteraction, type AgentHandle } from '../harness/agents';
import { finish } from '../harness/plans';
import { savedCarries } from '../harness/carries';
import { savedHistories } from '../harness/histories';
import { uniqueId, withWorker } from '../harness/test-env';
import { lookupTool } from '../../testkit/lookup-tool';
import type { AgentState } from '../../workflows/model/agent/agent-state';
import type { AgentInput } from '../../workflows/model/agent/agent-input';
import { agentWorkflow } from '../../workflows/agent/agent-workflow';

const bed = agentTestbed();

/** The input the run that wrote a kept carry was started with (its recorded history's first event). */
function inputOf(release: string, name: string): AgentInput {
  const history = savedHistories().find((h) => h.release === release && h.name === name);
  const payload = history?.history.events?.[0]?.workflowExecutionStartedEventAttributes?.input?.payloads?.[0];
  if (!payload) throw new Error(`no recorded history for the carry ${release}/${name}`);
  return defaultPayloadConverter.fromPayload(payload);
}

const carries = savedCarries()
  .filter((c) => c.workflow === 'agent')
  .map((c) => ({
    ...c,
    written: c.carry as { resumeAt: string; state: AgentState },
    input: inputOf(c.release, c.name),
  }));

test('every release kept a carry to resume for both resume points', () => {
  const releases = [...new Set(carries.map((c) => c.release))];
  expect(releases.length).toBeGreaterThan(0);
  for (const release of releases) {
    const points = carries.filter((c) => c.release === release).map((c) => c.written.resumeAt);
    expect([release, points.sort()]).toEqual([release, ['execute', 'plan-check']]);
  }
});

test.each(carries.map((c) => [`${c.release}/${c.name}`, c] as const))(
  'an agent carried by %s resumes on the current code and completes',
  async (_name, { written, input }) => {
    const pending = written.state.steps.filter((s) => s.status !== 'completed').map((s) => s.id);
    bed.llm.respondWith(
      byRoute({
        ...Object.fromEntries(pending.map((id) => [`step:${id}`, [finish(`${id} done`)]])),
        summary: [reply.text('all done')],
      }),
    );
    await withWorker(
      bed.config,
      async () => {
        const handle: AgentHandle = await bed.client.workflow.start(agentWorkflow, {
          taskQueue: bed.config.taskQueue,
          workflowId: uniqueId('agent-carried'),
          args: [input, written as Parameters<typeof agentWorkflow>[1]],
        });
        const open = written.state.interactions.filter((i) => i.status === 'open');
        if (written.resumeAt === 'plan-check') {
          // The plan check the previous run opened is still the one to answer.
          const check = await waitForInteraction(handle, 'plan.check');
          expect(open.map((i) => i.id)).toEqual([check.id]);
          await answer(handle, check.id, { decision: 'confirm' });
        }
        expect(await handle.result()).toMatchObject({ status: 'completed', answer: 'all done' });
        const state = await stateOf(handle);
        // Only what had not run yet ran: no planning, no step twice.
        expect(bed.llm.requestsFor('plan')).toHaveLength(0);
        expect(bed.llm.requests.map((r) => r.headers['x-cairn-step']).filter(Boolean)).toEqual(pending);
        expect(state.steps.map((s) => [s.id, s.status])).toEqual(written.state.steps.map((s) => [s.id, 'completed']));
        const done = written.state.steps.filter((s) => s.status === 'completed');
        expect(state.steps.filter((s) => done.some((d) => d.id === s.id))).toEqual(done);
        // The interactions and the timeline go on from where the previous run left them.
        expect(state.interactions.map((i) => i.id)).toEqual(written.state.interactions.map((i) => i.id));
        expect(state.interactions.every((i) => i.status === 'answered')).toBe(true);
        const newEvents = state.events.filter((e) => e.seq > written.state.eventSeq);
        expect(newEvents[0]?.seq).toBe(written.state.eventSeq + 1);
        expect(newEvents.map((e) => e.seq)).toEqual(
          Array.from({ length: state.eventSeq - written.state.eventSeq }, (_, i) => written.state.eventSeq + i + 1),
        );
      },
      [lookupTool().tool],
    );
  },
);
