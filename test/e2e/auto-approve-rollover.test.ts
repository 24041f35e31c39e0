/**
 * CAIRN_AUTO_APPROVE across continue-as-new, on a dev server of its own whose suggestion comes
 * after a few dozen history events: an agent whose six steps each make one auto-approved
 * write rolls over between them, and the audit still lists every write as a policy decision
 * `allow` by rule `CAIRN_AUTO_APPROVE` — the catalogue the next run reads from the carry keeps
 * which tools are auto-approved (it once dropped the flag, and the writes after the boundary ran
 * unasked with no record).
 */
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { auditOf } from '../../client/agents/audit-entries';
import { reply } from '../fake-llm/replies';
import { byRoute } from '../fake-llm/routes';
import { agentTestbed } from '../harness/agent-testbed';
import { startAgent, waitForState, agentFile } from '../harness/agents';
import { finish, plan, planReply, step } from '../harness/plans';
import { rolloverServer } from '../harness/rollover-server';
import { testConfig, withWorker } from '../harness/test-env';

const workspace = join(mkdtempSync(join(tmpdir(), 'cairn-auto-approve-can-')), 'workspace');
const bed = agentTestbed();
const server = rolloverServer('auto-approve-can');
/** Enough steps, one after the other, that the agent's history passes the suggestion between them. */
const STEPS = ['s1', 's2', 's3', 's4', 's5', 's6'];

test('auto-approved writes on both sides of a continue-as-new are all in the audit', async () => {
  const config = testConfig(bed.llm, {
    TEMPORAL_ADDRESS: server.address,
    CAIRN_WORKSPACE: workspace,
    CAIRN_AUTO_APPROVE: 'write_file',
  });
  bed.llm.respondWith(
    byRoute({
      plan: [planReply(plan(STEPS.map((id, i) => step(id, i === 0 ? [] : [STEPS[i - 1] ?? '']))))],
      ...Object.fromEntries(
        STEPS.map((id) => [
          `step:${id}`,
          [reply.toolCall('write_file', { path: `${id}.md`, content: id }), finish(`${id} written`)],
        ]),
      ),
      summary: [reply.text('done')],
    }),
  );
  await withWorker(config, async () => {
    const agent = await startAgent(server.client, config, { task: 'Write three notes' });
    const done = await waitForState(agent, 'the agent completes', (s) => s.phase === 'completed');
    // It rolled over while its steps ran: the run that completed is not the first.
    const { runId } = await agent.describe();
    const first = (await agent.fetchHistory()).events?.[0]?.workflowExecutionStartedEventAttributes
      ?.firstExecutionRunId;
    expect(runId).not.toBe(first);
    expect(done.interactions.filter((i) => i.kind === 'tool.approval')).toEqual([]);
    expect(STEPS.filter((id) => !existsSync(agentFile(workspace, agent.workflowId, `${id}.md`)))).toEqual([]);
    expect(
      auditOf(done)
        .filter((e) => e.kind === 'policy')
        .map((e) => [e.stepId, e.tool, e.decision, e.rule]),
    ).toEqual(STEPS.map((id) => [id, 'write_file', 'allow', 'CAIRN_AUTO_APPROVE']));
  });
});
