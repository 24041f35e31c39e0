/**
 * A step cancelled while it runs hands back what it had: at the deadline (or a cancel) the step
 * sends its partial result — its model's latest text and its tools' answers — before it closes
 * as cancelled; the agent keeps it on the step (state query and HTTP state alike) and a stopped
 * agent's mechanical summary shows it, marked as partial. Calls that finished in the cancelled
 * round reach the step's state and the audit (the approval policy's decision on each).
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WorkflowFailedError } from '@temporalio/client';
import type { AuditEntry } from '../../client/agents/audit-entries';
import type { CairnConfig } from '../../config/config';
import type { AgentState } from '../../workflows/model/agent/agent-state';
import { lookupTool } from '../../testkit/lookup-tool';
import { reply } from '../fake-llm/replies';
import { byRoute } from '../fake-llm/routes';
import { agentTestbed } from '../harness/agent-testbed';
import { startAgent, stateOf, waitForState } from '../harness/agents';
import { finish, plan, planReply, step } from '../harness/plans';
import { recordHistory } from '../harness/histories';
import { expectReplaysItself } from '../harness/replays-itself';
import { testConfig, withWorker } from '../harness/test-env';
import { testApp } from '../harness/http-app';

const bed = agentTestbed();
/**
 * Far from what must happen before it — a plan, step a and step b's first round from the fake
 * model, well under a second on an idle machine — so a loaded one cannot make it strike first.
 */
const DEADLINE_MS = 8_000;

/** Step b's first round: a thought and a lookup; its second round never answers. */
function scriptMidReAct(): void {
  bed.llm.respondWith(
    byRoute({
      plan: [planReply(plan([step('a'), step('b')]))],
      'step:a': [finish('result-a')],
      'step:b': [
        reply.toolCalls([{ id: 'look1', name: 'lookup', arguments: { key: 'k1' } }], {
          content: 'Reading the table first.',
          usage: { promptTokens: 30, completionTokens: 10 },
        }),
        reply.hang(), // round 2: still in flight when the step is cancelled
      ],
    }),
  );
}

/** A policy file allowing the lookup tool by a named rule. */
function lookupPolicyFile(): string {
  const file = join(mkdtempSync(join(tmpdir(), 'cairn-partial-policy-')), 'policy.cedar');
  writeFileSync(
    file,
    '@id("lookups-are-free")\npermit (principal, action == Action::"call", resource == Tool::"lookup");\n',
  );
  return file;
}

/** The agent's audit as the HTTP API serves it. */
async function auditOf(id: string, config: CairnConfig): Promise<AuditEntry[]> {
  const app = testApp(bed.client, config.taskQueue);
  const res = await app.request(`/api/agents/${encodeURIComponent(id)}/audit`);
  expect(res.status).toBe(200);
  return ((await res.json()) as { entries: AuditEntry[] }).entries;
}

const PARTIAL_B = 'Reading the table first. (called lookup)\nlookup → value-of-k1';

test('the deadline cancels a step mid-ReAct: the state and the summary keep its partial result', async () => {
  scriptMidReAct();
  const lookup = lookupTool();
  await withWorker(
    bed.config,
    async () => {
      const handle = await startAgent(bed.client, bed.config, { task: 'in time', limits: { deadlineMs: DEADLINE_MS } });
      const result = await handle.result();
      expect(result).toMatchObject({ status: 'stopped', stopReason: 'deadline' });
      const state = await stateOf(handle);
      expect(state).toMatchObject({ phase: 'stopped', stopReason: 'deadline' });
      expect(state.steps.map((s) => [s.id, s.status, s.partial])).toEqual([
        ['a', 'completed', undefined],
        ['b', 'cancelled', PARTIAL_B],
      ]);
      expect(result.answer).toContain('### Step a (completed)\nresult-a');
      expect(result.answer).toContain(`### Step b (cancelled, partial result)\n${PARTIAL_B}`);
      expect(state.result).toBe(result.answer);
      // Round 2 was in flight, never answered: nothing more was asked, no summary call.
      const callers = bed.llm.requests.map((r) => r.headers['x-cairn-step'] ?? r.headers['x-cairn-purpose']);
      expect(callers.sort()).toEqual(['a', 'b', 'b', 'plan']);
      expect(state.steps[1]?.usage.totalTokens).toBe(40);
      // The step itself still closed as cancelled.
      const child = bed.client.workflow.getHandle(`${handle.workflowId}/step-b`);
      expect((await child.describe()).status.name).toBe('CANCELLED');
      // The HTTP state shows it too.
      const app = testApp(bed.client, bed.config.taskQueue);
      const res = await app.request(`/api/agents/${encodeURIComponent(handle.workflowId)}`);
      expect(res.status).toBe(200);
      const body = (await res.json()) as AgentState;
      expect(body.steps.find((s) => s.id === 'b')?.partial).toBe(PARTIAL_B);
      // Runs of this release (their patch markers) replay with it.
      await expectReplaysItself(handle);
      await expectReplaysItself(child);
      await recordHistory('agent-deadline-partial', handle);
      await recordHistory('step-cancelled-partial', child);
    },
    [lookup.tool],
  );
});

test('a cancelled agent keeps the partial result of the step it cancelled', async () => {
  scriptMidReAct();
  const lookup = lookupTool();
  await withWorker(
    bed.config,
    async () => {
      const handle = await startAgent(bed.client, bed.config, { task: 'cancel me' });
      await waitForState(handle, 'b in its second round', (s) => s.steps[1]?.rounds === 1);
      await bed.llm.waitForRequests(4);
      await handle.cancel();
      await expect(handle.result()).rejects.toBeInstanceOf(WorkflowFailedError);
      const state = await stateOf(handle);
      expect(state.phase).toBe('cancelled');
      expect(state.steps.map((s) => [s.id, s.status, s.partial])).toEqual([
        ['a', 'completed', undefined],
        ['b', 'cancelled', PARTIAL_B],
      ]);
    },
    [lookup.tool],
  );
});

test('calls a cancelled step finished in its unfinished round reach the state and the audit', async () => {
  bed.llm.respondWith(
    byRoute({
      plan: [planReply(plan([step('a')]))],
      'step:a': [
        // One reply: a lookup that finishes, then a question the agent is cancelled during.
        reply.toolCalls(
          [
            { id: 'look1', name: 'lookup', arguments: { key: 'k1' } },
            { id: 'ask1', name: 'ask_user', arguments: { kind: 'query', prompt: 'Which table?' } },
          ],
          { content: 'Looking it up, then asking.' },
        ),
      ],
    }),
  );
  const lookup = lookupTool();
  // A policy decides the lookup, so that the call has an audit entry (the policy's decision).
  const config = testConfig(bed.llm, { CAIRN_POLICY_FILE: lookupPolicyFile() });
  await withWorker(config, async () => {
    const handle = await startAgent(bed.client, config, { task: 'cancel me while I ask' });
    await waitForState(handle, 'the step asks', (s) => s.interactions.some((i) => i.kind === 'ask.query'));
    expect(await auditOf(handle.workflowId, config)).toEqual([]); // the round has not reported yet
    await handle.cancel();
    await expect(handle.result()).rejects.toBeInstanceOf(WorkflowFailedError);
    const state = await stateOf(handle);
    expect(state.steps[0]?.status).toBe('cancelled');
    expect(state.steps[0]?.toolCalls.map((c) => [c.callId, c.name, c.outcome])).toEqual([['look1', 'lookup', 'ok']]);
    const policy = (await auditOf(handle.workflowId, config)).filter((e) => e.kind === 'policy');
    expect(policy).toEqual([
      expect.objectContaining({ tool: 'lookup', stepId: 'a', decision: 'allow', rule: 'lookups-are-free' }),
    ]);
  }, [lookup.tool]);
});
