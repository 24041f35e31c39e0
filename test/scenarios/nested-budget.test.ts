/**
 * A nested `sub_agent` cannot spend past its tree's budget: the step starts it with what the
 * budget has left as its own (less the step's own spend not yet counted). At that budget the
 * nested agent holds its tree and stops itself — `stopped`, reason `budget`, no interaction of
 * its own; the step counts its usage with its round, and the top-level agent opens the `budget`
 * interaction as usual. After the crossing no model request starts anywhere (the fake's log).
 * A raise while a nested agent runs reaches it (the `nestedBudget` signal): it goes on past the
 * budget it started with and completes.
 */
import { reply, type ScriptedUsage } from '../fake-llm/replies';
import { byRoute } from '../fake-llm/routes';
import type { ScriptedLlm } from '../fake-llm/scripted-llm';
import { agentTestbed } from '../harness/agent-testbed';
import { answer, startAgent, stateOf, waitForInteraction, type AgentHandle } from '../harness/agents';
import { plan, step } from '../harness/plans';
import { recordHistory } from '../harness/histories';
import { expectReplaysItself } from '../harness/replays-itself';
import { expectNoNewRequests } from '../harness/no-new-requests';
import { withWorker } from '../harness/test-env';
import type { AgentResult } from '../../workflows/model/agent/agent-contract';
import { subAgentWorkflowId } from '../../workflows/base/ids';
import { stateQuery } from '../../workflows/contract/messages';
import { waitUntil } from '../../testkit/wait-until';
import { defaultPayloadConverter } from '@temporalio/common';
import { decompressPayload } from '../../temporal/payloads/compression-codec';
import type { AgentInput } from '../../workflows/model/agent/agent-input';

/** Several times what a call takes to reach the fake once a step starts it. */
const QUIET_WINDOW_MS = 1000;
const bed = agentTestbed();

const usage = (total: number): { usage: ScriptedUsage } => ({
  usage: { promptTokens: total / 2, completionTokens: total / 2 },
});
const finishUsing = (result: string, total: number) =>
  reply.toolCalls([{ name: 'finish_step', arguments: { result } }], usage(total));
/** The sum of the usage the fake reported in its answers. */
const reportedTotal = (llm: ScriptedLlm) => llm.requests.reduce((sum, r) => sum + (r.reportedTokens ?? 0), 0);

/**
 * Budget 100. The top plan (10), s1's round that starts the sub-agent (10): the nested agent
 * gets 100 − 10 − 10 = 80. Its plan (10) and n1's first round (100) reach it. The rest is what
 * a nested agent without that budget would go on to ask for.
 */
function scriptNestedSpend(): void {
  bed.llm.respondWith(
    byRoute({
      plan: [reply.json(plan([step('s1')]), usage(10)), reply.json(plan([step('n1')]), usage(10))],
      'step:s1': [
        reply.toolCalls([{ id: 'sub1', name: 'sub_agent', arguments: { task: 'nested work' } }], usage(10)),
        finishUsing('s1 done', 10),
      ],
      'step:n1': [
        reply.toolCalls([{ name: 'no_such_tool', arguments: {} }], { ...usage(100), content: 'Trying a tool.' }),
        finishUsing('nested result', 10),
      ],
      summary: [reply.text('nested summary', usage(10)), reply.text('top summary', usage(10))],
    }),
  );
}

test('a nested agent stops at the budget left to it; the top-level agent counts it and asks', async () => {
  scriptNestedSpend();
  await withWorker(bed.config, async () => {
    const handle = await startAgent(bed.client, bed.config, { task: 'a tree', limits: { tokenBudget: 100 } });
    const budget = await waitForInteraction(handle, 'budget');
    // Every token the fake reported, the nested agent's included: 10 + 10 + 10 + 100.
    expect(budget).toMatchObject({ usedTokens: 130, tokenBudget: 100 });

    const nested: AgentHandle = bed.client.workflow.getHandle(subAgentWorkflowId(handle.workflowId, 's1', 'sub1'));
    const nestedResult: AgentResult = await nested.result();
    expect(nestedResult).toMatchObject({ status: 'stopped', stopReason: 'budget', usage: { totalTokens: 110 } });
    const nestedState = await nested.query(stateQuery);
    expect(nestedState).toMatchObject({ phase: 'stopped', stopReason: 'budget' });
    // It held its own tree first (so n1 started nothing more), then stopped.
    const ends = nestedState.events.filter((e) => e.type === 'agent.paused' || e.type === 'agent.finished');
    expect(ends.map((e) => e.message)).toEqual(['paused (budget)', 'stopped: budget']);
    expect(nestedState.interactions).toEqual([]); // nested agents never ask
    expect(nestedState.steps.map((s) => [s.id, s.status])).toEqual([['n1', 'cancelled']]);
    expect(nestedResult.answer).toContain('(cancelled, partial result)');

    // The crossing was n1's first round: no request after it — plan, s1, nested plan, n1.
    const callers = () => bed.llm.requests.map((r) => r.headers['x-cairn-step'] ?? r.headers['x-cairn-purpose']);
    expect(callers()).toEqual(['plan', 's1', 'plan', 'n1']);
    await expectNoNewRequests(bed.llm, 4, QUIET_WINDOW_MS);
    const held = await stateOf(handle);
    expect(held.phase).toBe('paused');
    expect(held.hold?.reasons).toEqual(['budget']);
    expect(held.usage.totalTokens).toBe(reportedTotal(bed.llm));
    expect(held.steps[0]?.usage.totalTokens).toBe(120);

    await answer(handle, budget.id, { decision: 'stop' });
    const result = await handle.result();
    expect(result).toMatchObject({ status: 'stopped', stopReason: 'budget', usage: { totalTokens: 130 } });
    expect(result.answer).toContain('the budget was spent');
    expect(callers()).toHaveLength(4);
    // Runs of this release (their patch markers) replay with it.
    for (const run of [handle, nested, bed.client.workflow.getHandle(`${handle.workflowId}/step-s1`)]) {
      await expectReplaysItself(run);
    }
    await recordHistory('agent-nested-budget', handle);
    await recordHistory('nested-agent-budget-stop', nested);
  });
});

/**
 * Budget 100, two parallel steps. s1 starts a nested agent with 100 − 10 (plan) − 10 (s1's round)
 * = 80. Once n1's first call is in flight, s2's round (200) crosses the tree's budget: the tree,
 * the nested agent's included, is held. n1's answer is let through only once the nested agent is
 * held; its next round (100) would take the nested agent past its 80 — unless the raise reached it.
 */
function scriptRaiseWhileNestedRuns(n1FirstReply: Promise<unknown>): void {
  bed.llm.respondWith(
    byRoute({
      plan: [reply.json(plan([step('s1'), step('s2')]), usage(10)), reply.json(plan([step('n1')]), usage(10))],
      'step:s1': [
        reply.toolCalls([{ id: 'sub1', name: 'sub_agent', arguments: { task: 'nested work' } }], usage(10)),
        finishUsing('s1 done', 10),
      ],
      'step:s2': [
        reply.heldUntil(reply.toolCalls([{ name: 'no_such_tool', arguments: {} }], usage(200)), { step: 'n1' }),
        finishUsing('s2 done', 10),
      ],
      'step:n1': [
        reply.after(reply.toolCalls([{ name: 'no_such_tool', arguments: {} }], usage(10)), n1FirstReply),
        finishUsing('nested result', 100),
      ],
      summary: [reply.text('nested summary', usage(10)), reply.text('top summary', usage(10))],
    }),
  );
}

/** The input an agent was started with. */
async function inputOf(handle: AgentHandle): Promise<AgentInput> {
  const started = (await handle.fetchHistory()).events?.[0]?.workflowExecutionStartedEventAttributes;
  const [payload] = started?.input?.payloads ?? [];
  if (!payload) throw new Error(`${handle.workflowId} has no input`);
  return defaultPayloadConverter.fromPayload(decompressPayload(payload));
}

test('a raise while a nested agent runs reaches it: held with the tree, it resumes with the new budget and completes', async () => {
  let letN1Answer = () => {};
  scriptRaiseWhileNestedRuns(new Promise<void>((resolve) => (letN1Answer = resolve)));
  await withWorker(bed.config, async () => {
    const handle = await startAgent(bed.client, bed.config, { task: 'a tree', limits: { tokenBudget: 100 } });
    const budget = await waitForInteraction(handle, 'budget');
    const nested: AgentHandle = bed.client.workflow.getHandle(subAgentWorkflowId(handle.workflowId, 's1', 'sub1'));
    await waitUntil('the nested agent is held with its tree', async () =>
      (await nested.query(stateQuery)).hold?.reasons.includes('pause'),
    );
    expect((await inputOf(nested)).limits?.tokenBudget).toBe(80);
    letN1Answer();
    // n1's first round ended while held: its next call waits (plan, s1, s2, nested plan, n1).
    await expectNoNewRequests(bed.llm, 5, QUIET_WINDOW_MS);

    await answer(handle, budget.id, { decision: 'raise', tokenBudget: 1000 });
    expect(await handle.result()).toMatchObject({ status: 'completed', answer: 'top summary' });
    const nestedResult: AgentResult = await nested.result();
    expect(nestedResult).toMatchObject({ status: 'completed', answer: 'nested summary' });
    expect(nestedResult.usage.totalTokens).toBe(130); // past the 80 it started with
    // The budget it went on with: what the raise left the tree (at least what it then used).
    expect((await nested.query(stateQuery)).tokenBudget).toBeGreaterThanOrEqual(130);
    const signals = ((await nested.fetchHistory()).events ?? []).flatMap(
      (e) => e.workflowExecutionSignaledEventAttributes?.signalName ?? [],
    );
    // The step sends the budget before the resume; Temporal may deliver the two in either order.
    expect(signals).toEqual(expect.arrayContaining(['pause', 'nestedBudget', 'resume']));
    // The kept histories of the raise reaching a running nested agent.
    await recordHistory('agent-nested-budget-raise', handle);
    await recordHistory('nested-agent-budget-raise', nested);
  });
});
