/**
 * Tools through the agent: approvals bound to a digest (two at once, from parallel steps,
 * answered independently, with an audit record), and the `model` and `sub_agent` built-ins
 * with their token usage added to the parent's.
 */
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { z } from 'zod';
import { approvalDigest } from '../../workflows/step/approval-digest';
import { reply, said } from '../fake-llm/replies';
import { byRoute } from '../fake-llm/routes';
import { ECHO_DESCRIPTIONS } from '../fixtures/mcp/echo-server';
import { greetTool } from '../fixtures/user-tools/greeting-tools';
import { agentTestbed } from '../harness/agent-testbed';
import { answer, rejection, startAgent, stateOf, waitForState, agentFile } from '../harness/agents';
import { finish, plan, planReply, step } from '../harness/plans';
import { expectNothingChanged } from '../harness/nothing-changed';
import { testConfig, withWorker } from '../harness/test-env';

const bed = agentTestbed();

function toolMessage(stepId: string, index: number, callId: string): string {
  const request = bed.llm.requests.filter(
    (r) => r.headers['x-cairn-step'] === stepId && r.headers['x-cairn-purpose'] === 'step',
  )[index];
  const message = request?.body.messages.find((m) => m.role === 'tool' && m.tool_call_id === callId);
  return typeof message?.content === 'string' ? message.content : '';
}

test('two parallel approvals: each bound to its digest and answered on its own, with an audit record', async () => {
  const workspace = mkdtempSync(join(tmpdir(), 'approvals-'));
  const config = testConfig(bed.llm, { CAIRN_WORKSPACE: workspace });
  bed.llm.respondWith(
    byRoute({
      plan: [planReply(plan([step('s1'), step('s2')]))],
      'step:s1': [
        said(
          'Step s1 needs a.txt, so I write it.',
          reply.toolCall('write_file', { path: 'a.txt', content: 'A' }, 'w1'),
        ),
        finish('wrote a'),
      ],
      'step:s2': [
        said('And b.txt for s2.', reply.toolCall('write_file', { path: 'b.txt', content: 'B' }, 'w2')),
        finish('gave up on b'),
      ],
      summary: [reply.text('done')],
    }),
  );
  await withWorker(config, async () => {
    const handle = await startAgent(bed.client, config, { task: 'write two files' });
    const state = await waitForState(
      handle,
      'two open approvals',
      (s) => s.interactions.filter((i) => i.kind === 'tool.approval' && i.status === 'open').length === 2,
    );
    const approvals = state.interactions.filter((i) => i.kind === 'tool.approval');
    const [forA, forB] = ['s1', 's2'].map((id) => approvals.find((i) => i.stepId === id));
    if (forA?.kind !== 'tool.approval' || forB?.kind !== 'tool.approval') throw new Error('approvals missing');
    expect(forA).toMatchObject({ tool: 'write_file', arguments: { path: 'a.txt', content: 'A' } });
    expect(forA.digest).toBe(approvalDigest('write_file', { path: 'a.txt', content: 'A' }));
    expect((await stateOf(handle)).steps.map((s) => s.status)).toEqual(['waiting', 'waiting']);

    const otherDigest = approvalDigest('write_file', { path: 'b.txt', content: 'something else' });
    const refused = await expectNothingChanged(
      () => stateOf(handle),
      bed.llm,
      forB.id,
      () => rejection(handle, forB.id, { decision: 'approve', digest: otherDigest }),
    );
    expect(refused).toMatch(/other arguments/);
    expect(existsSync(agentFile(workspace, handle.workflowId, 'b.txt'))).toBe(false);
    await answer(handle, forB.id, { decision: 'reject', digest: forB.digest, reason: 'no B today' }, 'bob');
    await answer(handle, forA.id, { decision: 'approve', digest: forA.digest }, 'alice');
    await handle.result();

    expect(readFileSync(agentFile(workspace, handle.workflowId, 'a.txt'), 'utf8')).toBe('A');
    expect(existsSync(agentFile(workspace, handle.workflowId, 'b.txt'))).toBe(false);
    expect(toolMessage('s1', 1, 'w1')).toBe('wrote 1 bytes to a.txt');
    expect(toolMessage('s2', 1, 'w2')).toMatch(/^error: the user rejected this call: no B today/);
    const audit = (await stateOf(handle)).interactions.map((i) => [i.stepId, i.status, i.by, i.answer]);
    expect(audit).toEqual(
      expect.arrayContaining([
        ['s1', 'answered', 'alice', { decision: 'approve', digest: forA.digest }],
        ['s2', 'answered', 'bob', { decision: 'reject', digest: forB.digest, reason: 'no B today' }],
      ]),
    );
  });
});

test('model and sub_agent: answers come back as tool results and their tokens count for the parent', async () => {
  bed.llm.respondWith(
    byRoute({
      plan: [planReply(plan([step('s1')])), planReply(plan([step('sub1')]))],
      'step:s1': [
        reply.toolCall('model', { task: 'Translate "hi"', systemPrompt: 'You translate into French.' }, 'm1'),
        reply.toolCall('sub_agent', { task: 'Research the greeting' }, 'sa1'),
        finish('combined'),
      ],
      model: [reply.text('bonjour')],
      'step:sub1': [finish('sub finding')],
      summary: [reply.text('sub summary'), reply.text('final')],
    }),
  );
  await withWorker(bed.config, async () => {
    const handle = await startAgent(bed.client, bed.config, { task: 'greet' });
    expect(await handle.result()).toMatchObject({ answer: 'final' });
    expect(toolMessage('s1', 1, 'm1')).toBe('bonjour');
    expect(toolMessage('s1', 2, 'sa1')).toBe('sub summary');
    expect(bed.llm.requestsFor('model')[0]?.body.messages).toEqual([
      { role: 'system', content: 'You translate into French.' },
      { role: 'user', content: 'Translate "hi"' },
    ]);
    const nested = bed.client.workflow.getHandle(`${handle.workflowId}/step-s1/sub-sa1`);
    const described = await nested.describe();
    expect(described.type).toBe('agentWorkflow');
    expect(described.status.name).toBe('COMPLETED');
    const all = bed.llm.requests.reduce((n, r) => n + (r.reportedTokens ?? 0), 0);
    expect((await stateOf(handle)).usage.totalTokens).toBe(all);
  });
});

test('the model calls a user tool and an MCP tool; their descriptions and schemas arrive intact', async () => {
  const tsx = pathToFileURL(require.resolve('tsx')).href;
  const server = join(__dirname, '..', 'fixtures', 'mcp', 'echo-server.ts');
  const config = testConfig(bed.llm, {
    CAIRN_TOOLS: join(__dirname, '..', 'fixtures', 'user-tools', 'greeting-tools.ts'),
    CAIRN_MCP_SERVERS: JSON.stringify([
      { name: 'echo', command: process.execPath, args: ['--import', tsx, server, '--stdio'] },
    ]),
  });
  bed.llm.respondWith(
    byRoute({
      plan: [planReply(plan([step('s1')]))],
      'step:s1': [
        reply.toolCalls([
          { id: 'g1', name: 'greet', arguments: { name: 'Ada' } },
          { id: 'e1', name: 'echo__echo', arguments: { text: 'ping' } },
        ]),
        finish('greeted and echoed'),
      ],
      summary: [reply.text('done')],
    }),
  );
  await withWorker(config, async () => {
    await (await startAgent(bed.client, config, { task: 'use external tools' })).result();
    expect(toolMessage('s1', 1, 'g1')).toBe('Hello, Ada!');
    expect(toolMessage('s1', 1, 'e1')).toContain('ping');
    const offered = Object.fromEntries(
      (bed.llm.requestsFor('step')[0]?.body.tools ?? []).flatMap((t) =>
        t.type === 'function' ? [[t.function.name, t.function]] : [],
      ),
    );
    expect(offered.greet).toMatchObject({
      description: 'Greet someone by name.',
      parameters: z.toJSONSchema(greetTool.input),
    });
    expect(offered.echo__echo?.description).toBe(ECHO_DESCRIPTIONS.echo);
    expect(offered.echo__echo?.parameters?.properties).toEqual({
      text: { type: 'string', description: 'Text to echo' },
    });
  });
});
