/**
 * Approving over HTTP the way docs/getting-started.md shows it with curl: the approval's digest copied from
 * the state, or — as the CLI does — left out, and the API fills in the digest of the very
 * interaction answered. A digest that is not the interaction's is still refused (the approval
 * binds to the arguments shown), and an answer of another kind goes on as it came.
 */
import type { OpenAPIHono } from '@hono/zod-openapi';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AgentState } from '../../workflows/model/agent/agent-state';
import { reply, said } from '../fake-llm/replies';
import { byRoute } from '../fake-llm/routes';
import { agentTestbed } from '../harness/agent-testbed';
import { startAgent, waitForInteraction, agentFile } from '../harness/agents';
import { finish } from '../harness/plans';
import { expectNothingChanged } from '../harness/nothing-changed';
import { withWorker } from '../harness/test-env';
import { testApp } from '../harness/http-app';

const workspace = mkdtempSync(join(tmpdir(), 'http-approval-'));
const bed = agentTestbed({ CAIRN_WORKSPACE: workspace });

const post = (app: OpenAPIHono, path: string, body: unknown) =>
  app.request(path, { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });

test('an approval without its digest gets the open one filled in; a wrong digest is refused; the write runs once', async () => {
  bed.llm.respondWith(
    byRoute({
      'step:task': [
        said('First one.txt.', reply.toolCall('write_file', { path: 'one.txt', content: 'first' }, 'w1')),
        said('Then two.txt.', reply.toolCall('write_file', { path: 'two.txt', content: 'second' }, 'w2')),
        finish('both written'),
      ],
      summary: [reply.text('done')],
    }),
  );
  const app = testApp(bed.client, bed.config.taskQueue);
  await withWorker(bed.config, async () => {
    const handle = await startAgent(bed.client, bed.config, { task: 'write two files', mode: { plan: false } });
    const read = async () => (await (await app.request(`/api/agents/${handle.workflowId}`)).json()) as AgentState;
    const answers = `/api/agents/${handle.workflowId}/answers`;

    // The first approval: a digest that is not this interaction's is refused, nothing changes.
    const first = await waitForInteraction(handle, 'tool.approval');
    const wrong = await expectNothingChanged(read, bed.llm, first.id, async () => {
      const res = await post(app, answers, {
        interactionId: first.id,
        answer: { decision: 'approve', digest: 'sha256:0' },
      });
      return { status: res.status, body: (await res.json()) as { error: { code: string; field?: string } } };
    });
    expect(wrong).toMatchObject({ status: 400, body: { error: { code: 'INVALID_ANSWER', field: 'answer.digest' } } });
    // Copied from the state, as the curl of docs/getting-started.md does.
    const copied = (await read()).interactions.find((i) => i.id === first.id);
    const digest = copied?.kind === 'tool.approval' ? copied.digest : '';
    expect(
      (await post(app, answers, { interactionId: first.id, answer: { decision: 'approve', digest } })).status,
    ).toBe(200);

    // The second: no digest at all; the API fills in this interaction's.
    const second = await waitForInteraction(handle, 'tool.approval');
    expect(second.id).not.toBe(first.id);
    const res = await post(app, answers, { interactionId: second.id, answer: { decision: 'approve' } });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { answer: unknown }).answer).toEqual({ decision: 'approve', digest: second.digest });
    expect(second.digest).not.toBe(digest);

    await handle.result();
    expect(readFileSync(agentFile(workspace, handle.workflowId, 'two.txt'), 'utf8')).toBe('second');
    const approvals = (await read()).interactions.filter((i) => i.kind === 'tool.approval');
    expect(approvals.map((i) => [i.status, i.answer])).toEqual([
      ['answered', { decision: 'approve', digest }],
      ['answered', { decision: 'approve', digest: second.digest }],
    ]);
  });
});
