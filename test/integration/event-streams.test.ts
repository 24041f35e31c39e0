/**
 * The event streams' limits and cost (docs/operations.md#event-streams), against a real agent
 * waiting at its plan check: one principal holds at most CAIRN_HTTP_MAX_STREAMS_PER_PRINCIPAL
 * streams and the server CAIRN_HTTP_MAX_STREAMS; past either a new one is 429 TOO_MANY_STREAMS
 * with Retry-After and reads nothing, and a closed stream gives its place back. Streams of one
 * agent share their state reads: ten cost about what one does.
 */
import type { OpenAPIHono } from '@hono/zod-openapi';
import { AgentClient } from '../../client/agents/agent-client';
import { SessionStore } from '../../client/http/auth/sessions';
import { sha256Hex, TokenTable } from '../../client/http/auth/token-table';
import { LiveHub } from '../../client/live/live-hub';
import type { EventStreamTiming } from '../../client/agents/routes/events';
import { BUSY_SPELL_MS } from '../../client/agents/timeline-wakes';
import type { StreamLimits } from '../../config/stream-limits';
import type { AgentState } from '../../workflows/model/agent/agent-state';
import { byRoute } from '../fake-llm/routes';
import { agentTestbed } from '../harness/agent-testbed';
import { finish, plan, planReply, step } from '../harness/plans';
import { reply } from '../fake-llm/replies';
import { withWorker } from '../harness/test-env';
import { waitUntil } from '../../testkit/wait-until';
import { appOver } from '../harness/http-app';

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

function appFor(
  agents: AgentClient,
  streamLimits: StreamLimits,
  eventTiming: Partial<EventStreamTiming> = { pollMs: POLL_MS, idleMs: POLL_MS },
  live?: LiveHub,
): OpenAPIHono {
  const table = new TokenTable([
    { principal: 'vic', roles: ['viewer', 'operator', 'approver'], tokenSha256: sha256Hex(tokens.vic) },
    { principal: 'val', roles: ['viewer'], tokenSha256: sha256Hex(tokens.val) },
  ]);
  return appOver(agents, {
    auth: { mode: 'tokens', tokens: table, sessions: new SessionStore() },
    eventTiming: { heartbeatMs: 60_000, ...eventTiming },
    streamLimits,
    ...(live ? { live } : {}),
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
  /** The timeline events received, in order. */
  const events: { type: string }[] = [];
  if (res.status !== 200 || !res.body) return { res, events, close: () => Promise.resolve() };
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  const drained = (async () => {
    for (;;) {
      const { done, value } = await reader.read().catch(() => ({ done: true, value: undefined }));
      if (done) return;
      for (const [, type] of (value ?? '').matchAll(/^event: (.+)$/gm)) events.push({ type: type ?? '' });
    }
  })();
  const stream = {
    res,
    events,
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

/**
 * The quiet read interval of the wake tests: longer than the tests run, so a stream that shows an
 * event after its busy spell can only have been woken — no time bound is needed to tell.
 */
const IDLE_MS = 10 * 60_000;
/** How long the quiet streams are watched for reads. */
const QUIET_WINDOW_MS = 3_000;

/** A hub that never hears anything: the event streams are woken only by what this server passes on. */
class SilentHub extends LiveHub {
  override follow(): () => void {
    return () => undefined;
  }
}

/** The real hub, noting when it last passed anything on: each item wakes the streams into a busy spell. */
class NotingHub extends LiveHub {
  lastWake = performance.now();
  override follow(...[agentId, lastSeen, listener, kind]: Parameters<LiveHub['follow']>): () => void {
    const noted = (): void => void (this.lastWake = performance.now());
    return super.follow(
      agentId,
      lastSeen,
      {
        event: (e) => (noted(), listener.event(e)),
        reset: (from) => (noted(), listener.reset(from)),
        end: () => (noted(), listener.end()),
      },
      kind,
    );
  }
}

/** Resolves once `ms` have passed since `since()`, which may move on meanwhile (a later wake). */
async function passedSince(since: () => number, ms: number): Promise<void> {
  for (let left = ms; left > 0; left = since() + ms - performance.now())
    await new Promise((resolve) => setTimeout(resolve, left));
}

/**
 * An agent waiting at its plan check, followed by three event streams reading every POLL_MS while
 * busy and every IDLE_MS while quiet: past the busy spell of their start they read far less
 * than polling would (about once each in QUIET_WINDOW_MS, against 60 times polling at POLL_MS); the plan check is then answered by
 * `answer`, and the answer must reach every stream — which, the next idle read being IDLE_MS
 * away, only a wake can bring about.
 */
async function answerWhileQuiet(
  live: 'hub' | 'silent',
  answer: (app: OpenAPIHono, id: string, interactionId: string, agents: AgentClient) => Promise<void>,
): Promise<void> {
  bed.llm.respondWith(
    byRoute({ plan: [planReply(plan([step('s1')]))], 'step:s1': [finish('done')], summary: [reply.text('all done')] }),
  );
  await withWorker(bed.config, async () => {
    const agents = new CountingClient(bed.client, bed.config.taskQueue);
    const hub = live === 'silent' ? new SilentHub({ client: bed.client }) : new NotingHub({ client: bed.client });
    const app = appFor(agents, { perPrincipal: 20, total: 20 }, { pollMs: POLL_MS, idleMs: IDLE_MS }, hub);
    const id = await waitingAgent(app);
    const streams = await Promise.all(Array.from({ length: 3 }, () => open(app, id, 'vic')));
    // A stream starts busy when it opens, and any item the hub passes on starts another busy
    // spell: the quiet window starts BUSY_SPELL_MS (and a little) after the last of them, and is
    // watched again should the hub pass something on during it.
    const opened = performance.now();
    const lastWake = () => Math.max(opened, hub instanceof NotingHub ? hub.lastWake : 0);
    await waitUntil('the plan check is on the streams', () =>
      streams.every((s) => s.events.some((e) => e.type === 'interaction.opened')) ? true : undefined,
    );
    let before: number;
    let woken: number;
    do {
      await passedSince(lastWake, BUSY_SPELL_MS + 500);
      woken = lastWake();
      before = agents.reads;
      await new Promise((resolve) => setTimeout(resolve, QUIET_WINDOW_MS));
    } while (lastWake() !== woken);
    // Quiet streams read about once each here; polling at POLL_MS they would read
    // QUIET_WINDOW_MS / POLL_MS (60) times each. The bound sits a tenth of the way to polling, so a
    // busy spell that a loaded machine stretches a little, or a read begun as it ended, cannot
    // fail it, while streams that kept polling always do.
    const pollingReads = streams.length * (QUIET_WINDOW_MS / POLL_MS);
    expect(agents.reads - before).toBeLessThan(pollingReads / 10);

    const state = await agents.state(id);
    const check = state.interactions.find((i) => i.kind === 'plan.check' && i.status === 'open');
    await answer(app, id, check?.id ?? '', agents);
    await waitUntil('the answer is on every stream', () =>
      streams.every((s) => s.events.some((e) => e.type === 'interaction.answered')) ? true : undefined,
    );
  });
}

test('a quiet agent is read seldom; an answer passed through this server wakes its streams at once', async () => {
  await answerWhileQuiet('silent', async (app, id, interactionId) => {
    const answered = await app.request(`/api/agents/${id}/answers`, {
      method: 'POST',
      body: JSON.stringify({ interactionId, answer: { decision: 'confirm' } }),
      headers: { 'content-type': 'application/json', ...as('vic') },
    });
    expect(answered.status).toBe(200);
  });
  // Its hub hears nothing and the next idle read is minutes away: the answer it passed on woke the streams.
});

test("an answer given elsewhere shows as soon as the agent's live stream moves", async () => {
  await answerWhileQuiet('hub', async (_app, id, interactionId, agents) => {
    // Through the client library, as the CLI does: this web server hears nothing of it, but the
    // step the answer lets run starts a model call on the agent's live stream.
    await agents.answer(id, { interactionId, answer: { decision: 'confirm' } });
  });
});
