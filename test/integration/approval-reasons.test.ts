/**
 * Approvals with a reason (docs/contracts.md#interactions-and-answers): a step's `tool.approval`
 * carries `why`, the last 1000 characters of the text the model wrote in the same reply before
 * its tool calls (marked when cut), and none when it wrote no text — in the state, over HTTP, and
 * for each call of a reply. The testbed's after-each check (test/harness/approval-reasons.ts)
 * holds every other test's approvals to the same rule; here it is also run directly, so a pass
 * that checked nothing shows.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { reply } from '../fake-llm/replies';
import { byRoute } from '../fake-llm/routes';
import { agentTestbed } from '../harness/agent-testbed';
import { answer, startAgent, waitForInteraction, waitForState } from '../harness/agents';
import { approvalReasonProblems } from '../harness/approval-reasons';
import { stateOverHttp, testApp } from '../harness/http-app';
import { finish, plan, planReply, step } from '../harness/plans';
import { testConfig, withWorker } from '../harness/test-env';
import type { Interaction } from '../../workflows/model/interactions/interaction-types';

const bed = agentTestbed();

const write = (path: string) => ({ name: 'write_file', arguments: { path, content: path } });

test('each approval carries the end of what the model wrote before its call; none without text', async () => {
  const workspace = mkdtempSync(join(tmpdir(), 'approval-why-'));
  const config = testConfig(bed.llm, { CAIRN_WORKSPACE: workspace });
  const short = 'The report goes to report.md; I will write it now.';
  const long = `${'Background that goes on and on. '.repeat(60)}So I write long.md last.`;
  bed.llm.respondWith(
    byRoute({
      plan: [planReply(plan([step('s1')]))],
      'step:s1': [
        // Two calls of one reply: both approvals carry its text.
        reply.toolCalls([write('report.md'), write('copy.md')], { content: short }),
        reply.toolCalls([write('long.md')], { content: long }),
        reply.toolCalls([write('silent.md')]),
        finish('wrote four files'),
      ],
      summary: [reply.text('done')],
    }),
  );
  await withWorker(config, async () => {
    const handle = await startAgent(bed.client, config, { task: 'write four files' });
    const app = testApp(bed.client, config.taskQueue);
    const seen: Interaction[] = [];
    for (let n = 1; n <= 4; n++) {
      const approval = await waitForInteraction(handle, 'tool.approval', 's1');
      // The HTTP API serves the same question, why included.
      const overHttp = (await stateOverHttp(app, handle.workflowId)).interactions.find((i) => i.id === approval.id);
      expect(overHttp).toEqual(approval);
      seen.push(approval);
      await answer(handle, approval.id, { decision: 'approve', digest: approval.digest });
      await waitForState(handle, `${approval.id} answered`, (s) =>
        s.interactions.some((i) => i.id === approval.id && i.status === 'answered'),
      );
    }
    expect(await handle.result()).toMatchObject({ status: 'completed' });
    const whys = seen.map((i) => (i.kind === 'tool.approval' ? [(i.arguments as { path: string }).path, i.why] : []));
    expect(whys.slice(0, 2)).toEqual([
      ['report.md', short],
      ['copy.md', short],
    ]);
    const [longPath, longWhy] = whys[2] ?? [];
    expect(longPath).toBe('long.md');
    expect(longWhy).toBe(`[…] ${long.slice(-1000)}`);
    expect(whys[3]).toEqual(['silent.md', undefined]);
    // The after-each check sees these same approvals: three had text, all say why.
    expect(await approvalReasonProblems(bed.client, bed.llm)).toEqual({ checked: 3, problems: [] });
  });
});
