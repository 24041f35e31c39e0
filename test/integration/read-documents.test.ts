/**
 * A step reads documents through the real worker: a PDF, a DOCX and a CSV made by the test come
 * back to the model as text, and a DOCX bomb comes back as a tool error while the worker goes on.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { reply } from '../fake-llm/replies';
import { byRoute } from '../fake-llm/routes';
import { agentTestbed } from '../harness/agent-testbed';
import { startAgent, agentFolder } from '../harness/agents';
import { makeDocx, makeDocxBomb, makePdf } from '../harness/documents';
import { finish, plan, planReply, step } from '../harness/plans';
import { testConfig, withWorker, uniqueId } from '../harness/test-env';

const bed = agentTestbed();

/** The tool result for `callId` in the `index`th step request of s1. */
function toolMessage(index: number, callId: string): string {
  const request = bed.llm.requests.filter(
    (r) => r.headers['x-cairn-step'] === 's1' && r.headers['x-cairn-purpose'] === 'step',
  )[index];
  const message = request?.body.messages.find((m) => m.role === 'tool' && m.tool_call_id === callId);
  return typeof message?.content === 'string' ? message.content : '';
}

test('a step reads a PDF, a DOCX and a CSV as text; a DOCX bomb is refused and the next read works', async () => {
  const workspace = mkdtempSync(join(tmpdir(), 'documents-'));
  const config = testConfig(bed.llm, { CAIRN_WORKSPACE: workspace });
  const agentId = uniqueId('agent-test');
  const folder = agentFolder(config, agentId);
  writeFileSync(join(folder, 'invoice.pdf'), makePdf(['Invoice 4711 total 99 EUR']));
  writeFileSync(join(folder, 'letter.docx'), makeDocx(['Dear Ada', 'Your order has shipped']));
  writeFileSync(join(folder, 'orders.csv'), 'id,item\n1,lamp\n');
  writeFileSync(join(folder, 'bomb.docx'), makeDocxBomb(300 * 2 ** 20));
  bed.llm.respondWith(
    byRoute({
      plan: [planReply(plan([step('s1')]))],
      'step:s1': [
        reply.toolCall('read_file', { path: 'invoice.pdf' }, 'pdf'),
        reply.toolCall('read_file', { path: 'bomb.docx' }, 'bomb'),
        reply.toolCall('read_file', { path: 'letter.docx' }, 'docx'),
        reply.toolCall('read_file', { path: 'orders.csv' }, 'csv'),
        finish('read them'),
      ],
      summary: [reply.text('done')],
    }),
  );
  await withWorker(config, async () => {
    const handle = await startAgent(bed.client, config, { task: 'read the documents' }, agentId);
    expect(await handle.result()).toMatchObject({ status: 'completed', answer: 'done' });
  });
  expect(toolMessage(1, 'pdf')).toContain('Invoice 4711 total 99 EUR');
  expect(toolMessage(2, 'bomb')).toMatch(/^error: .*"bomb\.docx" cannot be read as docx: it inflates to \d+ bytes/);
  expect(toolMessage(3, 'docx')).toMatch(/Dear Ada\s+Your order has shipped/);
  expect(toolMessage(4, 'csv')).toBe('id,item\n1,lamp\n');
});
