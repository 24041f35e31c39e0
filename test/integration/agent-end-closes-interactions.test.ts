/**
 * An agent that ends while a person's question is open — cancelled here — closes it: the
 * interaction expires with a timeline note, and the agent is no longer listed as awaiting input
 * (the `AgentAwaitingInput` search attribute the Temporal UI and `cairn ls --waiting` filter on).
 */
import { CancelledFailure, WorkflowFailedError } from '@temporalio/client';
import { byRoute } from '../fake-llm/routes';
import { agentTestbed } from '../harness/agent-testbed';
import { startAgent, stateOf, waitForInteraction } from '../harness/agents';
import { plan, planReply, step } from '../harness/plans';
import { withWorker } from '../harness/test-env';
import { AgentAwaitingInputKey, AgentPhaseKey } from '../../workflows/contract/search-attributes';

const bed = agentTestbed();

test('cancelling an agent at its plan check closes the check and clears AgentAwaitingInput', async () => {
  bed.llm.respondWith(byRoute({ plan: [planReply(plan([step('s1')]))] }));
  await withWorker(bed.config, async () => {
    const handle = await startAgent(bed.client, bed.config, { task: 'never confirmed', mode: { confirmPlan: true } });
    const check = await waitForInteraction(handle, 'plan.check');
    expect((await handle.describe()).typedSearchAttributes.get(AgentAwaitingInputKey)).toBe(true);

    await handle.cancel();
    const failure = await handle.result().catch((err: unknown) => err);
    expect(failure).toBeInstanceOf(WorkflowFailedError);
    expect((failure as WorkflowFailedError).cause).toBeInstanceOf(CancelledFailure);

    const state = await stateOf(handle);
    expect(state.phase).toBe('cancelled');
    expect(state.interactions.map((i) => [i.id, i.status, i.answer])).toEqual([[check.id, 'expired', undefined]]);
    expect(state.events.map((e) => e.message)).toContain(`${check.id} closed: the agent was cancelled`);
    const attributes = (await handle.describe()).typedSearchAttributes;
    expect(attributes.get(AgentPhaseKey)).toBe('cancelled');
    expect(attributes.get(AgentAwaitingInputKey)).toBe(false);
  });
});
