/**
 * The event streams' limits and cost (docs/operations.md#event-streams), against a real agent
 * waiting at its plan check: one principal holds at most CAIRN_HTTP_MAX_STREAMS_PER_PRINCIPAL
 * streams and the server CAIRN_HTTP_MAX_STREAMS; past either a new one is 429 TOO_MANY_STREAMS
 * with Retry-After and reads nothing, and a closed stream gives its place back. Streams of one
 * agent share their state reads: ten cost about what one does.
 */
import type { OpenAPIHono } from '@hono/zod-openapi';
import { AgentClient } from '../../client/agent-client';
import { SessionStore } from '../../client/http/auth/sessions';
import { sha256Hex, TokenTable } from '../../client/http/auth/token-table';
import { createApp } from '../../client/http/create-app';
import type { StreamLimits } from '../../config/stream-limits';
import type { AgentState } from '../../workflows/agent/agent-state';
import { byRoute } from '../fake-llm/routes';
import { agentTestbed } from '../harness/agent-testbed';
import { plan, planReply, step } from '../harness/plans';
import { withWorker } from '../harness/test-env';
import { waitUntil } from '../../testkit/wait-until';

const bed = agentTestbed();
const POLL_MS = 50;
const tokens = { vic: 'token-of-vic-the-viewer-00000', val: 'token-of-val-the-viewer-00000' };

/** Counts the state reads the routes make. */
class CountingClient extends AgentClient {
  reads = 0;
  override async state(id: string, afterSeq?: number): Promise<AgentState> {
    this.reads += 1;
    return super.state(id, afterSeq);
  }
}

function appFor(agents: AgentClient, streamLimits: StreamLimits): OpenAPIHono {
  const table = new TokenTable([
    { principal: 'vic', roles: ['viewer', 'operator'], tokenSha256: sha256Hex(tokens.vic) },
    { principal: 'val', roles: ['viewer'], tokenSha256: sha256Hex(tokens.val) },
  ]);
  return createApp({
    version: 'test',
    temporalHealthy: () => Promise.resolve(true),
    agents,
    auth: { mode: 'tokens', tokens: table, sessions: new SessionStore() },
    eventTiming: { pollMs: POLL_MS, heartbeatMs: 60_000 },
    streamLimits,
  });
}

const as = (who: keyof typeof tokens) => ({ authorization: `Bearer ${tokens[who]}` });

/** An agent that waits at its plan check (and so makes no events while the streams run). */
async function waitingAgent(app: OpenAPIHono): Promise<string> {
  const started = await app.request('/api/agents', {
    method: 'POST',
    body: JSON.stringify({ task: 'Wait to be watched', mode: { confirmPlan: true } }),
    headers: { 'content-type': 'application/json', ...as('vic') },
  });
  expect(started.status).toBe(201);
  const { id } = (await started.json()) as { id: string };
  await waitUntil('the plan check opens', async () => {
    const res = await app.request(`/api/agents/${id}`, { headers: as('vic') });
    return ((await res.json()) as AgentState).phase === 'awaiting_input' ? true : undefined;
  });
  return id;
}

/** Every stream a test opened, closed after it whatever happened. */
const opened: { close: () => Promise<void> }[] = [];
afterEach(async () => {
  for (const stream of opened.splice(0)) await stream.close();
});

/**
 * Opens a stream as `who` and reads it as a browser would (a stream nobody reads stops at its
 * first frames); `close()` cancels it as a leaving browser does.
 */
async function open(app: OpenAPIHono, id: string, who: keyof typeof tokens) {
  const res = await app.request(`/api/agents/${id}/events`, { headers: as(who) });
  if (res.status !== 200 || !res.body) return { res, close: () => Promise.resolve() };
  const reader = res.body.getReader();
  const drained = (async () => {
    while (!(await reader.read().catch(() => ({ done: true }))).done);
  })();
  const stream = {
    res,
    close: async () => {
      await reader.cancel();
      await drained;
    },
  };
  opened.push(stream);
  return stream;
}

async function refusal(res: Response) {
  const { error } = (await res.json()) as { error: { code: string; message: string } };
  return [res.status, error.code, res.headers.get('retry-after')];
}

test('streams per principal and in total are limited: 429 TOO_MANY_STREAMS past either, a closed one gives its place back', async () => {
  bed.llm.respondWith(byRoute({ plan: [planReply(plan([step('s1')]))] }));
  await withWorker(bed.config, async () => {
    const agents = new CountingClient(bed.client, bed.config.taskQueue);
    const app = appFor(agents, { perPrincipal: 3, total: 4 });
    const id = await waitingAgent(app);

    const vics = [await open(app, id, 'vic'), await open(app, id, 'vic'), await open(app, id, 'vic')];
    expect(vics.map((s) => s.res.status)).toEqual([200, 200, 200]);
    // Vic's fourth: his limit. It is refused before it reads anything.
    const reads = agents.reads;
    expect(await refusal((await open(app, id, 'vic')).res)).toEqual([429, 'TOO_MANY_STREAMS', '5']);
    expect(agents.reads).toBe(reads);
    // Val's first fits the server's four; her second does not.
    const val = await open(app, id, 'val');
    expect(val.res.status).toBe(200);
    expect(await refusal((await open(app, id, 'val')).res)).toEqual([429, 'TOO_MANY_STREAMS', '5']);

    // Vic closes one: its place is free again, for him (and so for the server).
    await vics[0]?.close();
    const again = await waitUntil('the closed stream gave its place back', async () => {
      const next = await open(app, id, 'vic');
      if (next.res.status === 200) return next;
      expect(await refusal(next.res)).toEqual([429, 'TOO_MANY_STREAMS', '5']);
      return undefined;
    });
    expect(again.res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    // And he is at his limit again.
    expect(await refusal((await open(app, id, 'vic')).res)).toEqual([429, 'TOO_MANY_STREAMS', '5']);
  });
});

test('streams of one agent share their reads: ten streams cost about what one does', async () => {
  bed.llm.respondWith(byRoute({ plan: [planReply(plan([step('s1')]))] }));
  await withWorker(bed.config, async () => {
    const agents = new CountingClient(bed.client, bed.config.taskQueue);
    const app = appFor(agents, { perPrincipal: 20, total: 20 });
    const id = await waitingAgent(app);
    /** Milliseconds the open streams take to make `count` more state reads. */
    const timeFor = async (count: number) => {
      const from = agents.reads;
      const started = performance.now();
      await waitUntil(`${count} more state reads`, () => (agents.reads >= from + count ? true : undefined), {
        intervalMs: 10,
      });
      return performance.now() - started;
    };

    const one = await open(app, id, 'vic');
    const alone = await timeFor(40);
    await one.close();
    const ten = await Promise.all(Array.from({ length: 10 }, () => open(app, id, 'vic')));
    expect(ten.map((s) => s.res.status)).toEqual(Array.from({ length: 10 }, () => 200));
    const together = await timeFor(40);
    // Each stream polling on its own made ten reads per interval (40 reads in a tenth of the time);
    // shared, the ten make about one read per interval, as one stream does.
    expect(together).toBeGreaterThan(alone / 3);
  });
});
