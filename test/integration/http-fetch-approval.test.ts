/**
 * http_fetch through the agent, against a loopback `node:http` server: a GET runs at once and
 * is retried like any read; a POST is a write — it waits for a `tool.approval`, is sent once
 * (one attempt) and carries the call's idempotency key; a rejected DELETE is never sent.
 */
import { type IncomingHttpHeaders, type Server, createServer } from 'node:http';
import { reply } from '../fake-llm/replies';
import { byRoute } from '../fake-llm/routes';
import { agentTestbed } from '../harness/agent-testbed';
import { answer, startAgent, stateOf, waitForInteraction } from '../harness/agents';
import { finish, plan, planReply, step } from '../harness/plans';
import { withWorker } from '../harness/test-env';

const bed = agentTestbed({ CAIRN_FETCH_ALLOW: 'loopback' });

/** A request as the loopback server saw it. */
interface Seen {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

const seen: Seen[] = [];
let server: Server;
let base: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString();
      seen.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers, body });
      const text = `${req.method ?? ''} seen`;
      res.writeHead(200, { 'content-type': 'text/plain', 'content-length': Buffer.byteLength(text) }).end(text);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

function toolMessage(callId: string): string {
  for (const request of bed.llm.requestsFor('step')) {
    const message = request.body.messages.find((m) => m.role === 'tool' && m.tool_call_id === callId);
    if (typeof message?.content === 'string') return message.content;
  }
  return '';
}

test('GET runs without approval; POST waits for approval, is sent once with its idempotency key', async () => {
  const post = { url: `${base}/orders`, method: 'POST', body: '{"item":"tea"}' };
  const del = { url: `${base}/orders/1`, method: 'DELETE' };
  bed.llm.respondWith(
    byRoute({
      plan: [planReply(plan([step('s1')]))],
      'step:s1': [
        reply.toolCall('http_fetch', { url: `${base}/orders` }, 'g1'),
        reply.toolCall('http_fetch', post, 'p1'),
        reply.toolCall('http_fetch', del, 'd1'),
        finish('ordered tea'),
      ],
      summary: [reply.text('done')],
    }),
  );
  await withWorker(bed.config, async () => {
    const handle = await startAgent(bed.client, bed.config, { task: 'order tea' });

    const forPost = await waitForInteraction(handle, 'tool.approval', 's1');
    expect(forPost).toMatchObject({ tool: 'http_fetch', arguments: post });
    // The GET already ran, unasked; nothing was posted while the approval is open.
    expect(seen.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /orders']);
    expect(seen[0]?.headers['idempotency-key']).toBeUndefined();
    expect(toolMessage('g1')).toMatch(/^HTTP 200 OK\n[\s\S]*\n\nGET seen$/);
    await answer(handle, forPost.id, { decision: 'approve', digest: forPost.digest });

    const forDelete = await waitForInteraction(handle, 'tool.approval', 's1');
    expect(forDelete).toMatchObject({ tool: 'http_fetch', arguments: del });
    await answer(handle, forDelete.id, { decision: 'reject', digest: forDelete.digest, reason: 'keep it' });
    await handle.result();

    expect(seen.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /orders', 'POST /orders']);
    expect(seen[1]?.headers['idempotency-key']).toBe(`${handle.workflowId}/s1/p1`);
    expect(seen[1]?.body).toBe(post.body);
    expect(toolMessage('p1')).toMatch(/\n\nPOST seen$/);
    expect(toolMessage('d1')).toMatch(/^error: the user rejected this call: keep it/);
    expect((await stateOf(handle)).steps[0]).toMatchObject({ status: 'completed', result: 'ordered tea' });

    // The read may be retried; the write has one attempt, so a crash can never send it twice.
    const stepHistory = await bed.client.workflow.getHandle(`${handle.workflowId}/step-s1`).fetchHistory();
    const attempts = (stepHistory.events ?? []).flatMap((e) => {
      const scheduled = e.activityTaskScheduledEventAttributes;
      return scheduled?.activityType?.name === 'runTool' ? [scheduled.retryPolicy?.maximumAttempts] : [];
    });
    expect(attempts).toHaveLength(2);
    expect(attempts[0]).toBeGreaterThan(1);
    expect(attempts[1]).toBe(1);
  });
});
