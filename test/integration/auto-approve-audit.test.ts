/**
 * CAIRN_AUTO_APPROVE without a policy file (docs/operations.md#approval-policies):
 * a named write tool runs unasked, and the audit lists the call as a policy decision `allow` by
 * rule `CAIRN_AUTO_APPROVE`, the way it would under a policy file — not as a silent skip.
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
import { withWorker } from '../harness/test-env';

const workspace = join(mkdtempSync(join(tmpdir(), 'cairn-auto-approve-')), 'workspace');
const bed = agentTestbed({ CAIRN_WORKSPACE: workspace, CAIRN_AUTO_APPROVE: 'write_file' });

test('an auto-approved write runs unasked and is audited as a policy decision with its rule', async () => {
  bed.llm.respondWith(
    byRoute({
      plan: [planReply(plan([step('s1')]))],
      'step:s1': [reply.toolCall('write_file', { path: 'notes.md', content: 'hi' }), finish('written')],
      summary: [reply.text('done')],
    }),
  );
  await withWorker(bed.config, async () => {
    const agent = await startAgent(bed.client, bed.config, { task: 'Write a note' });
    const done = await waitForState(agent, 'the agent completes', (s) => s.phase === 'completed');
    expect(done.interactions.filter((i) => i.kind === 'tool.approval')).toEqual([]);
    expect(existsSync(agentFile(workspace, agent.workflowId, 'notes.md'))).toBe(true);
    expect(auditOf(done).filter((e) => e.kind === 'policy')).toEqual([
      expect.objectContaining({
        decision: 'allow',
        rule: 'CAIRN_AUTO_APPROVE',
        tool: 'write_file',
        stepId: 's1',
        what: 'policy allow write_file (rule CAIRN_AUTO_APPROVE)',
      }),
    ]);
  });
});
