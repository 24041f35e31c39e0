/**
 * What operators and model endpoints see: every activity carries a summary naming its step and
 * tool (`s3 · http_fetch`), the agent's current details (the `__temporal_workflow_metadata`
 * query behind the Temporal UI) follow the plan's progress, and every model request carries
 * `X-Cairn-Agent` (the workflow id of the agent that makes it) and, for a step's calls,
 * `X-Cairn-Step`.
 */
import { createServer, type Server } from 'node:http';
import type { temporal } from '@temporalio/proto';
import { reply } from '../fake-llm/replies';
import { byRoute } from '../fake-llm/routes';
import { activitySummaries } from '../harness/activity-attempts';
import { agentTestbed } from '../harness/agent-testbed';
import { answer, startAgent, waitForInteraction, type AgentHandle } from '../harness/agents';
import { finish, plan, planReply, step } from '../harness/plans';
import { lookupTool } from '../../testkit/lookup-tool';
import { testConfig, withWorker } from '../harness/test-env';

const bed = agentTestbed();
let server: Server;
let pingUrl: string;

beforeAll(async () => {
  server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('pong'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  pingUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/ping`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

/** The agent's current details, as the Temporal UI reads them. */
async function currentDetails(handle: AgentHandle): Promise<string> {
  const metadata = await handle.query<temporal.api.sdk.v1.IWorkflowMetadata>('__temporal_workflow_metadata');
  return metadata.currentDetails ?? '';
}

test('activity summaries name step and tool; current details follow the plan from check to completion', async () => {
  const lookup = lookupTool({ k: 'v' });
  const config = testConfig(bed.llm, { CAIRN_FETCH_ALLOW: 'loopback' });
  bed.llm.respondWith(
    byRoute({
      plan: [planReply(plan([step('s1'), step('s2', ['s1']), step('s3')]))],
      'step:s1': [
        reply.toolCall('lookup', { key: 'k' }),
        reply.toolCall('model', { task: 'Rephrase v' }),
        finish('one'),
      ],
      model: [reply.text('rephrased')],
      'step:s2': [reply.toolCall('ask_user', { kind: 'query', prompt: 'Go on?' }), finish('two')],
      'step:s3': [reply.toolCall('http_fetch', { url: pingUrl }), finish('three')],
      summary: [reply.text('done')],
    }),
  );
  await withWorker(config, async () => {
    const handle = await startAgent(bed.client, config, { task: 'watch me', mode: { confirmPlan: true } });
    const check = await waitForInteraction(handle, 'plan.check');
    const atCheck = await currentDetails(handle);
    expect(atCheck).toMatch(/^\*\*awaiting_input\*\* · plan r1 · \d+ tokens/);
    expect(atCheck).toContain('- ○ `s1` Step s1');
    expect(atCheck).toContain('- ○ `s2` Step s2 ← s1');
    expect(atCheck).toContain(`Waiting for input:\n- ${check.id} plan.check: `);

    await answer(handle, check.id, { decision: 'confirm' });
    const question = await waitForInteraction(handle, 'ask.query', 's2');
    const midway = await currentDetails(handle);
    expect(midway).toMatch(/^\*\*executing\*\* · plan r1/);
    expect(midway).toContain('- ● `s1` Step s1');
    expect(midway).toContain('- ⏸ `s2` Step s2 ← s1');
    expect(midway).toContain(`Waiting for input:\n- ${question.id} ask.query in \`s2\`: Go on?`);

    await answer(handle, question.id, { text: 'yes' });
    await handle.result();
    const atEnd = await currentDetails(handle);
    expect(atEnd).toMatch(/^\*\*completed\*\* · plan r1/);
    expect(atEnd).not.toContain('Waiting for input');
    expect(atEnd.match(/- ● /g)).toHaveLength(3);

    const child = (id: string) => bed.client.workflow.getHandle(`${handle.workflowId}/step-${id}`);
    expect(await activitySummaries(handle)).toEqual(['tool catalogue', 'prompt templates', 'plan r1', 'summary']);
    expect(await activitySummaries(child('s1'))).toEqual([
      's1 · round 1',
      's1 · lookup',
      's1 · round 2',
      's1 · model',
      's1 · round 3',
    ]);
    expect(await activitySummaries(child('s3'))).toEqual(['s3 · round 1', 's3 · http_fetch', 's3 · round 2']);
  }, [lookup.tool]);
});

test('X-Cairn-Agent names the calling agent on every request, X-Cairn-Step the step on its calls', async () => {
  bed.llm.respondWith(
    byRoute({
      plan: [planReply(plan([step('s1')])), planReply(plan([step('n1')]))],
      'step:s1': [
        reply.toolCall('model', { task: 'Translate' }, 'm1'),
        reply.toolCall('sub_agent', { task: 'Dig deeper' }, 'sa1'),
        finish('combined'),
      ],
      model: [reply.text('translated')],
      'step:n1': [finish('nested')],
      summary: [reply.text('nested summary'), reply.text('final')],
    }),
  );
  await withWorker(bed.config, async () => {
    const handle = await startAgent(bed.client, bed.config, { task: 'headers' });
    await handle.result();
    const agent = handle.workflowId;
    const nested = `${agent}/step-s1/sub-sa1`;
    const seen = bed.llm.requests.map((r) => [
      r.headers['x-cairn-purpose'],
      r.headers['x-cairn-agent'],
      r.headers['x-cairn-step'],
    ]);
    expect(seen).toEqual([
      ['plan', agent, undefined],
      ['step', agent, 's1'],
      ['model', agent, 's1'],
      ['step', agent, 's1'],
      ['plan', nested, undefined],
      ['step', nested, 'n1'],
      ['summary', nested, undefined],
      ['step', agent, 's1'],
      ['summary', agent, undefined],
    ]);
  });
});
